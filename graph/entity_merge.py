"""Merging one entity into another ("Carmencita" is "Carmen"), and undoing it, by a writer, in what they may see.

Like every entity edit (graph/entity_edits.py) a merge acts on the sources of the merged entity the caller may see:
 - its declarations they may see stop declaring it (they are kept, marked, for the unmerge);
 - every name those sources give it (declared names and aliases, names entries list or were linked by) becomes an
   alias of the target, in a declaration of the target by the caller, one per audience: the audience of the source,
   narrowed to the most open one the caller sees the target at, so a merge never shows a name, or the target, to
   anyone who could not see them before;
 - re-linking (ingest/relink.py) then moves every mention of those names to the target: no entry loses a mention;
 - the members who were the merged person are the target (graph/member_people.py).
What was changed is recorded in an `(:EntityMerge)`, so `unmerge` by the same writer puts it all back (only its
author: the record holds names and declarations as they saw them, private ones included): the aliases it added are
removed, the declarations it created deleted, the declarations it detached declare the merged entity again, and
re-linking restores the mentions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from neo4j import ManagedTransaction

from graph import generations, member_people, relink_epochs
from graph.db import Graph
from graph.entities import DECLARE_ENTITY, Entity, list_visible_entities
from graph.ids import sha256
from graph.textnorm import fold
from graph.visibility import CAN_SEE, CAN_SEE_DECLARATION, INTIMACY_LEVELS, Viewer, visibility_params

_LABEL = {"person": "Person", "place": "Place", "thing": "Thing"}

LOCK = "MATCH (n:Person|Place|Thing) WHERE n.id IN $ids SET n.edited_at = datetime() RETURN n.id AS id"
SOURCES = f"""
MATCH (n:Person|Place|Thing {{id: $id}})
CALL {{
  WITH n MATCH (d:Declaration)-[:DECLARES]->(n) WHERE {CAN_SEE_DECLARATION}
  RETURN d.id AS declaration_id, d.intimacy AS intimacy, d.author_id AS author_id, [d.name] + d.aliases AS names
  UNION
  WITH n MATCH (e:Entry)-[m:MENTIONS]->(n) WHERE {CAN_SEE}
  RETURN null AS declaration_id, e.intimacy AS intimacy, e.author_id AS author_id, [m.name] AS names
}}
RETURN declaration_id, intimacy, author_id, names
"""
DECLARATION = "MATCH (d:Declaration {id: $id}) RETURN d.aliases AS aliases"
DETACH = """
UNWIND $ids AS did
MATCH (d:Declaration {id: did})-[r:DECLARES]->(:Person|Place|Thing {id: $from_id})
DELETE r
SET d.merged_into = $into_id
"""
RECORD = """
CREATE (g:EntityMerge {id: $id, project_id: $project_id, kind: $kind, from_id: $from_id, from_name: $from_name,
                       from_key: $from_key, into_id: $into_id, into_name: $into_name, intimacy: $intimacy,
                       author_id: $author_id, detached: $detached, created: $created, added: $added,
                       levels: $levels, linked: $linked, created_at: datetime()})
"""
# The caller's own merges of a name (latest first): a merge records names and declarations as its author saw them
# (their private declarations included), so only its author may read or undo it.
VISIBLE_MERGES = f"""
MATCH (d:EntityMerge {{project_id: $project_id, from_key: $key}})
WHERE ($kind IS NULL OR d.kind = $kind) AND d.author_id = $viewer_id AND {CAN_SEE_DECLARATION}
RETURN d {{.*}} AS merge ORDER BY d.created_at DESC LIMIT 1
"""
REMOVE_ALIASES = """
UNWIND $rows AS row
MATCH (d:Declaration {id: row.id})
SET d.aliases = [a IN d.aliases WHERE NOT a IN row.aliases]
"""
DELETE_DECLARATIONS = "UNWIND $ids AS did MATCH (d:Declaration {id: did}) DETACH DELETE d"
REATTACH = {
    kind: f"""
MERGE (n:{label} {{id: $from_id}})
ON CREATE SET n.project_id = $project_id, n.kind = '{kind}', n.name = $from_name, n.aliases = [], n.aliases_text = '',
              n.created_at = datetime()
WITH n
UNWIND $ids AS did
MATCH (d:Declaration {{id: did}})
MERGE (d)-[:DECLARES]->(n)
REMOVE d.merged_into
"""
    for kind, label in _LABEL.items()
}
DELETE_RECORD = "MATCH (g:EntityMerge {id: $id}) DELETE g"


class MergeRefused(Exception):
    """A merge that cannot be made (different kinds, or an entity into itself)."""


@dataclass(frozen=True)
class Merged:
    into: Entity
    merged: Entity
    aliases: list[str]


def find_entity(graph: Graph, project_id: str, viewer: Viewer, name: str, kind: str | None) -> Entity | None:
    """The entity (of `kind`, if given) the caller may see by id, name or alias; None for hidden and missing."""
    key = fold(name.strip())
    return next(
        (
            e
            for e in list_visible_entities(graph, [project_id], viewer)
            if (kind is None or e.kind == kind) and (e.id == name or key in e.answers_to())
        ),
        None,
    )


def _narrower(a: str, b: str) -> str:
    return min(a, b, key=INTIMACY_LEVELS.index)


def merge_entities(
    graph: Graph, project_id: str, into: Entity, merged: Entity, viewer: Viewer, author_id: str
) -> Merged:
    """Merge `merged` into `into` in the sources the caller may see (both found through `find_for_edit`)."""
    if into.kind != merged.kind:
        raise MergeRefused(f"a {merged.kind} cannot be merged into a {into.kind}")
    if into.id == merged.id:
        raise MergeRefused("an entity cannot be merged into itself")
    kind, seen_by = into.kind, visibility_params(viewer)

    def work(tx: ManagedTransaction) -> list[str]:
        relink_epochs.bump(tx, project_id)  # first: a re-linking job that read the names before writes nothing
        tx.run(LOCK, ids=sorted([into.id, merged.id])).consume()
        target = [dict(r) for r in tx.run(SOURCES, {"id": into.id, **seen_by})]
        sources = [dict(r) for r in tx.run(SOURCES, {"id": merged.id, **seen_by})]
        if not target or not sources:
            return []
        widest = max((r["intimacy"] for r in target), key=INTIMACY_LEVELS.index)
        by_level: dict[str, list[str]] = {}
        for r in sources:
            names = by_level.setdefault(_narrower(r["intimacy"], widest), [])
            names.extend(
                n for n in r["names"] if n and n.strip() and fold(n) not in into.answers_to() and n not in names
            )
        detached = sorted({r["declaration_id"] for r in sources if r["declaration_id"]})
        tx.run(DETACH, ids=detached, from_id=merged.id, into_id=into.id).consume()
        linked = member_people.move_links(tx, merged.id, into.id)
        created, added = [], {}
        for level, names in sorted(by_level.items()):
            if not names:
                continue
            # The target under a name a source at least this open gives it: never a more private name of it.
            shown = next(
                r["names"][0]
                for r in sorted(target, key=lambda r: r["declaration_id"] is None)
                if INTIMACY_LEVELS.index(r["intimacy"]) >= INTIMACY_LEVELS.index(level)
            )
            did = sha256(into.id, level, author_id)[:32]
            prior = list(tx.run(DECLARATION, id=did))
            before = set(prior[0]["aliases"]) if prior else set()
            tx.run(
                DECLARE_ENTITY[kind],
                {
                    "id": into.id,
                    "project_id": project_id,
                    "name": shown,
                    "aliases": names,
                    "intimacy": level,
                    "author_id": author_id,
                    "declaration_id": did,
                },
            ).consume()
            if not prior:
                created.append(did)
            added[did] = [n for n in names if n not in before]
        all_added = list(dict.fromkeys(n for ns in added.values() for n in ns))
        # Only the audiences of the sources touched: whoever sees none of them observes no change, cache included.
        levels = sorted(
            {(r["intimacy"], r["author_id"]) for r in target + sources} | {(level, author_id) for level in by_level},
            key=lambda x: (x[0] or "", x[1] or ""),
        )
        touched = [{"project_id": project_id, "intimacy": i, "author_id": a} for i, a in levels]
        generations.bump_levels_in(tx, touched)
        tx.run(
            RECORD,
            {
                "id": sha256(into.id, merged.id, author_id, json.dumps(detached), json.dumps(added))[:32],
                "project_id": project_id,
                "kind": kind,
                "from_id": merged.id,
                "from_name": merged.name,
                "from_key": fold(merged.name),
                "into_id": into.id,
                "into_name": into.name,
                "intimacy": max(by_level, key=INTIMACY_LEVELS.index),
                "author_id": author_id,
                "detached": detached,
                "created": created,
                "added": json.dumps(added),
                "levels": json.dumps(touched),
                "linked": linked,
            },
        ).consume()
        return all_added

    aliases = graph.transact(work)
    return Merged(into, merged, aliases)


def unmerge(graph: Graph, project_id: str, name: str, kind: str | None, viewer: Viewer) -> dict[str, str] | None:
    """Undo the caller's latest merge of `name`; None when there is none (another writer's merge answers like no
    merge at all). Re-link after."""
    rows = graph.read(
        VISIBLE_MERGES, {"project_id": project_id, "key": fold(name.strip()), "kind": kind, **visibility_params(viewer)}
    )
    if not rows:
        return None
    g = dict(rows[0]["merge"])
    added = json.loads(g["added"])

    def work(tx: ManagedTransaction) -> None:
        relink_epochs.bump(tx, project_id)
        tx.run(REMOVE_ALIASES, rows=[{"id": k, "aliases": v} for k, v in added.items()]).consume()
        tx.run(DELETE_DECLARATIONS, ids=list(g["created"])).consume()
        tx.run(
            REATTACH[g["kind"]],
            {
                "from_id": g["from_id"],
                "project_id": project_id,
                "from_name": g["from_name"],
                "ids": list(g["detached"]),
            },
        ).consume()
        member_people.move_links(tx, g["into_id"], g["from_id"], list(g.get("linked") or []))
        tx.run(DELETE_RECORD, id=g["id"]).consume()
        if g.get("levels"):
            generations.bump_levels_in(tx, json.loads(g["levels"]))
        else:  # a merge recorded before its levels were: every audience
            generations.bump_levels_in(tx, [{"project_id": project_id}])

    graph.transact(work)
    return {"id": g["from_id"], "kind": g["kind"], "name": g["from_name"], "from": g["into_name"]}
