"""Projects, users and membership roles: the facts the visibility predicate reads."""

from __future__ import annotations

import re
import secrets

from neo4j import ManagedTransaction
from neo4j.exceptions import ConstraintError

from graph import member_people, relink_epochs
from graph.db import Graph
from graph.generations import bump_members, bump_members_in
from graph.ids import slug
from graph.visibility import EDGE_ROLES, ROLES, STRONGEST_ROLE
from graph.web_sessions import end_sessions_in, end_sessions_of

# What `POST /v1/projects` and `memora project create` accept as a project id (and what a generated one looks like):
# no `/` (entry ids are `<project_id>/…`), no spaces or control characters, at most 100 characters.
PROJECT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$"


class ProjectExists(Exception):
    """`create_project` named an id that is taken."""


class NoSuchProject(Exception):
    """A membership change named a project that does not exist (projects are created explicitly)."""


class LastOwner(Exception):
    """The change would leave the project without an owner."""


ENSURE_PROJECT = """
MERGE (p:Project {id: $project_id})
ON CREATE SET p.name = coalesce($name, $project_id), p.created_at = datetime(), p.hemisphere = 'north'
"""
SET_MEMBER = """
MERGE (p:Project {id: $project_id})
ON CREATE SET p.name = $project_id, p.created_at = datetime(), p.hemisphere = 'north'
MERGE (u:User {id: $user_id})
ON CREATE SET u.name = $user_id, u.created_at = datetime()
MERGE (u)-[m:MEMBER_OF]->(p)
SET m.role = $role, m.updated_at = datetime()
RETURN m.role AS role
"""
REMOVE_MEMBER = """
MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(:Project {id: $project_id})
DELETE m
RETURN count(m) AS removed
"""
# Each names one role per member and project, the one the visibility predicate reads (graph/visibility.py).
ROLE_OF = f"""
MATCH (:User {{id: $user_id}})-[m:MEMBER_OF]->(:Project {{id: $project_id}})
WITH {EDGE_ROLES} AS roles WHERE size(roles) > 0
RETURN {STRONGEST_ROLE} AS role
"""
PROJECTS_OF = f"""
MATCH (:User {{id: $user_id}})-[m:MEMBER_OF]->(p:Project)
WITH p, {EDGE_ROLES} AS roles
RETURN p.id AS project_id, p.name AS name, {STRONGEST_ROLE} AS role ORDER BY p.id
"""
MEMBERS_OF = f"""
MATCH (u:User)-[m:MEMBER_OF]->(:Project {{id: $project_id}})
WITH u, {EDGE_ROLES} AS roles
RETURN u.id AS user_id, {STRONGEST_ROLE} AS role ORDER BY u.id
"""
# Every membership, for the web app's development sign-in on a local install (api/web/routes/signin.py) only.
EVERY_MEMBERSHIP = f"""
MATCH (u:User)-[m:MEMBER_OF]->(p:Project)
WITH u, p, {EDGE_ROLES} AS roles
RETURN u.id AS user_id, p.id AS project_id, {STRONGEST_ROLE} AS role
ORDER BY user_id, project_id
LIMIT $limit
"""
UPDATE_PROJECT = """
MATCH (p:Project {id: $project_id})
SET p.name = coalesce($name, p.name), p.hemisphere = coalesce($hemisphere, p.hemisphere), p.updated_at = datetime()
RETURN p.id AS project_id, p.name AS name, p.hemisphere AS hemisphere
"""
AUTHORS_WITHOUT_MEMBERSHIP = """
MATCH (u:User)-[:WROTE]->(e:Entry) WHERE e.project_id IN $project_ids
  AND NOT EXISTS { MATCH (u)-[:MEMBER_OF]->(:Project {id: e.project_id}) }
RETURN e.project_id AS project_id, collect(DISTINCT u.id)[0..20] AS users
ORDER BY project_id
"""
CREATE_PROJECT = """
CREATE (p:Project {id: $project_id, name: $name, hemisphere: $hemisphere, created_at: datetime()})
MERGE (u:User {id: $owner})
ON CREATE SET u.name = $owner, u.created_at = datetime()
CREATE (u)-[:MEMBER_OF {role: 'owner', updated_at: datetime()}]->(p)
RETURN p.id AS project_id, p.name AS name, p.hemisphere AS hemisphere
"""
# The first statement of every checked membership change: it takes the project node's write lock, so two changes of
# one project's members run one after the other and the owner count read next is the committed one.
LOCK_PROJECT = "MATCH (p:Project {id: $project_id}) SET p.members_changed_at = datetime() RETURN p.id AS id"
MEMBER_STATE = f"""
MATCH (p:Project {{id: $project_id}})
OPTIONAL MATCH (:User {{id: $user_id}})-[m:MEMBER_OF]->(p)
WITH p, {EDGE_ROLES} AS roles
RETURN {STRONGEST_ROLE} AS role,
       size(COLLECT {{ MATCH (o:User)-[:MEMBER_OF {{role: 'owner'}}]->(p) RETURN DISTINCT o.id }}) AS owners
"""
SET_EXISTING_MEMBER = """
MATCH (p:Project {id: $project_id})
MERGE (u:User {id: $user_id})
ON CREATE SET u.name = $user_id, u.created_at = datetime()
MERGE (u)-[m:MEMBER_OF]->(p)
SET m.role = $role, m.updated_at = datetime()
RETURN m.role AS role
"""
OWNERS_OF = "MATCH (u:User)-[:MEMBER_OF {role: 'owner'}]->(:Project {id: $project_id}) RETURN DISTINCT u.id AS user_id"
PROJECTS_WITHOUT_OWNER = """
MATCH (p:Project) WHERE p.id IN $project_ids AND NOT EXISTS { MATCH (:User)-[:MEMBER_OF {role: 'owner'}]->(p) }
RETURN p.id AS project_id ORDER BY project_id
"""


def set_member(graph: Graph, project_id: str, user_id: str, role: str) -> str:
    if "/" in project_id or not project_id.strip():
        raise ValueError("a project id is not empty and holds no '/' (entry ids start with '<project_id>/')")
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    held = role_of(graph, project_id, user_id)
    before = str(graph.write(SET_MEMBER, {"project_id": project_id, "user_id": user_id, "role": role})[0]["role"])
    bump_members(graph, project_id)
    if held is not None and held != role:
        end_sessions_of(graph, user_id)
    return before


def remove_member(graph: Graph, project_id: str, user_id: str) -> bool:
    """Remove a membership; refuses (LastOwner) to remove the project's only owner."""
    return change_member(graph, project_id, user_id, None) is not None


def new_project_id(name: str) -> str:
    """A readable, unlikely-to-collide id for a project created without one: its name's slug and 6 hex digits."""
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", slug(name))[:40].strip("-.") or "project"
    return f"{base}-{secrets.token_hex(3)}"


def create_project(
    graph: Graph, project_id: str | None, name: str | None, hemisphere: str, owner: str
) -> dict[str, str]:
    """Create a project with `owner` as its owner; raises ProjectExists when the id is taken (the uniqueness
    constraint decides between two concurrent creates)."""
    if hemisphere not in ("north", "south"):
        raise ValueError("hemisphere must be north or south")
    pid = project_id or new_project_id(name or "")
    if not re.fullmatch(PROJECT_ID_PATTERN, pid):
        raise ValueError(
            "a project id is 1-100 letters, digits, '.', '_', ':' or '-' (no '/'), starting with a letter or digit"
        )
    if not owner.strip():
        raise ValueError("a project needs an owner")
    try:
        rows = graph.write(
            CREATE_PROJECT,
            {"project_id": pid, "name": (name or "").strip() or pid, "hemisphere": hemisphere, "owner": owner},
        )
    except ConstraintError as exc:
        raise ProjectExists(pid) from exc
    return dict(rows[0])


def change_member(graph: Graph, project_id: str, user_id: str, role: str | None) -> str | None:
    """Set `user_id`'s role in an existing project (`role=None` removes them). Returns the role they held before
    (None if they were not a member). Raises NoSuchProject (never creates one) and LastOwner when the change would
    leave the project without an owner: the project node is locked first, so the owner count and the change are one
    atomic step even when two owners demote themselves at once. A change of role or a removal ends the member's web
    sign-ins in the same transaction, so no browser goes on under the old role. A removal also ends the member's
    link to the person they are (graph/member_people.py): re-link the project afterwards when they had one."""
    if role is not None and role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    params = {"project_id": project_id, "user_id": user_id, "role": role}

    def work(tx: ManagedTransaction) -> str | None:
        linked = role is None and member_people.is_linked(tx, project_id, user_id)
        if linked:
            relink_epochs.bump(tx, project_id)  # first, as every change of what linking reads
        if not list(tx.run(LOCK_PROJECT, params)):
            raise NoSuchProject(project_id)
        state = tx.run(MEMBER_STATE, params).single()
        before = state["role"] if state else None
        if before == "owner" and role != "owner" and state is not None and state["owners"] <= 1:
            raise LastOwner(project_id)
        if role is None:
            tx.run(REMOVE_MEMBER, params).consume()
            if linked:
                member_people.unlink_in(tx, project_id, user_id)
        else:
            tx.run(SET_EXISTING_MEMBER, params).consume()
        bump_members_in(tx, project_id)
        if before is not None and before != role:
            end_sessions_in(tx, user_id)
        return None if before is None else str(before)

    return graph.transact(work)


def role_of(graph: Graph, project_id: str, user_id: str) -> str | None:
    rows = graph.read(ROLE_OF, {"project_id": project_id, "user_id": user_id})
    return str(rows[0]["role"]) if rows else None


def every_membership(graph: Graph, limit: int = 500) -> list[dict[str, str]]:
    return [dict(r) for r in graph.read(EVERY_MEMBERSHIP, {"limit": limit})]


def projects_of(graph: Graph, user_id: str) -> list[dict[str, str]]:
    return [dict(r) for r in graph.read(PROJECTS_OF, {"user_id": user_id})]


def members_of(graph: Graph, project_id: str) -> list[dict[str, str]]:
    return [dict(r) for r in graph.read(MEMBERS_OF, {"project_id": project_id})]


def ensure_owner(graph: Graph, project_id: str, user_id: str) -> None:
    """Make `user_id` owner of a project that has no owner yet (used by file ingest and eval)."""
    if not graph.read(OWNERS_OF, {"project_id": project_id}):
        set_member(graph, project_id, user_id, "owner")


def update_project(
    graph: Graph, project_id: str, name: str | None = None, hemisphere: str | None = None
) -> dict[str, str] | None:
    """Rename a project or set its hemisphere (which decides what "summer" means in its queries)."""
    if hemisphere is not None and hemisphere not in ("north", "south"):
        raise ValueError("hemisphere must be north or south")
    rows = graph.write(UPDATE_PROJECT, {"project_id": project_id, "name": name, "hemisphere": hemisphere})
    bump_members(graph, project_id)  # the hemisphere decides what "summer" means in a query
    return dict(rows[0]) if rows else None


def authors_without_membership(graph: Graph, project_ids: list[str]) -> dict[str, list[str]]:
    """Authors who cannot see their own entries yet, because nobody made them members."""
    return {
        r["project_id"]: list(r["users"]) for r in graph.read(AUTHORS_WITHOUT_MEMBERSHIP, {"project_ids": project_ids})
    }


def projects_without_owner(graph: Graph, project_ids: list[str]) -> list[str]:
    """Projects a file ingest created without `--owner`: nobody can manage them over HTTP until one is made."""
    return [r["project_id"] for r in graph.read(PROJECTS_WITHOUT_OWNER, {"project_ids": project_ids})]


PROJECT_HEMISPHERES = "MATCH (p:Project) WHERE p.id IN $ids RETURN p.hemisphere AS h"


def project_hemisphere(graph: Graph, projects: list[str]) -> str:
    """What a season means in these projects: south only when every one of them is in the south."""
    rows = graph.read(PROJECT_HEMISPHERES, {"ids": projects})
    return "south" if rows and all(r["h"] == "south" for r in rows) else "north"
