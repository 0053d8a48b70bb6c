"""Entity questions: who appears with whom, when someone appears, who matters most.

Every count is taken over entries the viewer may see (the `CAN_SEE` predicate inside the statement), so an
aggregate never reveals that a hidden entry exists.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from graph.db import Graph
from graph.entities import display_name
from graph.visibility import CAN_SEE

# An entry in the date range: its (vague) date range overlaps [$date_from, $date_to], like the entries listing.
IN_RANGE = """(($date_from IS NULL OR {v}.occurred_end >= $date_from)
  AND ($date_to IS NULL OR {v}.occurred_start <= $date_to))"""

MEASURES = ("jaccard", "pmi", "count")

# Scores: `count` = shared entries; `jaccard` = shared / entries naming either; `pmi` = log2(N · shared / (n_x · n_y))
# with N the viewer's visible entries in the range. Every n is a count over visible entries in the range. One pass
# over the visible entries (each judged by CAN_SEE once) gives N and every n_y; a subquery per companion would judge
# an entry once per person it names.
CO_OCCURRENCE = f"""
CALL () {{
  MATCH (e:Entry) WHERE e.project_id = $project_id AND {IN_RANGE.format(v="e")} AND {CAN_SEE}
  RETURN collect(e) AS visible
}}
UNWIND visible AS e
MATCH (e)-[:MENTIONS]->(y)
WITH size(visible) AS total, e, collect(y) AS named
WITH total, e, named, any(y IN named WHERE y.id = $entity_id) AS with_x
UNWIND named AS y
WITH total, y, count(DISTINCT e) AS n_y, count(DISTINCT CASE WHEN with_x THEN e END) AS together,
     min(CASE WHEN with_x THEN e.occurred_start END) AS first, max(CASE WHEN with_x THEN e.occurred_end END) AS last
WITH total, collect({{y: y, n_y: n_y, together: together, first: first, last: last}}) AS rows
WITH total, rows, [r IN rows WHERE r.y.id = $entity_id | r.n_y][0] AS n_x
UNWIND rows AS r
WITH total, n_x, r.y AS y, r.n_y AS n_y, r.together AS together, r.first AS first, r.last AS last
WHERE together > 0 AND y.id <> $entity_id AND ($kind IS NULL OR y.kind = $kind)
WITH y, together, first, last, n_y, CASE $measure
  WHEN 'count' THEN toFloat(together)
  WHEN 'jaccard' THEN round(toFloat(together) / (n_x + n_y - together), 6)
  ELSE round(log(toFloat(total) * together / (toFloat(n_x) * n_y)) / log(2.0), 6) END AS score
ORDER BY score DESC, together DESC, y.id
LIMIT $limit
RETURN y.id AS id, {display_name("y")} AS name, y.kind AS kind, together, n_y AS entries, score,
       toString(first) AS first, toString(last) AS last
ORDER BY score DESC, together DESC, name
"""

TIMELINE = f"""
MATCH (e:Entry)-[m:MENTIONS]->(x)
WHERE e.project_id = $project_id AND x.id = $entity_id AND e.occurred_start IS NOT NULL AND {CAN_SEE}
RETURN e.occurred_start.year AS year, count(DISTINCT e) AS entries, sum(m.count) AS mentions
ORDER BY year
"""

IMPORTANCE = f"""
MATCH (e:Entry)-[m:MENTIONS]->(x)
WHERE e.project_id = $project_id AND ($kind IS NULL OR x.kind = $kind) AND {CAN_SEE}
OPTIONAL MATCH (e)-[:IN_PERIOD]->(per:Period)
WITH x, count(DISTINCT e) AS entries, sum(m.count) AS mentions, count(DISTINCT per) AS periods,
     count(DISTINCT e.occurred_start.year) AS years
WITH x, entries, mentions, periods, years, entries * (1 + periods + years) AS importance
ORDER BY importance DESC, x.id
LIMIT $limit
RETURN x.id AS id, {display_name("x")} AS name, x.kind AS kind, entries, mentions, periods, years, importance
ORDER BY importance DESC, name
LIMIT $limit
"""


def co_occurrence(graph: Graph, viewer_params: dict[str, Any], project_id: str, entity_id: str,
                  limit: int = 10, kind: str | None = None, measure: str = "jaccard",
                  date_from: date | None = None, date_to: date | None = None) -> list[dict[str, Any]]:
    """Companions of an entity (of one kind, when given), best `measure` first, over visible entries whose date
    overlaps the range (any entry, dated or not, without one). Jaccard by default: raw counts favour whoever is
    everywhere, PMI favours whoever appears once (README, "Entity questions")."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}")
    return [dict(r) for r in graph.read(CO_OCCURRENCE, {
        "project_id": project_id, "entity_id": entity_id, "limit": limit, "kind": kind, "measure": measure,
        "date_from": date_from, "date_to": date_to, **viewer_params})]


def timeline(graph: Graph, viewer_params: dict[str, Any], project_id: str, entity_id: str) -> list[dict[str, Any]]:
    """Entries per year; a year that is missing between two present ones is a gap ("when did Marta disappear?")."""
    return [dict(r) for r in graph.read(TIMELINE, {"project_id": project_id, "entity_id": entity_id,
                                                   **viewer_params})]


def importance(graph: Graph, viewer_params: dict[str, Any], project_id: str, kind: str | None = None,
               limit: int = 10) -> list[dict[str, Any]]:
    """Mentions weighted by how many chapters and years they span: a person of every era outranks a burst."""
    return [dict(r) for r in graph.read(IMPORTANCE, {"project_id": project_id, "kind": kind, "limit": limit,
                                                     **viewer_params})]
