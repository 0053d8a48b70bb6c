"""`from`/`to` of the analytics (co-occurrence, changes), as vague as the entries' own dates."""

from __future__ import annotations

from datetime import date

from ingest.dates import parse_point


class BadRange(ValueError):
    """A `from`/`to` that is not a date, or a `to` before `from`; `field` names the culprit."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def date_range(date_from: str | None, date_to: str | None) -> tuple[date | None, date | None]:
    """`from`/`to` as vague as the entries' dates (YYYY, YYYY-MM, YYYY-MM-DD): `from` is the start of what it means,
    `to` its end, so `from=2009&to=2009` is the whole of 2009."""
    bounds: list[date | None] = []
    for field, text, side in (("from", date_from, "start"), ("to", date_to, "end")):
        if text is None or not text.strip():
            bounds.append(None)
            continue
        try:
            bounds.append(getattr(parse_point(text), side))
        except ValueError:  # its message quotes the input, which a 422 never echoes
            raise BadRange(
                field, f"{field} is not a date (use YYYY, YYYY-MM or YYYY-MM-DD, a real calendar date)"
            ) from None
    start, end = bounds
    if start is not None and end is not None and end < start:
        raise BadRange("to", "to is before from")
    return start, end
