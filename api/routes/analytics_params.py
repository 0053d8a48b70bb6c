"""Query parameters the analytics routes share: the date range (`from`/`to`, as vague as entry dates) and the clock
that places a mention."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from fastapi import HTTPException, Query

from api.date_range import BadRange, date_range

_VAGUE = "`YYYY`, `YYYY-MM` or `YYYY-MM-DD`"
DateFrom = Annotated[
    str | None,
    Query(
        alias="from",
        max_length=50,
        description=(
            f"Only entries whose date ends on or after the start of this date ({_VAGUE}: `2009` means 2009-01-01)."
        ),
    ),
]
DateTo = Annotated[
    str | None,
    Query(
        alias="to",
        max_length=50,
        description=(
            f"Only entries whose date starts on or before the end of this date ({_VAGUE}: `2009` means 2009-12-31)."
        ),
    ),
]

Clock = Annotated[
    Literal["event", "written"],
    Query(
        description=(
            "Which clock places a mention: `event` (default), the times told in the sentences that name the entity "
            '("en 2008 Pep se fue a Berlín" counts in 2008), the entry\'s date where they tell none; `written`, '
            "the entry's date."
        ),
    ),
]


def query_range(date_from: str | None, date_to: str | None) -> tuple[date | None, date | None]:
    """The range as dates, or a 422 naming the query parameter at fault."""
    try:
        return date_range(date_from, date_to)
    except BadRange as exc:
        raise HTTPException(422, [{"loc": ["query", exc.field], "msg": str(exc), "type": "value_error"}]) from None
