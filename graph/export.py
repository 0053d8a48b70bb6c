"""A project as JSON Lines: a header, its members, entities, declarations, rejected names, witness grants, then every
entry in the ingest format. `ingest/restore.py` reads it back.

Two readers, two scopes (docs/SECURITY.md, "Export"):
- the operator (`memora export`), trusted with the database, gets everything: every author's private entries and
  declarations, and every entity node;
- an owner over HTTP gets what the visibility rules let the owner see, evaluated in the same Cypher predicates as
  every other read (`CAN_SEE`, `CAN_SEE_DECLARATION`, `display_name`): a coauthor's private entry or private alias is
  not in it, and an entity only such sources name does not exist for it.

Record types: entry lines are plain ingest records (no marker, so they are the ingest format exactly); every other
line carries `"memora_record"`: `project` (first line, with `format` and `version`), `member`, `entity`,
`declaration`, `dismissal` (a rejected candidate name; version 2), `witness_grant`, and `end` (last line, with the
number of entries: a cut stream is detected). The order of every list is a function of what is stored, so export →
import → export gives the same bytes. Vectors are not exported: an import re-embeds (identical chunk content reuses
stored vectors).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from graph.db import Graph
from graph.entities import display_name
from graph.member_people import shared_name
from graph.visibility import CAN_SEE, CAN_SEE_DECLARATION, EDGE_ROLES, STRONGEST_ROLE, Viewer, visibility_params

FORMAT = "memora-export"
# 2: `dismissal` records; 3: a dismissal of kind `called` names its entity; 4: a `member` names the person it is
# (graph/member_people.py). Older files are still read.
VERSION = 4
MARKER = "memora_record"
RECORD_TYPES = ("project", "member", "entity", "declaration", "dismissal", "witness_grant", "end")

PROJECT = """
MATCH (p:Project {id: $project_id})
RETURN p.id AS project_id, p.name AS name, coalesce(p.hemisphere, 'north') AS hemisphere
"""
# A member names the person they are while that link holds (a person every member may know of).
MEMBERS = f"""
MATCH (u:User)-[m:MEMBER_OF]->(:Project {{id: $project_id}})
WHERE $own_author IS NULL OR u.id = $own_author
WITH u, {EDGE_ROLES} AS roles
OPTIONAL MATCH (u)-[:IS_PERSON {{project_id: $project_id}}]->(n:Person)
RETURN u.id AS user_id, {STRONGEST_ROLE} AS role, CASE WHEN {shared_name("n")} IS NOT NULL THEN n.id END AS person
ORDER BY u.id
"""
ALL_ENTITIES = """
MATCH (n:Person|Place|Thing) WHERE n.project_id = $project_id
RETURN n.id AS id, n.kind AS kind, n.name AS name ORDER BY n.id
"""
VISIBLE_ENTITIES = f"""
MATCH (n:Person|Place|Thing) WHERE n.project_id = $project_id
WITH n, {display_name("n")} AS name
WHERE name IS NOT NULL
RETURN n.id AS id, n.kind AS kind, name ORDER BY n.id
"""
_DECLARATIONS = """
MATCH (d:Declaration)-[:DECLARES]->(n) WHERE d.project_id = $project_id {where}
RETURN n.id AS entity_id, n.kind AS kind, d.name AS name, d.aliases AS aliases, d.intimacy AS audience,
       d.author_id AS author, toString(d.created_at) AS created_at
ORDER BY d.created_at, n.id, d.intimacy, coalesce(d.author_id, '')
"""
ALL_DECLARATIONS = _DECLARATIONS.format(where="")
# A member's own export (`own_author`) holds only what they wrote: their declarations, rejections and entries.
_OWN = "AND ($own_author IS NULL OR {var}.author_id = $own_author)"
VISIBLE_DECLARATIONS = _DECLARATIONS.format(where=f"AND {CAN_SEE_DECLARATION} " + _OWN.format(var="d"))
# Rejected candidates (graph/candidates.py): a writer's decision that a name is not an entity, with its audience, so
# the name does not come back as a candidate after a restore. The folded key is recomputed on import.
_DISMISSALS = """
MATCH (d:Dismissal) WHERE d.project_id = $project_id {where}
RETURN d.kind AS kind, d.name AS name, d.intimacy AS audience, d.author_id AS author,
       toString(d.created_at) AS created_at, d.entity_id AS entity
ORDER BY d.created_at, d.key, d.intimacy, coalesce(d.author_id, '')
"""
ALL_DISMISSALS = _DISMISSALS.format(where="")
VISIBLE_DISMISSALS = _DISMISSALS.format(where=f"AND {CAN_SEE_DECLARATION} " + _OWN.format(var="d"))
GRANTS = """
MATCH (g:WitnessGrant {project_id: $project_id})-[:FOR]->(per:Period)
WHERE $own_author IS NULL
RETURN g.id AS id, g.period_name AS period, g.label AS label, g.created_by AS created_by,
       toString(g.created_at) AS created_at, toString(g.expires_at) AS expires_at, g.revoked AS revoked
ORDER BY g.created_at, g.id
"""
# Entries in an order a re-import reproduces: a conversation's turns by their stored position (an import places
# turns without a `turn` by line order), everything else by id.
_ENTRIES = """
MATCH (e:Entry) WHERE e.project_id = $project_id {where}
RETURN e.id AS entry_id, e.project_id AS project_id, e.body AS text, e.author_id AS author, e.title AS title,
       e.occurred_on AS occurred_on, e.occurred_at AS occurred_at, coalesce(e.listed_persons, []) AS persons,
       coalesce(e.listed_places, []) AS places, coalesce(e.tags, []) AS tags, e.intimacy AS intimacy,
       e.kind AS kind, e.period_name AS period, e.metadata AS metadata
ORDER BY coalesce(e.occurred_at, ''), coalesce(e.thread_pos, 0), e.id
"""
ALL_ENTRIES = _ENTRIES.format(where="")
VISIBLE_ENTRIES = _ENTRIES.format(where=f"AND {CAN_SEE} " + _OWN.format(var="e"))
COUNT_ENTRIES = "MATCH (e:Entry) WHERE e.project_id = $project_id RETURN count(e) AS n"


@dataclass(frozen=True)
class ExportScope:
    """Whose rights an export follows: None is the operator (everything), a Viewer an owner over HTTP; with `own`,
    any member, and only what that member wrote (their entries, declarations and rejections, their membership, no
    witness grants)."""

    viewer: Viewer | None = None
    own: bool = False

    def params(self, project_id: str) -> dict[str, Any]:
        base: dict[str, Any] = {"project_id": project_id, "own_author": None}
        if self.viewer is not None:
            base.update(visibility_params(self.viewer))
            if self.own:
                base["own_author"] = self.viewer.user_id
        return base


def line(record: dict[str, Any]) -> str:
    """One canonical JSON line: keys sorted, nulls left out, UTF-8 as is."""
    clean = {k: v for k, v in record.items() if v is not None}
    return json.dumps(clean, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def project_exists(graph: Graph, project_id: str) -> bool:
    return bool(graph.read(PROJECT, {"project_id": project_id}))


def count_entries(graph: Graph, project_id: str) -> int:
    return int(graph.read(COUNT_ENTRIES, {"project_id": project_id})[0]["n"])


def entry_record(row: dict[str, Any]) -> dict[str, Any]:
    """A stored entry as the ingest record that wrote it: metadata unfolded beside the named fields (kept as written,
    nulls included), named fields left out when null or empty (their defaults)."""
    metadata = json.loads(row.pop("metadata") or "{}")
    named = {k: v for k, v in row.items() if v is not None and v != []}
    return {**metadata, **named}


def export_lines(graph: Graph, project_id: str, scope: ExportScope) -> Iterator[str]:
    """The project's lines; entries are streamed from one result, so memory stays flat for a large project.
    Raises LookupError before the first line when the project does not exist."""
    params = scope.params(project_id)
    head = graph.read(PROJECT, params)
    if not head:
        raise LookupError(project_id)
    yield line({MARKER: "project", "format": FORMAT, "version": VERSION, **dict(head[0])})
    for r in graph.read(MEMBERS, params):
        yield line({MARKER: "member", **dict(r)})
    for r in graph.read(ALL_ENTITIES if scope.viewer is None else VISIBLE_ENTITIES, params):
        yield line({MARKER: "entity", **dict(r)})
    for r in graph.read(ALL_DECLARATIONS if scope.viewer is None else VISIBLE_DECLARATIONS, params):
        yield line({MARKER: "declaration", **dict(r)})
    for r in graph.read(ALL_DISMISSALS if scope.viewer is None else VISIBLE_DISMISSALS, params):
        yield line({MARKER: "dismissal", **{k: v for k, v in dict(r).items() if k != "entity" or v is not None}})
    for r in graph.read(GRANTS, params):
        yield line({MARKER: "witness_grant", **dict(r)})
    with graph.session(read=True, fetch_size=200) as session:
        result = session.run(ALL_ENTRIES if scope.viewer is None else VISIBLE_ENTRIES, params)
        entries = 0
        for r in result:
            record = entry_record(dict(r))
            entries += 1
            yield json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
    yield line({MARKER: "end", "entries": entries})
