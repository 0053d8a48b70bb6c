"""Response models of the timeline and change analytics (`/analytics/timeline?resolution=month`,
`/analytics/changes`), and the co-occurrence measure's description that the route and the MCP tool share. Kept apart
from api/models/core.py, which holds the older analytics models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Kind = Literal["person", "place", "thing"]
MEASURE_DOC = (
    "How companions are ranked. `jaccard` (default): shared entries / entries naming either, which "
    "favours neither whoever is everywhere nor whoever appears once; `pmi`: log2(N·shared/(n_x·n_y)) "
    "over the caller's visible entries in the range, which lifts rare companions; `count`: shared "
    "entries."
)
"""The co-occurrence `measure`, as the route's query parameter and the MCP tool's argument describe it."""


class MonthOut(BaseModel):
    month: str = Field(description="`YYYY-MM`")
    entries: int
    mentions: int


class AppearedOut(BaseModel):
    """An entity whose first visible dated mention falls in the period."""

    id: str
    name: str
    kind: Kind
    first: str = Field(description="Start date of the first visible entry naming it.")
    last: str = Field(description="Start date of the last visible entry naming it.")
    entries: int = Field(description="Visible entries naming it whose date overlaps the period.")


class DisappearedOut(BaseModel):
    """An entity whose last visible mention falls in the period, followed by a silence of at least `factor` times
    its mean gap (a gap counts as at least 30 days) until the story's end; needs 3 visible dated entries."""

    id: str
    name: str
    kind: Kind
    first: str
    last: str
    entries: int = Field(description="Visible dated entries naming it, all time.")
    mean_gap_days: float = Field(description="(last − first) / (entries − 1), in days.")
    silent_days: int = Field(description="Days from `last` to `story_end`.")


class ChangesOut(BaseModel):
    # `from` is a Python keyword: the field is `from_`, the JSON key stays "from".
    model_config = ConfigDict(populate_by_name=True)

    from_: str | None = Field(alias="from", description="The period's first day (null: from the beginning).")
    to: str | None = Field(description="The period's last day (null: to the end).")
    story_end: str | None = Field(description="Start date of the latest entry the caller may see in the project.")
    factor: float
    appeared: list[AppearedOut]
    disappeared: list[DisappearedOut]
