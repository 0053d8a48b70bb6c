"""Which person of a project a member is: `(:User)-[:IS_PERSON {project_id}]->(:Person)`, declared by an owner.

The author of an entry is then one of the persons of their entries: ingest gives each entry of a linked member a
`MENTIONS` edge to that person marked `author` (ingest/linking.py), so every reader of mentions counts them. The link
is a declaration of the project every member may see, so it holds only while the person is one every member may know
of: named by a circle or public declaration, or by a circle or public entry through a name, not only through the
author edges themselves (`SHARED_NAME`, which is also the name those edges carry). A person deleted or forgotten in
what members see so stops being anyone's before its node is gone; a node that goes takes its links with it (DETACH),
a member removed loses theirs (graph/members.py), a merge moves them to the person kept (graph/entity_merge.py).
Declaring or removing a link bumps the project's names (graph/relink_epochs.py): re-linking then gives or takes the
author edges of that member's entries, and every write of an entry bumps the generations of whoever may see it.
"""

from __future__ import annotations

from dataclasses import dataclass

from neo4j import ManagedTransaction

from graph import relink_epochs
from graph.db import Graph
from graph.entities import list_entities
from graph.generations import ALL, bump_keys_in
from graph.textnorm import fold
from graph.visibility import CAN_SEE, EDGE_ROLES, STRONGEST_ROLE, Viewer, visibility_params


def shared_name(var: str) -> str:
    """The name every member may know person `var` by: its first circle or public declaration, else the smallest
    name a circle or public entry links it by (an author's edge alone names nobody); null when there is none."""
    return f"""coalesce(
  COLLECT {{ MATCH (sd:Declaration)-[:DECLARES]->({var}) WHERE sd.intimacy IN ['circle', 'public']
            WITH sd ORDER BY sd.created_at, sd.id RETURN sd.name }}[0],
  COLLECT {{ MATCH (se:Entry)-[sm:MENTIONS]->({var})
            WHERE se.intimacy IN ['circle', 'public'] AND (sm.author IS NULL OR sm.count > 0)
            RETURN sm.name AS sn ORDER BY sn LIMIT 1 }}[0])"""


# The link read by ingest: its member still belongs to the project and the person is still shared.
PERSON_OF = f"""
MATCH (u:User {{id: $user_id}})-[:IS_PERSON {{project_id: $project_id}}]->(n:Person)
WHERE EXISTS {{ MATCH (u)-[:MEMBER_OF]->(:Project {{id: $project_id}}) }}
WITH n, {shared_name("n")} AS name
RETURN n.id AS person_id, name, name IS NOT NULL AS shared
"""
IS_LINKED = "MATCH (:User {id: $user_id})-[l:IS_PERSON {project_id: $project_id}]->() RETURN count(l) AS n"
# One link per member and project: a new one replaces theirs.
LINK_PERSON = f"""
MATCH (u:User {{id: $user_id}})-[:MEMBER_OF]->(:Project {{id: $project_id}})
MATCH (n:Person {{id: $person_id}}) WHERE n.project_id = $project_id
OPTIONAL MATCH (u)-[old:IS_PERSON {{project_id: $project_id}}]->()
WITH u, n, collect(old) AS olds
FOREACH (o IN olds | DELETE o)
CREATE (u)-[l:IS_PERSON {{project_id: $project_id, declared_by: $declared_by, declared_at: datetime()}}]->(n)
RETURN n.id AS person_id, {shared_name("n")} AS name
"""
UNLINK_PERSON = """
MATCH (:User {id: $user_id})-[l:IS_PERSON {project_id: $project_id}]->(n:Person)
DELETE l
RETURN n.id AS person_id
"""
# A merge moves the links to the merged person onto the one kept (only those of `$users`, when given: an unmerge
# moves back the links its merge moved).
MOVE_LINKS = """
MATCH (u:User)-[l:IS_PERSON]->(:Person {id: $from_id})
WHERE $users IS NULL OR u.id IN $users
MATCH (t:Person {id: $into_id})
CREATE (u)-[:IS_PERSON {project_id: l.project_id, declared_by: l.declared_by, declared_at: l.declared_at}]->(t)
DELETE l
RETURN u.id AS user_id ORDER BY user_id
"""
# The members and the persons they are, as members see the links (a project-level declaration): a link that holds.
MEMBER_PERSONS = f"""
MATCH (u:User)-[m:MEMBER_OF]->(:Project {{id: $project_id}})
WITH u, {EDGE_ROLES} AS roles
OPTIONAL MATCH (u)-[:IS_PERSON {{project_id: $project_id}}]->(n:Person)
WITH u, roles, n, {shared_name("n")} AS person
RETURN u.id AS user_id, {STRONGEST_ROLE} AS role, CASE WHEN person IS NOT NULL THEN n.id END AS person_id,
       person
ORDER BY user_id
"""
# Each author as a page names them: a witness's account by the name its link was given, read for an account of theirs
# the viewer may see (as graph/witnesses.py ACCOUNT_NAMES); a member linked to a shared person, for a viewer who is a
# member (a witness sees public declarations only, and the link is not one), by that person's name; else the user's.
AUTHOR_NAMES = f"""
UNWIND $author_ids AS aid
OPTIONAL MATCH (u:User {{id: aid}})
WITH aid, u, CASE WHEN aid STARTS WITH $witness_prefix THEN head(COLLECT {{
    MATCH (u)-[:WROTE]->(e:Entry {{project_id: $project_id, kind: 'witness'}}) WHERE {CAN_SEE}
    MATCH (g:WitnessGrant {{id: substring(aid, size($witness_prefix)), project_id: $project_id}})
    WHERE g.label IS NOT NULL
    RETURN g.label LIMIT 1 }}) END AS label
OPTIONAL MATCH (u)-[:IS_PERSON {{project_id: $project_id}}]->(n:Person)
WHERE $viewer_id IS NOT NULL AND NOT aid STARTS WITH $witness_prefix
  AND EXISTS {{ MATCH (:User {{id: $viewer_id}})-[:MEMBER_OF]->(:Project {{id: $project_id}}) }}
  AND EXISTS {{ MATCH (u)-[:MEMBER_OF]->(:Project {{id: $project_id}}) }}
WITH aid, u, label, {shared_name("n")} AS person
RETURN aid AS author_id,
       CASE WHEN aid STARTS WITH $witness_prefix THEN label ELSE coalesce(person, u.name) END AS name
"""


class NotShared(Exception):
    """The person is known only through sources some member may not see: a link would tell them of it."""


@dataclass(frozen=True)
class LinkedPerson:
    """The person a member is, under the name every member may know them by."""

    id: str
    name: str


def person_of(graph: Graph, project_id: str, user_id: str) -> LinkedPerson | None:
    """The shared person `user_id` is in the project (None without a link, or when it names nobody members know)."""
    rows = graph.read(PERSON_OF, {"project_id": project_id, "user_id": user_id})
    if not rows or not rows[0]["shared"]:
        return None
    return LinkedPerson(str(rows[0]["person_id"]), str(rows[0]["name"]))


def is_linked(graph: Graph | ManagedTransaction, project_id: str, user_id: str) -> bool:
    """Whether `user_id` has a link in the project, shared or not (what removing them must undo)."""
    params = {"project_id": project_id, "user_id": user_id}
    rows = graph.read(IS_LINKED, params) if isinstance(graph, Graph) else list(graph.run(IS_LINKED, params))
    return bool(rows and rows[0]["n"])


def _bump(tx: ManagedTransaction, project_id: str, person_id: str) -> None:
    """What every member may see changed (the link): no entry yet, re-linking rewrites them and bumps their readers."""
    bump_keys_in(tx, project_id, [ALL], entry_ids=[], entity_ids=[person_id])


def link(
    graph: Graph, project_id: str, user_id: str, person_id: str, declared_by: str | None, shared_only: bool = True
) -> LinkedPerson | None:
    """Link a member to a person of the project (replacing their link); None when either is gone, NotShared (and
    nothing written) when no member-wide source names the person, unless not `shared_only` (a restore, whose entries
    come next: the name is then "" until they do). Re-link the project afterwards."""
    params = {"project_id": project_id, "user_id": user_id, "person_id": person_id, "declared_by": declared_by}

    def work(tx: ManagedTransaction) -> LinkedPerson | None:
        relink_epochs.bump(tx, project_id)  # first: a re-linking job that read the links before writes nothing
        row = tx.run(LINK_PERSON, params).single()
        if row is None:
            return None
        if row["name"] is None and shared_only:
            raise NotShared(person_id)
        _bump(tx, project_id, person_id)
        return LinkedPerson(str(row["person_id"]), str(row["name"] or ""))

    return graph.transact(work)


def unlink(graph: Graph, project_id: str, user_id: str) -> str | None:
    """Remove a member's link; the person it named (None when there was none). Re-link afterwards."""

    def work(tx: ManagedTransaction) -> str | None:
        if not is_linked(tx, project_id, user_id):
            return None
        relink_epochs.bump(tx, project_id)
        person = unlink_in(tx, project_id, user_id)
        if person is not None:
            _bump(tx, project_id, person)
        return person

    return graph.transact(work)


def unlink_in(tx: ManagedTransaction, project_id: str, user_id: str) -> str | None:
    """`unlink` inside a transaction that bumped the project's names first (a member removed)."""
    row = tx.run(UNLINK_PERSON, project_id=project_id, user_id=user_id).single()
    return None if row is None else str(row["person_id"])


def move_links(tx: ManagedTransaction, from_id: str, into_id: str, users: list[str] | None = None) -> list[str]:
    """Move the links to person `from_id` onto `into_id` (a merge; those of `users` only, an unmerge)."""
    return [str(r["user_id"]) for r in tx.run(MOVE_LINKS, from_id=from_id, into_id=into_id, users=users)]


def member_persons(graph: Graph, project_id: str) -> list[dict[str, str | None]]:
    """Every member with the shared person they are (null when none); for members of the project."""
    return [dict(r) for r in graph.read(MEMBER_PERSONS, {"project_id": project_id})]


def author_names(
    graph: Graph, viewer: Viewer, project_id: str, author_ids: list[str], witness_prefix: str
) -> dict[str, str]:
    """Author id -> the name a page shows them by (see AUTHOR_NAMES); an author with none is left out."""
    params = {
        "project_id": project_id,
        "author_ids": author_ids,
        "witness_prefix": witness_prefix,
        **visibility_params(viewer),
    }
    return {r["author_id"]: r["name"] for r in graph.read(AUTHOR_NAMES, params) if r["name"]}


def find_person_as_operator(graph: Graph, project_id: str, name: str) -> tuple[str, str] | None:
    """(id, kind) of the entity answering to `name` (id, name or alias) among every entity of the project, persons
    first: the CLI's operator sees everything."""
    key = fold(name.strip())
    found = [e for e in list_entities(graph, [project_id]) if e.id == name or key in e.answers_to()]
    found.sort(key=lambda e: e.kind != "person")
    return (found[0].id, found[0].kind) if found else None
