""""Similar to X": persons, places, things and chapters whose entity vector is closest to X's, for one viewer.

The viewer's variant of each entity (graph/entity_vectors.py) is chosen inside the statement from the viewer's
membership, read on every call: `writer`/`inner` for owners and coauthors, `reader` for readers, `shared` when they
wrote nothing private or intimate about it. A non-member (or a witness) matches no membership and gets nothing, and an
entity the viewer may not see has no variant for them, so it is neither a target nor an answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph.db import Graph
from graph.entities import display_name

KINDS = ("person", "place", "thing", "period")

# The viewer's variant of each entity, by precedence (their own > inner > shared); binds `inner_view`, `v`.
_PICK = """(v.audience = 'shared' OR (v.audience = 'inner' AND inner_view)
   OR (v.user_id = $viewer_id AND v.audience = CASE WHEN inner_view THEN 'writer' ELSE 'reader' END))"""
_RANK = "CASE v.audience WHEN 'shared' THEN 0 WHEN 'inner' THEN 1 ELSE 2 END"

SIMILAR = f"""
MATCH (:User {{id: $viewer_id}})-[r:MEMBER_OF]->(:Project {{id: $project_id}})
WITH r.role IN ['owner', 'coauthor'] AS inner_view
CALL {{
  WITH inner_view
  MATCH (v:EntityVector {{project_id: $project_id, model: $model, entity_id: $entity_id}})
  WHERE {_PICK}
  RETURN v.vector AS target ORDER BY {_RANK} DESC LIMIT 1
}}
MATCH (v:EntityVector {{project_id: $project_id, model: $model}})
WHERE v.entity_id <> $entity_id AND ($kind IS NULL OR v.kind = $kind) AND {_PICK}
WITH target, v ORDER BY {_RANK} DESC
WITH target, v.entity_id AS id, head(collect(v)) AS v
WITH id, v, 2 * vector.similarity.cosine(target, v.vector) - 1 AS score
ORDER BY score DESC, id
LIMIT $over
MATCH (v)-[:VECTOR_OF]->(x)
WITH x, v, score, CASE WHEN x:Period THEN x.name ELSE {display_name("x")} END AS name
WHERE name IS NOT NULL
RETURN x.id AS id, name, v.kind AS kind, score, v.entries AS entries
ORDER BY score DESC, id
LIMIT $limit
"""

# The chapters a viewer may know of (at least one entry of theirs to see in it), for resolving a chapter's name.
VISIBLE_PERIODS = """
MATCH (:User {id: $viewer_id})-[r:MEMBER_OF]->(:Project {id: $project_id})
WITH r.role IN ['owner', 'coauthor'] AS inner_view
MATCH (v:EntityVector {project_id: $project_id, model: $model, kind: 'period'})
WHERE """ + _PICK + """
MATCH (v)-[:VECTOR_OF]->(per:Period)
RETURN DISTINCT per.id AS id, per.name AS name
ORDER BY id
"""


@dataclass(frozen=True)
class Similar:
    id: str
    name: str
    kind: str
    score: float
    entries: int  # visible entries behind its vector


def similar(graph: Graph, viewer_params: dict[str, Any], project_id: str, entity_id: str, model: str,
            kind: str | None = None, limit: int = 10) -> list[Similar]:
    """Closest entities to `entity_id` (of `kind`, when given) by cosine of the viewer's variants, best first."""
    rows = graph.read(SIMILAR, {"project_id": project_id, "entity_id": entity_id, "model": model, "kind": kind,
                                "limit": limit, "over": limit + 20, **viewer_params})
    return [Similar(r["id"], r["name"], r["kind"], round(float(r["score"]), 6), int(r["entries"])) for r in rows]


def visible_periods(graph: Graph, viewer_params: dict[str, Any], project_id: str, model: str) -> list[dict[str, str]]:
    """Chapters with at least one entry the viewer may see (as of the last refresh), as {id, name}."""
    return [dict(r) for r in graph.read(VISIBLE_PERIODS, {"project_id": project_id, "model": model,
                                                          **viewer_params})]


def find_target(graph: Graph, viewer_params: dict[str, Any], project_id: str, name: str,
                model: str) -> tuple[str, str, str] | None:
    """(id, name, kind) of the entity or chapter called `name` (or with that id) that the viewer may know of; an
    entity wins over a chapter of the same name; None for hidden and unknown alike."""
    from graph.entities import find_visible_entity
    from graph.textnorm import fold

    entity = find_visible_entity(graph, project_id, viewer_params, name)
    if entity is not None:
        return entity.id, entity.name, entity.kind
    key = fold(name.strip())
    for per in visible_periods(graph, viewer_params, project_id, model):
        if per["id"] == name or fold(per["name"]) == key:
            return per["id"], per["name"], "period"
    return None
