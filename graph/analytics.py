"""Entity questions: who appears with whom, when someone appears, who matters most.

Every count is taken over entries the viewer may see (the `CAN_SEE` predicate inside the statement), so an
aggregate never reveals that a hidden entry exists.
"""

from __future__ import annotations

from typing import Any

from graph.db import Graph
from graph.entities import display_name
from graph.visibility import CAN_SEE

CO_OCCURRENCE = f"""
MATCH (e:Entry)-[:MENTIONS]->(x)
WHERE e.project_id = $project_id AND x.id = $entity_id AND {CAN_SEE}
MATCH (e)-[:MENTIONS]->(y) WHERE y <> x AND ($kind IS NULL OR y.kind = $kind)
WITH y, count(DISTINCT e) AS together, min(e.occurred_start) AS first, max(e.occurred_end) AS last
ORDER BY together DESC, y.id
LIMIT $limit
RETURN y.id AS id, {display_name("y")} AS name, y.kind AS kind, together, toString(first) AS first,
       toString(last) AS last
ORDER BY together DESC, name
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
                  limit: int = 10, kind: str | None = None) -> list[dict[str, Any]]:
    """Companions of an entity (of one kind, when given), most shared visible entries first."""
    return [dict(r) for r in graph.read(CO_OCCURRENCE, {"project_id": project_id, "entity_id": entity_id,
                                                        "limit": limit, "kind": kind, **viewer_params})]


def timeline(graph: Graph, viewer_params: dict[str, Any], project_id: str, entity_id: str) -> list[dict[str, Any]]:
    """Entries per year; a year that is missing between two present ones is a gap ("when did Marta disappear?")."""
    return [dict(r) for r in graph.read(TIMELINE, {"project_id": project_id, "entity_id": entity_id,
                                                   **viewer_params})]


def importance(graph: Graph, viewer_params: dict[str, Any], project_id: str, kind: str | None = None,
               limit: int = 10) -> list[dict[str, Any]]:
    """Mentions weighted by how many chapters and years they span: a person of every era outranks a burst."""
    return [dict(r) for r in graph.read(IMPORTANCE, {"project_id": project_id, "kind": kind, "limit": limit,
                                                     **viewer_params})]
