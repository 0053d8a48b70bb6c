"""Projects, users and membership roles: the facts the visibility predicate reads."""

from __future__ import annotations

from graph.db import Graph
from graph.visibility import ROLES

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
ROLE_OF = "MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(:Project {id: $project_id}) RETURN m.role AS role"
PROJECTS_OF = """
MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(p:Project)
RETURN p.id AS project_id, p.name AS name, m.role AS role ORDER BY p.id
"""
MEMBERS_OF = """
MATCH (u:User)-[m:MEMBER_OF]->(:Project {id: $project_id})
RETURN u.id AS user_id, m.role AS role ORDER BY u.id
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
OWNERS_OF = "MATCH (u:User)-[:MEMBER_OF {role: 'owner'}]->(:Project {id: $project_id}) RETURN u.id AS user_id"


def set_member(graph: Graph, project_id: str, user_id: str, role: str) -> str:
    if "/" in project_id or not project_id.strip():
        raise ValueError("a project id is not empty and holds no '/' (entry ids start with '<project_id>/')")
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    return str(graph.write(SET_MEMBER, {"project_id": project_id, "user_id": user_id, "role": role})[0]["role"])


def remove_member(graph: Graph, project_id: str, user_id: str) -> bool:
    return bool(graph.write(REMOVE_MEMBER, {"project_id": project_id, "user_id": user_id})[0]["removed"])


def role_of(graph: Graph, project_id: str, user_id: str) -> str | None:
    rows = graph.read(ROLE_OF, {"project_id": project_id, "user_id": user_id})
    return str(rows[0]["role"]) if rows else None


def projects_of(graph: Graph, user_id: str) -> list[dict[str, str]]:
    return [dict(r) for r in graph.read(PROJECTS_OF, {"user_id": user_id})]


def members_of(graph: Graph, project_id: str) -> list[dict[str, str]]:
    return [dict(r) for r in graph.read(MEMBERS_OF, {"project_id": project_id})]


def ensure_owner(graph: Graph, project_id: str, user_id: str) -> None:
    """Make `user_id` owner of a project that has no owner yet (used by file ingest and eval)."""
    if not graph.read(OWNERS_OF, {"project_id": project_id}):
        set_member(graph, project_id, user_id, "owner")


def update_project(graph: Graph, project_id: str, name: str | None = None,
                   hemisphere: str | None = None) -> dict[str, str] | None:
    """Rename a project or set its hemisphere (which decides what "summer" means in its queries)."""
    if hemisphere is not None and hemisphere not in ("north", "south"):
        raise ValueError("hemisphere must be north or south")
    rows = graph.write(UPDATE_PROJECT, {"project_id": project_id, "name": name, "hemisphere": hemisphere})
    return dict(rows[0]) if rows else None


def authors_without_membership(graph: Graph, project_ids: list[str]) -> dict[str, list[str]]:
    """Authors who cannot see their own entries yet, because nobody made them members."""
    return {r["project_id"]: list(r["users"]) for r in graph.read(AUTHORS_WITHOUT_MEMBERSHIP,
                                                                     {"project_ids": project_ids})}
