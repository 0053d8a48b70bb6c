""" "Similar to X": persons, places, things and chapters whose entity vector is closest to X's, for one viewer.

The viewer's variant of each entity (graph/entity_vectors.py) is chosen inside the statement from the viewer's
membership, read on every call: `writer`/`inner` for owners and coauthors, `reader` for readers, `shared` when they
wrote nothing private or intimate about it. A non-member (or a witness) matches no membership and gets nothing, and an
entity the viewer may not see has no variant for them, so it is neither a target nor an answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph import analytics_cache
from graph.db import Graph
from graph.visibility import CAN_SEE_DECLARATION, EDGE_ROLES, STRONGEST_ROLE, Viewer, visibility_params

KINDS = ("person", "place", "thing", "period")

# Whether the viewer reads the inner variants, from their role as the predicate reads it (one row, or none for a
# non-member); binds `inner_view`.
_INNER_VIEW = f"""MATCH (:User {{id: $viewer_id}})-[m:MEMBER_OF]->(:Project {{id: $project_id}})
WITH {EDGE_ROLES} AS roles WHERE size(roles) > 0
WITH {STRONGEST_ROLE} IN ['owner', 'coauthor'] AS inner_view"""
# The viewer's variant of each entity, by precedence (their own > inner > shared); binds `inner_view`, `v`.
_PICK = """(v.audience = 'shared' OR (v.audience = 'inner' AND inner_view)
   OR (v.user_id = $viewer_id AND v.audience = CASE WHEN inner_view THEN 'writer' ELSE 'reader' END))"""
_RANK = "CASE v.audience WHEN 'shared' THEN 0 WHEN 'inner' THEN 1 ELSE 2 END"
# The name `display_name` gives: the first declaration the viewer may see, else (kept in the variant at refresh) the
# smallest name the viewer's entries mention it by; reading that from the variant spares a scan of every mention.
_DECLARED = f"""COLLECT {{ MATCH (d:Declaration)-[:DECLARES]->(x) WHERE {CAN_SEE_DECLARATION}
                           WITH d ORDER BY d.created_at, d.id RETURN d.name }}[0]"""

# The variants `_PICK` may choose, each read through an index (migrations/011): the shared ones, the inner ones for
# owners and coauthors, the viewer's own; binds `v` (needs `inner_view`).
_CANDIDATES = """CALL (inner_view) {
  MATCH (v:EntityVector {project_id: $project_id, model: $model, audience: 'shared'}) RETURN v
  UNION MATCH (v:EntityVector {project_id: $project_id, model: $model, audience: 'inner'}) WHERE inner_view RETURN v
  UNION MATCH (v:EntityVector {project_id: $project_id, model: $model, user_id: $viewer_id})
  WHERE v.audience = CASE WHEN inner_view THEN 'writer' ELSE 'reader' END RETURN v
}"""

SIMILAR = f"""
{_INNER_VIEW}
CALL {{
  WITH inner_view
  MATCH (v:EntityVector {{entity_id: $entity_id}})
  WHERE v.project_id = $project_id AND v.model = $model AND {_PICK}
  RETURN v.vector AS target ORDER BY {_RANK} DESC LIMIT 1
}}
{_CANDIDATES}
WITH target, v WHERE v.entity_id <> $entity_id AND ($kind IS NULL OR v.kind = $kind)
WITH target, v ORDER BY {_RANK} DESC
WITH target, v.entity_id AS id, head(collect(v)) AS v
WITH id, v, 2 * vector.similarity.cosine(target, v.vector) - 1 AS score
ORDER BY score DESC, id
LIMIT $over
MATCH (v)-[:VECTOR_OF]->(x)
WITH x, v, score, CASE WHEN x:Period THEN v.name ELSE coalesce({_DECLARED}, v.name) END AS name
WHERE name IS NOT NULL
RETURN x.id AS id, name, v.kind AS kind, score, v.entries AS entries
ORDER BY score DESC, id
LIMIT $limit
"""

# What the viewer may call each entity and chapter (as of the last refresh): the names their entries mention it by,
# kept folded in their variant (a variant of a wider audience holds every name of a narrower one, so filtering on the
# names before picking the viewer's variant picks the same one), or with `$grams`, only those named by one of them.
VISIBLE_NAMES = f"""
{_INNER_VIEW}
{_CANDIDATES}
WITH v WHERE $grams IS NULL OR v.entity_id IN $grams OR any(k IN v.keys WHERE k IN $grams)
WITH v.entity_id AS id, v ORDER BY {_RANK} DESC
WITH id, head(collect(v)) AS v
RETURN id, v.kind AS kind, v.name AS name, v.keys AS keys
ORDER BY id
"""
# The declarations the viewer may see (few per project), first declared first: their names win, their aliases count.
VISIBLE_DECLARATIONS = f"""
MATCH (d:Declaration {{project_id: $project_id}})-[:DECLARES]->(x)
WHERE {CAN_SEE_DECLARATION}
RETURN x.id AS id, x.kind AS kind, d.name AS name, d.aliases AS aliases
ORDER BY d.created_at, d.id
"""


@dataclass(frozen=True)
class Similar:
    id: str
    name: str
    kind: str
    score: float
    entries: int  # visible entries behind its vector


def similar(
    graph: Graph,
    viewer: Viewer,
    project_id: str,
    entity_id: str,
    model: str,
    kind: str | None = None,
    limit: int = 10,
) -> list[Similar]:
    """Closest entities to `entity_id` (of `kind`, when given) by cosine of the viewer's variants, best first."""

    def compute() -> list[Similar]:
        rows = graph.read(
            SIMILAR,
            {
                "project_id": project_id,
                "entity_id": entity_id,
                "model": model,
                "kind": kind,
                "limit": limit,
                "over": limit + 20,
                **visibility_params(viewer),
            },
        )
        return [Similar(r["id"], r["name"], r["kind"], round(float(r["score"]), 6), int(r["entries"])) for r in rows]

    # Variants change only by a refresh, which bumps the generations of exactly the audiences whose variant moved.
    return list(
        analytics_cache.cached(
            graph,
            viewer,
            project_id,
            "similar",
            {"entity": entity_id, "model": model, "kind": kind, "limit": limit},
            lambda: tuple(compute()),
            immutable=True,
        )
    )


@dataclass(frozen=True)
class Named:
    id: str
    name: str
    kind: str
    keys: tuple[str, ...]  # folded names and aliases


def visible_names(
    graph: Graph, viewer: Viewer, project_id: str, model: str, grams: list[str] | None = None
) -> list[Named]:
    """The entities and chapters the viewer may know of and has entries about (as of the last refresh), plus those
    declared for them; with `grams` (folded word sequences, or ids), only those answering to one of them. With the
    analytics cache on, the viewer's whole list is kept (a scan of every variant of the project) and looked up."""
    if grams is None or not analytics_cache.enabled(viewer):
        return _visible_names(graph, viewer, project_id, model, grams)
    every = analytics_cache.cached(
        graph,
        viewer,
        project_id,
        "names",
        {"model": model},
        lambda: tuple(_visible_names(graph, viewer, project_id, model, None)),
        immutable=True,
    )
    wanted = set(grams)
    return [n for n in every if n.id in wanted or not wanted.isdisjoint(n.keys)]


def _visible_names(graph: Graph, viewer: Viewer, project_id: str, model: str, grams: list[str] | None) -> list[Named]:
    from graph.textnorm import fold

    seen_by = visibility_params(viewer)
    found: dict[str, Named] = {}
    declared: dict[str, list[str]] = {}
    first: dict[str, tuple[str, str]] = {}
    for r in graph.read(VISIBLE_DECLARATIONS, {"project_id": project_id, **seen_by}):
        first.setdefault(r["id"], (r["name"], r["kind"]))
        declared.setdefault(r["id"], []).extend(fold(k) for k in [r["name"], *(r["aliases"] or [])] if k)
    for r in graph.read(VISIBLE_NAMES, {"project_id": project_id, "model": model, "grams": grams, **seen_by}):
        name = first.get(r["id"], (r["name"], ""))[0]
        keys = tuple(dict.fromkeys([*r["keys"], *declared.get(r["id"], [])]))
        if name:
            found[r["id"]] = Named(r["id"], name, r["kind"], keys)
    wanted = set(grams) if grams is not None else None
    for eid, names in declared.items():
        if eid not in found and (wanted is None or eid in wanted or wanted & set(names)):
            found[eid] = Named(eid, first[eid][0], first[eid][1], tuple(dict.fromkeys(names)))
    return [found[k] for k in sorted(found)]


def find_target(graph: Graph, viewer: Viewer, project_id: str, name: str, model: str) -> tuple[str, str, str] | None:
    """(id, name, kind) of the entity or chapter called `name` (or with that id) that the viewer may know of; an
    entity wins over a chapter of the same name; None for hidden and unknown alike. Looked up among the viewer's
    vectors first (one cheap statement), then among every visible entity (one without embedded entries yet)."""
    from graph.entities import find_visible_entity
    from graph.textnorm import fold

    key = fold(name.strip())
    named = [n for n in visible_names(graph, viewer, project_id, model, [key, name]) if n.id == name or key in n.keys]
    named.sort(key=lambda n: (n.kind == "period", n.id))
    if named:
        return named[0].id, named[0].name, named[0].kind
    entity = find_visible_entity(graph, project_id, viewer, name)
    return (entity.id, entity.name, entity.kind) if entity is not None else None
