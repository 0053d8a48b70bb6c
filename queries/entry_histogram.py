"""How many of a project's entries a viewer may see, per year and month of their date: the web timeline's
histogram. Counted after the visibility predicate, in the same statement, so an entry hidden from the viewer never
moves a bar. An entry dated within one month counts in that month; one dated to a year, a season or a span across
months counts in its first year only (`month` null); an undated one in neither (`year` null)."""

from __future__ import annotations

from dataclasses import dataclass

from graph.db import Graph
from graph.visibility import CAN_SEE, Viewer, visibility_params

ENTRY_HISTOGRAM = f"""
MATCH (e:Entry {{project_id: $project_id}})
WHERE {CAN_SEE}
WITH e.occurred_start AS start, e.occurred_end AS end
WITH start.year AS year,
     CASE WHEN end IS NOT NULL AND start.year = end.year AND start.month = end.month THEN start.month END AS month
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
