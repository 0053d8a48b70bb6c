"""Deleting and renaming an entity, by a writer of its project, in the sources that writer may see.

An entity is known only through its sources (graph/entities.py): the entries that mention it and the declarations
that name it, each with its audience. An edit acts on exactly the sources the caller may see, through the same
`CAN_SEE` and `CAN_SEE_DECLARATION` predicates every read uses: the declarations they may see are deleted or
renamed, and the entries they may see stop listing the entity's names (delete) or list the new name (rename).
Sources hidden from the caller (another author's private entry or private declaration) are left as they are, for the
people who may see them. So what the caller is told, and what they observe afterwards, is the same whether or not
such hidden sources exist; nobody edits what they cannot see. Mentions found in texts are re-derived afterwards by
re-linking the project's entries (ingest/relink.py), through the usual linking rules.
"""

from __future__ import annotations

from neo4j import ManagedTransaction

from graph import relink_epochs
from graph.db import Graph
from graph.entities import Entity, list_visible_entities
from graph.forgetting import drop_unsourced, scrub_steps
from graph.generations import bump_levels_in
from graph.ids import entity_id
from graph.textnorm import fold
from graph.visibility import CAN_SEE, CAN_SEE_DECLARATION, Viewer, visibility_params

_LABEL = {"person": "Person", "place": "Place", "thing": "Thing"}


def _per_label(template: str) -> dict[str, str]:
    return {kind: template.replace("__LABEL__", label) for kind, label in _LABEL.items()}


# Taken first: the entity node's write lock orders concurrent edits of one entity.
LOCK_ENTITY = _per_label("MATCH (n:__LABEL__ {id: $id}) SET n.edited_at = datetime() RETURN n.id AS id")
VISIBLE_MENTIONS = _per_label(f"""
MATCH (e:Entry)-[m:MENTIONS]->(:__LABEL__ {{id: $id}})
WHERE {CAN_SEE}
RETURN e.id AS entry_id, m.name AS name, coalesce(e.listed_persons, []) AS persons,
       coalesce(e.listed_places, []) AS places, e.intimacy AS intimacy, e.author_id AS author_id
""")
VISIBLE_DECLARATIONS = _per_label(f"""
MATCH (d:Declaration)-[:DECLARES]->(:__LABEL__ {{id: $id}})
WHERE {CAN_SEE_DECLARATION}
RETURN d.id AS id, d.intimacy AS intimacy, d.author_id AS author_id
""")
DELETE_DECLARATIONS = "UNWIND $ids AS did MATCH (d:Declaration {id: did}) DETACH DELETE d"
# A renamed declaration keeps its old name as an alias (texts that use it keep linking) unless new aliases are given.
RENAME_DECLARATIONS = """
UNWIND $ids AS did
MATCH (d:Declaration {id: did})
WITH d, d.name AS old, coalesce($name, d.name) AS new
WITH d, new, CASE WHEN $aliases IS NOT NULL THEN $aliases
                  WHEN old <> new AND NOT old IN d.aliases THEN d.aliases + old ELSE d.aliases END AS aliases
SET d.name = new, d.aliases = [a IN aliases WHERE a <> new], d.updated_at = datetime()
"""
SET_LISTED = """
UNWIND $rows AS row
MATCH (e:Entry {id: row.entry_id})
SET e.listed_persons = row.persons, e.listed_places = row.places
"""
DROP_MENTIONS = _per_label("""
UNWIND $entry_ids AS eid
MATCH (:Entry {id: eid})-[m:MENTIONS]->(:__LABEL__ {id: $id})
DELETE m
""")
SET_NODE_NAME = _per_label("MATCH (n:__LABEL__ {id: $id}) SET n.name = $name")


class NameTaken(Exception):
    """A rename to a name another entity of the same kind answers to, for the caller."""


class NotDeclared(Exception):
    """Aliases were given for an entity the caller knows only from entries (aliases live in declarations)."""


def find_for_edit(graph: Graph, project_id: str, viewer: Viewer, kind: str, name: str) -> Entity | None:
    """The entity of `kind` the caller may see, by id, name or alias; None for hidden and missing alike."""
    key = fold(name)
    return next(
        (
            e
            for e in list_visible_entities(graph, [project_id], viewer)
            if e.kind == kind and (e.id == name or key in e.answers_to())
        ),
        None,
    )


def _unlisted(names: list[str], keys: set[str], new_name: str | None) -> list[str]:
    """`names` without those folding to one of `keys` (or with `new_name` in their place), order kept."""
    out: list[str] = []
    for n in names:
        value = n if fold(n) not in keys else new_name
        if value is not None and value not in out:
            out.append(value)
    return out


def _edit(
    graph: Graph,
    entity: Entity,
    viewer: Viewer,
    new_name: str | None,
    aliases: list[str] | None,
    delete: bool,
) -> int:
    """One transaction: bump the project's names (so a re-linking job that read them before writes nothing:
    graph/relink_epochs.py), lock the entity, read its sources the caller may see, change them. Returns how many
    declarations the caller could see."""
    kind, params = entity.kind, {"id": entity.id, **visibility_params(viewer)}

    def work(tx: ManagedTransaction) -> int:
        dropped: list[str] = []
        relink_epochs.bump(tx, entity.project_id)
        if not list(tx.run(LOCK_ENTITY[kind], params)):
            return 0
        declarations = [dict(r) for r in tx.run(VISIBLE_DECLARATIONS[kind], params)]
        declared = [d["id"] for d in declarations]
        if not delete and aliases is not None and not declared:
            raise NotDeclared(entity.id)
        mentions = [dict(r) for r in tx.run(VISIBLE_MENTIONS[kind], params)]
        keys = set(entity.answers_to()) if delete else {fold(entity.name)}
        keys |= {fold(m["name"]) for m in mentions if m["name"] and (delete or fold(m["name"]) in keys)}
        if not delete and new_name is None:
            keys = set()  # only the aliases change: entries keep listing the name as they do
        rows = []
        for m in mentions:
            persons = _unlisted(m["persons"], keys, new_name) if kind == "person" else m["persons"]
            places = _unlisted(m["places"], keys, new_name) if kind == "place" else m["places"]
            rows.append({"entry_id": m["entry_id"], "persons": persons, "places": places})
        if rows:
            tx.run(SET_LISTED, rows=rows).consume()
        if delete:
            tx.run(DELETE_DECLARATIONS, ids=declared).consume()
            tx.run(DROP_MENTIONS[kind], id=entity.id, entry_ids=[m["entry_id"] for m in mentions]).consume()
            dropped = drop_unsourced(tx, [entity.id])
        else:
            tx.run(RENAME_DECLARATIONS, ids=declared, name=new_name, aliases=aliases).consume()
            if new_name is not None and declared:
                tx.run(SET_NODE_NAME[kind], id=entity.id, name=new_name).consume()
        # Only the audiences of the sources changed: a viewer who sees none of them observes no change (their
        # cached results stay; a bump for everyone would tell them a hidden source was edited).
        bump_levels_in(
            tx,
            [
                {"project_id": entity.project_id, "intimacy": s["intimacy"], "author_id": s["author_id"]}
                for s in declarations + mentions
            ],
        )
        scrub_steps(tx, dropped)  # after the bump: its own step names the entity too
        return len(declared)

    return graph.transact(work)


def delete_entity(graph: Graph, entity: Entity, viewer: Viewer) -> None:
    """Delete the declarations of `entity` the caller may see and its mentions by the entries they may see (which
    stop listing its names); re-link afterwards so texts stop matching them."""
    _edit(graph, entity, viewer, None, None, delete=True)


def rename_entity(
    graph: Graph,
    project_id: str,
    entity: Entity,
    viewer: Viewer,
    new_name: str | None,
    aliases: list[str] | None,
) -> Entity:
    """Rename `entity` (and/or replace its aliases) in the sources the caller may see; a renamed declaration keeps
    its old name as an alias unless `aliases` are given. Returns it as the caller will see it once re-linked: the
    same id when a declaration carries it, else the id entries listing the new name get."""
    name = new_name.strip() if new_name is not None else None
    if name is not None and not name:
        raise ValueError("an entity needs a name")
    clean = (
        None
        if aliases is None
        else list(dict.fromkeys(a.strip() for a in aliases if a.strip() and a.strip() != (name or entity.name)))
    )
    if name is not None and fold(name) != fold(entity.name):
        others = [
            e
            for e in list_visible_entities(graph, [project_id], viewer)
            if e.kind == entity.kind and e.id != entity.id and fold(name) in e.answers_to()
        ]
        if others:
            raise NameTaken(others[0].name)
    declared = _edit(graph, entity, viewer, name, clean, delete=False)
    final = name or entity.name
    if not declared:
        return Entity(
            entity_id(project_id, entity.kind, final) if name else entity.id, project_id, entity.kind, final, ()
        )
    kept = clean if clean is not None else [a for a in (*entity.aliases, entity.name) if a != final]
    return Entity(entity.id, project_id, entity.kind, final, tuple(dict.fromkeys(kept)))


def visible_sources(graph: Graph, entity: Entity, viewer: Viewer) -> tuple[int, list[str]]:
    """How many declarations of `entity` the caller may see, and the names the entries they may see link it by."""
    params = {"id": entity.id, **visibility_params(viewer)}
    declarations = graph.read(VISIBLE_DECLARATIONS[entity.kind], params)
    names = [r["name"] for r in graph.read(VISIBLE_MENTIONS[entity.kind], params) if r["name"]]
    return len(declarations), list(dict.fromkeys(names))
