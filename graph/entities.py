"""Persons, places and things of a project, with aliases ("papá", "dad", "Josep" are one person).

What a viewer may know of an entity follows from its sources, never from the entity node itself: the entries that
name it (`(:Entry)-[:MENTIONS {name}]->(entity)`, each mention keeping the name as its writer linked it) and the
declarations made by hand (`(:Declaration {name, aliases, intimacy, author_id})-[:DECLARES]->(entity)`, each with a
stated audience). A viewer sees an entity only through sources they may see, with the names and aliases those
sources carry, so nothing about it changes when entries hidden from them are added, edited or deleted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from neo4j import ManagedTransaction

from graph import relink_epochs
from graph.called import called_names
from graph.db import Graph
from graph.generations import bump_levels
from graph.ids import ENTITY_KINDS, entity_id, sha256
from graph.textnorm import fold
from graph.visibility import (
    CAN_SEE_DECLARATION,
    INTIMACY_LEVELS,
    VIEWER_IN_PROJECT,
    Viewer,
    can_see,
    can_see_in_project,
    mention_seen,
    visibility_params,
)

_LABEL = {"person": "Person", "place": "Place", "thing": "Thing"}


def display_name(var: str, in_project: bool = False) -> str:
    """The name of entity `var` for the viewer of the statement: the first declaration they may see, else the
    smallest name among the mentions of entries they may see (null when they may see neither). `in_project`: for a
    statement that bound `VIEWER_IN_PROJECT`'s variables, over the entities of `$project_id`."""
    sees = can_see_in_project("dn_e") if in_project else can_see("dn_e")
    return f"""coalesce(
  COLLECT {{ MATCH (d:Declaration)-[:DECLARES]->({var}) WHERE {CAN_SEE_DECLARATION}
            WITH d ORDER BY d.created_at, d.id RETURN d.name }}[0],
  COLLECT {{ MATCH (dn_e:Entry)-[dn_m:MENTIONS]->({var}) WHERE {sees} AND {mention_seen("dn_m")}
            RETURN dn_m.name AS dn_name ORDER BY dn_name LIMIT 1 }}[0])"""


def declared_name(var: str, mention_name: str) -> str:
    """`display_name` for a statement that already holds `mention_name`, the smallest name among the mentions of
    `var` in the entries the viewer may see (computed in its own pass over them): only the declarations are read."""
    return f"""coalesce(
  COLLECT {{ MATCH (d:Declaration)-[:DECLARES]->({var}) WHERE {CAN_SEE_DECLARATION}
            WITH d ORDER BY d.created_at, d.id RETURN d.name }}[0], {mention_name})"""


# Every entity of the project with its declared names: for the operator's CLI, which is trusted with everything.
LIST_ENTITIES = """
MATCH (n:Person|Place|Thing) WHERE n.project_id IN $project_ids
RETURN n.id AS id, n.project_id AS project_id, n.kind AS kind, n.name AS name,
       COLLECT { MATCH (d:Declaration)-[:DECLARES]->(n) WITH d ORDER BY d.created_at, d.id
                 UNWIND d.aliases AS a RETURN a } AS aliases
ORDER BY n.id
"""


def _visible_entity(in_project: bool) -> str:
    """The rest of a listing of entities a viewer may know of, named as the sources they may see name them."""
    carried = "vis_roles, vis_periods, " if in_project else ""
    return f"""
WITH n, {carried}{display_name("n", in_project)} AS name
WHERE name IS NOT NULL
RETURN n.id AS id, n.project_id AS project_id, n.kind AS kind, name,
       COLLECT {{ MATCH (d:Declaration)-[:DECLARES]->(n) WHERE {CAN_SEE_DECLARATION}
                 WITH d ORDER BY d.created_at, d.id UNWIND d.aliases AS a RETURN a }} AS aliases,
       {called_names("n", in_project)} AS called
ORDER BY n.id
"""


LIST_VISIBLE_ENTITIES = f"MATCH (n:Person|Place|Thing) WHERE n.project_id IN $project_ids{_visible_entity(False)}"
# The same for the entities `$entity_ids` names (those a write's entries mention: queries/search/kept_lexicons.py).
LIST_VISIBLE_ENTITIES_AMONG = f"""
MATCH (n:Person|Place|Thing) WHERE n.id IN $entity_ids AND n.project_id IN $project_ids{_visible_entity(False)}"""
# Both over ONE project (`$project_id`), the viewer resolved once (graph/visibility.py): naming an entity reads the
# mentions of every entry naming it, half the time at 100,000 entries (docs/BENCHMARKS.md).
LIST_VISIBLE_ENTITIES_IN_PROJECT = f"""{VIEWER_IN_PROJECT}
MATCH (n:Person|Place|Thing) WHERE n.project_id = $project_id
WITH n, vis_roles, vis_periods{_visible_entity(True)}"""
LIST_VISIBLE_ENTITIES_AMONG_IN_PROJECT = f"""{VIEWER_IN_PROJECT}
MATCH (n:Person|Place|Thing) WHERE n.id IN $entity_ids AND n.project_id = $project_id
WITH n, vis_roles, vis_periods{_visible_entity(True)}"""

# Declarations an entry may be linked through: at least as open as the entry, and an intimate or private one only by
# the entry's own author (the rule for lent conversation context), so linking never carries a name or an alias to a
# wider audience than the one it was declared for. Names other entries list are not used: how an entry is linked
# then never depends on which other entries exist, were written before it, or are hidden from its readers.
LINKABLE_DECLARED = """
MATCH (d:Declaration)-[:DECLARES]->(n)
WHERE d.project_id = $project_id AND d.intimacy IN $levels
  AND (d.intimacy IN ['circle', 'public'] OR (d.author_id IS NOT NULL AND d.author_id = $author_id))
WITH n, d ORDER BY d.created_at, d.id
WITH n, collect(d) AS ds
RETURN n.id AS id, n.project_id AS project_id, n.kind AS kind, ds[0].name AS name,
       reduce(acc = [], d IN ds | acc + d.aliases) AS aliases
ORDER BY n.id
"""
# One statement per label: labels cannot be parameters in Cypher 5.
DECLARE_ENTITY = {
    kind: f"""
MERGE (n:{label} {{id: $id}})
ON CREATE SET n.project_id = $project_id, n.kind = '{kind}', n.name = $name, n.aliases = [], n.aliases_text = '',
              n.created_at = datetime()
MERGE (d:Declaration {{id: $declaration_id}})
ON CREATE SET d.project_id = $project_id, d.entity_id = $id, d.kind = '{kind}', d.name = $name, d.aliases = [],
              d.intimacy = $intimacy, d.author_id = $author_id, d.created_at = datetime()
MERGE (d)-[:DECLARES]->(n)
SET d.aliases = reduce(acc = d.aliases, a IN $aliases | CASE WHEN a IN acc THEN acc ELSE acc + a END),
    d.updated_at = datetime()
RETURN d.name AS name, d.aliases AS aliases
"""
    for kind, label in _LABEL.items()
}


@dataclass(frozen=True)
class Entity:
    id: str
    project_id: str
    kind: str
    name: str
    aliases: tuple[str, ...]
    called: tuple[str, ...] = ()
    """What the conversations the viewer may see call this person, beyond its declared names (graph/called.py)."""

    def answers_to(self) -> list[str]:
        """Folded names this entity answers to."""
        return list(dict.fromkeys(fold(k) for k in (self.name, *self.aliases, *self.called) if k.strip()))


def _entities(rows: list[Any]) -> list[Entity]:
    return [
        Entity(
            r["id"],
            r["project_id"],
            r["kind"],
            r["name"],
            tuple(dict.fromkeys(a for a in r["aliases"] if a != r["name"])),
            tuple(c for c in (r.get("called") or ()) if c != r["name"] and c not in r["aliases"]),
        )
        for r in rows
    ]


def list_entities(graph: Graph, project_ids: list[str]) -> list[Entity]:
    return _entities(graph.read(LIST_ENTITIES, {"project_ids": project_ids}))


def list_visible_entities(graph: Graph, project_ids: list[str], viewer: Viewer) -> list[Entity]:
    if len(project_ids) == 1:
        params = {"project_id": project_ids[0], **visibility_params(viewer)}
        return _entities(graph.read(LIST_VISIBLE_ENTITIES_IN_PROJECT, params))
    return _entities(graph.read(LIST_VISIBLE_ENTITIES, {"project_ids": project_ids, **visibility_params(viewer)}))


def list_visible_entities_among(
    graph: Graph, project_ids: list[str], viewer: Viewer, entity_ids: list[str]
) -> list[Entity]:
    if len(project_ids) == 1:
        params = {"project_id": project_ids[0], "entity_ids": entity_ids, **visibility_params(viewer)}
        return _entities(graph.read(LIST_VISIBLE_ENTITIES_AMONG_IN_PROJECT, params))
    params = {"project_ids": project_ids, "entity_ids": entity_ids, **visibility_params(viewer)}
    return _entities(graph.read(LIST_VISIBLE_ENTITIES_AMONG, params))


def linkable_entities(
    graph: Graph, project_id: str, author_id: str | None, intimacy: str, witness: bool = False
) -> list[Entity]:
    """Declarations an entry of `author_id` at level `intimacy` may be linked through (a witness's account: only
    public ones, since a witness may not see the others)."""
    openness = INTIMACY_LEVELS.index(intimacy)
    levels = ["public"] if witness else [lvl for lvl in INTIMACY_LEVELS if INTIMACY_LEVELS.index(lvl) >= openness]
    return _entities(
        graph.read(LINKABLE_DECLARED, {"project_id": project_id, "levels": levels, "author_id": author_id})
    )


def find_visible_entity(graph: Graph, project_id: str, viewer: Viewer, name: str) -> Entity | None:
    """An entity by id, name or alias among those the viewer may know of; None for hidden and missing alike."""
    key = fold(name)
    return next(
        (e for e in list_visible_entities(graph, [project_id], viewer) if e.id == name or key in e.answers_to()),
        None,
    )


def upsert_entity(
    graph: Graph,
    project_id: str,
    kind: str,
    name: str,
    aliases: list[str] | None = None,
    audience: str = "circle",
    author_id: str | None = None,
) -> Entity:
    """Declare a name with aliases for `audience` (an intimacy level). Returns the declaration as its author sees
    it: what they declared, never what other sources hold about an entity of the same name."""
    if kind not in ENTITY_KINDS:
        raise ValueError(f"kind must be one of {', '.join(ENTITY_KINDS)}")
    if audience not in INTIMACY_LEVELS:
        raise ValueError(f"audience must be one of {', '.join(INTIMACY_LEVELS)}")
    if audience in ("private", "intimate") and not author_id:
        raise ValueError(f"a {audience} declaration needs an author")
    name = name.strip()
    if not name:
        raise ValueError("an entity needs a name")
    clean = list(dict.fromkeys(a.strip() for a in aliases or [] if a.strip() and a.strip() != name))
    eid = entity_id(project_id, kind, name)
    params = {
        "id": eid,
        "project_id": project_id,
        "name": name,
        "aliases": clean,
        "intimacy": audience,
        "author_id": author_id,
        "declaration_id": sha256(eid, audience, author_id or "")[:32],
    }

    def work(tx: ManagedTransaction) -> Any:
        relink_epochs.bump(tx, project_id)  # first: a re-linking job that read the names before writes nothing
        return tx.run(DECLARE_ENTITY[kind], params).single(strict=True)

    row = graph.transact(work)
    # a name or alias changes how queries are understood, for those who may learn it
    bump_levels(graph, [{"project_id": project_id, "intimacy": audience, "author_id": author_id}])
    return Entity(eid, project_id, kind, row["name"], tuple(row["aliases"]))
