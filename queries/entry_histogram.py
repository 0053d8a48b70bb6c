"""How many of a project's entries a viewer may see, per year and month of their date: the web timeline's
histogram. Counted after the visibility predicate, in the same statement, so an entry hidden from the viewer never
moves a bar. Each entry counts once, at the middle of its date range: a day or a month counts in that month, a season
or any range shorter than a year in the month (and year) holding its middle, so "summer 2009" counts in August 2009;
a year or a longer range counts in its first year only (`month` null); an undated entry in neither (`year` null).
So the months of a year never add up to more than the year."""

from __future__ import annotations

from dataclasses import dataclass

from graph.db import Graph
from graph.visibility import CAN_SEE, Viewer, visibility_params

YEAR_DAYS = 360
"""A range this many days long or longer is a year or more (as `ingest.dates` calls a range a year): no month."""
ENTRY_HISTOGRAM = f"""
MATCH (e:Entry {{project_id: $project_id}})
WHERE {CAN_SEE}
WITH e.occurred_start AS start, coalesce(e.occurred_end, e.occurred_start) AS end
WITH start, duration.inDays(start, end).days AS days
WITH start, CASE WHEN days < {YEAR_DAYS} THEN start + duration({{days: days / 2}}) END AS middle
WITH coalesce(middle.year, start.year) AS year, middle.month AS month
RETURN year, month, count(*) AS entries
ORDER BY year, month
"""


@dataclass(frozen=True)
class Bar:
    year: int | None
    month: int | None
    entries: int


def entry_histogram(graph: Graph, viewer: Viewer, project_id: str) -> list[Bar]:
    """The bars, by year then month (the caller checks membership first)."""
    rows = graph.read(ENTRY_HISTOGRAM, {"project_id": project_id, **visibility_params(viewer)})
    return [Bar(r["year"], r["month"], int(r["entries"])) for r in rows]
