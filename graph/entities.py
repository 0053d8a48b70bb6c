"""Persons, places and things of a project, with aliases ("papá", "dad", "Josep" are one person)."""

from __future__ import annotations

from dataclasses import dataclass

from graph.db import Graph
from graph.ids import ENTITY_KINDS, entity_id
from graph.textnorm import fold
from graph.visibility import CAN_SEE

_LABEL = {"person": "Person", "place": "Place", "thing": "Thing"}

LIST_ENTITIES = """
MATCH (n:Person|Place|Thing) WHERE n.project_id IN $project_ids
RETURN n.id AS id, n.project_id AS project_id, n.kind AS kind, n.name AS name, coalesce(n.aliases, []) AS aliases
ORDER BY n.id
"""

# Entities a viewer may know of: named by an entry they can see, or by no entry at all (added by hand). A name that
# only a private entry mentions must not be revealed to a reader, not even by query understanding.
LIST_VISIBLE_ENTITIES = f"""
MATCH (n:Person|Place|Thing) WHERE n.project_id IN $project_ids
  AND (NOT EXISTS {{ MATCH (:Entry)-[:MENTIONS]->(n) }}
       OR EXISTS {{ MATCH (e:Entry)-[:MENTIONS]->(n) WHERE {CAN_SEE} }})
RETURN n.id AS id, n.project_id AS project_id, n.kind AS kind, n.name AS name, coalesce(n.aliases, []) AS aliases
ORDER BY n.id
"""

# One statement per label: labels cannot be parameters in Cypher 5.
UPSERT_ENTITY = {
    kind: f"""
MERGE (n:{label} {{id: $id}})
ON CREATE SET n.project_id = $project_id, n.kind = '{kind}', n.name = $name, n.aliases = [], n.created_at = datetime()
WITH n
SET n.aliases = reduce(acc = coalesce(n.aliases, []), a IN $aliases | CASE WHEN a IN acc THEN acc ELSE acc + a END)
SET n.aliases_text = reduce(s = '', a IN n.aliases | s + ' ' + a)
RETURN n.id AS id, n.name AS name, n.aliases AS aliases
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

    def answers_to(self) -> list[str]:
        """Folded names this entity answers to."""
        return list(dict.fromkeys(fold(k) for k in (self.name, *self.aliases) if k.strip()))


def list_entities(graph: Graph, project_ids: list[str]) -> list[Entity]:
    return [
        Entity(r["id"], r["project_id"], r["kind"], r["name"], tuple(r["aliases"]))
        for r in graph.read(LIST_ENTITIES, {"project_ids": project_ids})
    ]


def list_visible_entities(graph: Graph, project_ids: list[str], viewer_params: dict[str, object]) -> list[Entity]:
    return [
        Entity(r["id"], r["project_id"], r["kind"], r["name"], tuple(r["aliases"]))
        for r in graph.read(LIST_VISIBLE_ENTITIES, {"project_ids": project_ids, **viewer_params})
    ]


def find_visible_entity(graph: Graph, project_id: str, viewer_params: dict[str, object],
                        name: str) -> Entity | None:
    """An entity by id, name or alias among those the viewer may know of; None for hidden and missing alike."""
    key = fold(name)
    return next((e for e in list_visible_entities(graph, [project_id], viewer_params)
                 if e.id == name or key in e.answers_to()), None)


def upsert_entity(graph: Graph, project_id: str, kind: str, name: str, aliases: list[str] | None = None) -> Entity:
    if kind not in ENTITY_KINDS:
        raise ValueError(f"kind must be one of {', '.join(ENTITY_KINDS)}")
    name = name.strip()
    if not name:
        raise ValueError("an entity needs a name")
    clean = [a.strip() for a in aliases or [] if a.strip() and a.strip() != name]
    row = graph.write(
        UPSERT_ENTITY[kind],
        {"id": entity_id(project_id, kind, name), "project_id": project_id, "name": name, "aliases": clean},
    )[0]
    return Entity(row["id"], project_id, kind, row["name"], tuple(row["aliases"]))
