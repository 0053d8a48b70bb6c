"""What people call a participant in the conversations a viewer may see: the names messages give it (ingest/
addressing.py), kept on the message's mention of that person (`introduced`: the author's own, `addressed`: spoken to
them) and read only through mentions of entries the viewer may see, as every name of an entity is.

A name counts once the viewer may see one introduction ("I'm Kate") or two messages addressing the person by it
("Hey Kate!", "thanks Kate"): one greeting alone is too weak to rename anyone. A question naming a participant by
any of these names finds that participant (queries/search/query_constraints.py); they are not declared aliases and
the entity's listed aliases do not show them.

A writer who sees a name given wrongly ("Hey Mom!" to an aunt) rejects it for that participant: a `(:Dismissal)` of
kind `called`, naming the entity, with the audience of the most open message the writer saw the name in (as a rejected
recognition candidate has, graph/candidates.py). Whoever may see the rejection no longer sees the name given.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.db import Graph
from graph.ids import sha256
from graph.textnorm import fold
from graph.visibility import (
    INTIMACY_LEVELS,
    Viewer,
    can_see,
    can_see_declaration,
    can_see_in_project,
    mention_seen,
    visibility_params,
)

# Each name weighed: an introduction counts as two addresses.
_CALLED = """COLLECT {{ MATCH (ce:Entry)-[cm:MENTIONS]->({var})
            WHERE (cm.introduced IS NOT NULL OR cm.addressed IS NOT NULL) AND {sees} AND {seen}
            UNWIND coalesce(cm.introduced, []) + coalesce(cm.introduced, []) + coalesce(cm.addressed, []) AS called
            WITH called, count(*) AS weight WHERE weight >= 2 AND NOT EXISTS {{
              MATCH (cd:Dismissal {{project_id: {var}.project_id, kind: 'called', entity_id: {var}.id, name: called}})
              WHERE {dismissal_seen} }}
            RETURN called ORDER BY called }}"""


def called_names(var: str, in_project: bool = False) -> str:
    """The names entity `var` is called by in the viewer's visible messages, as a list expression (`in_project`: the
    statement bound `VIEWER_IN_PROJECT`'s variables)."""
    sees = can_see_in_project("ce") if in_project else can_see("ce")
    return _CALLED.format(var=var, sees=sees, seen=mention_seen("cm"), dismissal_seen=can_see_declaration("cd"))


CALLED_SOURCES = f"""
MATCH (x:Person {{id: $entity_id, project_id: $project_id}})
MATCH (ce:Entry)-[cm:MENTIONS]->(x)
WHERE (cm.introduced IS NOT NULL OR cm.addressed IS NOT NULL) AND {can_see("ce")} AND {mention_seen("cm")}
UNWIND coalesce(cm.introduced, []) + coalesce(cm.addressed, []) AS called
RETURN DISTINCT called, ce.intimacy AS intimacy
"""
DISMISS_CALLED = """
MERGE (d:Dismissal {id: $id})
ON CREATE SET d.project_id = $project_id, d.kind = 'called', d.entity_id = $entity_id, d.key = $key, d.name = $name,
              d.intimacy = $intimacy, d.author_id = $author_id, d.created_at = datetime()
"""


@dataclass(frozen=True)
class CalledSources:
    """A name as the rejecting writer saw it given: its spellings there and the most open level they saw it at."""

    names: list[str]
    audience: str


def called_sources(graph: Graph, project_id: str, viewer: Viewer, entity_id: str, name: str) -> CalledSources | None:
    """None when the viewer sees no message giving the person that name (hidden and missing alike)."""
    key = fold(name.strip())
    rows = [
        r
        for r in graph.read(
            CALLED_SOURCES, {"project_id": project_id, "entity_id": entity_id, **visibility_params(viewer)}
        )
        if fold(r["called"]) == key
    ]
    if not rows:
        return None
    audience = max((r["intimacy"] for r in rows), key=INTIMACY_LEVELS.index)
    return CalledSources(sorted({r["called"] for r in rows}), audience)


def reject_called(graph: Graph, project_id: str, entity_id: str, found: CalledSources, author_id: str) -> None:
    """Each spelling the writer saw is rejected for this person, at the audience they saw it at."""
    for name in found.names:
        graph.write(
            DISMISS_CALLED,
            {
                "id": sha256(project_id, "called", entity_id, name, found.audience, author_id)[:32],
                "project_id": project_id,
                "entity_id": entity_id,
                "key": fold(name),
                "name": name,
                "intimacy": found.audience,
                "author_id": author_id,
            },
        )
