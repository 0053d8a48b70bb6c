"""Candidate entities: names spaCy found in entries (ingest/recognition.py) that no declared name links yet, for a
writer to confirm (they become a declared entity) or reject.

A candidate has no node of its own: it is the set of entries that spotted the name, and everything said about it
(its name as written, how many times it is mentioned, example entries) is computed inside the query over the entries
the viewer may see (`CAN_SEE`). A name spotted only in an entry hidden from a viewer does not exist for them, and
adding, editing or deleting hidden entries changes nothing they observe. A rejection is a `(:Dismissal)` with an
audience, like a declaration (`CAN_SEE_DECLARATION`): the most open level among the entries its author saw the name
in, so a rejection tells nobody about a name they could not see. Confirming declares the name (graph/entities.py) at
that same audience, authored by the confirmer; re-linking then links the entries that name it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph.db import Graph
from graph.entities import Entity, list_entities, list_visible_entities, upsert_entity
from graph.ids import sha256
from graph.textnorm import fold
from graph.visibility import CAN_SEE, CAN_SEE_DECLARATION, INTIMACY_LEVELS, Viewer, visibility_params

EXAMPLES = 3
_SPOTS = """
MATCH (e:Entry {project_id: $project_id})
WHERE e.spotted_keys IS NOT NULL AND __VISIBLE__
UNWIND range(0, size(e.spotted_keys) - 1) AS i
WITH e, e.spotted_kinds[i] AS kind, e.spotted_keys[i] AS key, e.spotted_names[i] AS name, e.spotted_counts[i] AS n
"""
# One candidate per folded name; its kind is the one most of its mentions were given (`kinds` lists them, one per
# visible entry and mention count, and Python picks).
_LIST = """
WITH kind, key, name, n, e ORDER BY e.occurred_start DESC, e.id
WITH key, sum(n) AS mentions, count(e) AS entries, collect(e.id)[..$examples] AS examples, min(name) AS name,
     collect([kind, n]) AS kinds
WHERE NOT EXISTS { MATCH (d:Dismissal {project_id: $project_id, key: key}) WHERE d.kind <> 'called' AND __DISMISSAL__ }
RETURN key, name, mentions, entries, examples, kinds
ORDER BY mentions DESC, entries DESC, key
"""
# What a viewer may see of the candidates of a project.
VISIBLE_CANDIDATES = (_SPOTS + _LIST).replace("__VISIBLE__", CAN_SEE).replace("__DISMISSAL__", CAN_SEE_DECLARATION)
# Every candidate of the project, for the operator's CLI (trusted with everything), minus every rejection.
ALL_CANDIDATES = (_SPOTS + _LIST).replace("__VISIBLE__", "true").replace("__DISMISSAL__", "true")
# The sources of one name the viewer may see: their audience and how the name is written there.
CANDIDATE_SOURCES = (
    _SPOTS.replace("__VISIBLE__", f"$key IN e.spotted_keys AND {CAN_SEE}")
    + """
WITH e, kind, key, name, n WHERE key = $key
RETURN kind, name, n, e.intimacy AS intimacy
"""
)
DISMISS = """
MERGE (d:Dismissal {id: $id})
ON CREATE SET d.project_id = $project_id, d.kind = $kind, d.key = $key, d.name = $name, d.intimacy = $intimacy,
              d.author_id = $author_id, d.created_at = datetime()
"""


@dataclass(frozen=True)
class Candidate:
    name: str
    kind: str
    mentions: int
    entries: int
    examples: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "mentions": self.mentions, "examples": self.examples}


def list_candidates(graph: Graph, project_id: str, viewer: Viewer | None, limit: int = 50) -> list[Candidate]:
    """Candidates as the viewer sees them (`viewer` None: the operator, who sees all), most mentioned first.
    A name the viewer already knows as an entity (any kind) is not a candidate for them."""
    params: dict[str, Any] = {"project_id": project_id, "examples": EXAMPLES}
    if viewer is None:
        rows = graph.read(ALL_CANDIDATES, params)
        known = _known(list_entities(graph, [project_id]))
    else:
        rows = graph.read(VISIBLE_CANDIDATES, {**params, **visibility_params(viewer)})
        known = _known(list_visible_entities(graph, [project_id], viewer))
    out = [
        Candidate(
            r["name"],
            _kind([(k, int(n)) for k, n in r["kinds"]]),
            int(r["mentions"]),
            int(r["entries"]),
            list(r["examples"]),
        )
        for r in rows
        if r["key"] not in known
    ]
    return out[:limit]


def _kind(kinds: list[tuple[str, int]]) -> str:
    """The kind most mentions were given (ties: person, place, thing, in that order)."""
    weight: dict[str, int] = {}
    for kind, n in kinds:
        weight[kind] = weight.get(kind, 0) + n
    return min(weight, key=lambda k: (-weight[k], ("person", "place", "thing").index(k)))


def _known(entities: list[Entity]) -> set[str]:
    return {key for e in entities for key in e.answers_to()}


@dataclass(frozen=True)
class Sources:
    """One candidate as the caller may see it: its kind, name and the most open audience it was seen at."""

    kind: str
    name: str
    audience: str


def candidate_sources(graph: Graph, project_id: str, viewer: Viewer, name: str, kind: str | None) -> Sources | None:
    """The candidate `name` in the entries the caller may see, as `kind` (else the kind most of its mentions were
    given); None when they see none (hidden and missing alike)."""
    params = {"project_id": project_id, "key": fold(name.strip()), **visibility_params(viewer)}
    rows = graph.read(CANDIDATE_SOURCES, params)
    if not rows:
        return None
    audience = max((r["intimacy"] for r in rows), key=INTIMACY_LEVELS.index)
    # The spelling declared is one the declaration's audience has seen: counted over the entries at that level only,
    # so a capitalisation or accent found only in the confirmer's more private entries is never published.
    seen = [r for r in rows if r["intimacy"] == audience]
    written = sorted({r["name"] for r in seen}, key=lambda n: (-sum(x["n"] for x in seen if x["name"] == n), n))
    return Sources(kind or _kind([(r["kind"], int(r["n"])) for r in rows]), written[0], audience)


def confirm_candidate(graph: Graph, project_id: str, source: Sources, author_id: str) -> Entity:
    """Declare the name as an entity, for the audience it was seen at, authored by the confirmer; re-link after."""
    return upsert_entity(graph, project_id, source.kind, source.name, [], audience=source.audience, author_id=author_id)


def reject_candidate(graph: Graph, project_id: str, source: Sources, author_id: str) -> None:
    """Record that the name is not an entity (of any kind), for the audience it was seen at: it stops being a
    candidate for whoever may see the rejection, and links nothing."""
    key = fold(source.name)
    graph.write(
        DISMISS,
        {
            "id": sha256(project_id, key, source.audience, author_id)[:32],
            "project_id": project_id,
            "kind": source.kind,
            "key": key,
            "name": source.name,
            "intimacy": source.audience,
            "author_id": author_id,
        },
    )
