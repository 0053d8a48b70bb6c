"""Witness grants: an outside person invited to one chapter (a period) of a project, through a link token.

The grant lives in the graph, so revoking it or letting it expire takes effect on the next request whatever the
token says.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from graph.db import Graph
from graph.periods import PERIOD_NAME, slug_of
from graph.visibility import CAN_SEE, Viewer, visibility_params

# A chapter exists for its grant's creator only through an entry of it they may see (graph/periods.py): one that only
# hidden or deleted entries named answers as one never named. The grant keeps the name its witness's accounts are
# filed under, which every member reads on those circle accounts: the spelling of the chapter's circle and public
# entries (what every member and the witness see), else the name the creator typed, else the chapter's slug (never
# the spelling of an intimate or private entry). An automatic chapter is never shared: its entries did not choose it.
CREATE_GRANT = f"""
MATCH (per:Period {{id: $period_id, project_id: $project_id}}) WHERE per.automatic IS NULL
CALL (per) {{
  MATCH (e:Entry)-[:IN_PERIOD]->(p:Period)-[:PART_OF*0..5]->(per)
  WHERE {CAN_SEE}
  WITH e, CASE WHEN p = per THEN {PERIOD_NAME} END AS spelling
  RETURN count(e) AS seen, min(CASE WHEN e.intimacy IN ['circle', 'public'] THEN spelling END) AS shared
}}
WITH per, seen, shared WHERE seen > 0
CREATE (g:WitnessGrant {{id: $id, project_id: $project_id, period_id: $period_id,
                        period_name: coalesce(shared, $typed, {slug_of("per")}), created_by: $created_by, label: $label,
                        created_at: datetime(), expires_at: datetime($expires_at), revoked: false}})
CREATE (g)-[:FOR]->(per)
RETURN g.id AS id
"""
ACTIVE_GRANT = f"""
MATCH (g:WitnessGrant {{id: $id}})-[:FOR]->(per:Period)
WHERE g.revoked = false AND g.expires_at > datetime()
RETURN g.id AS id, g.project_id AS project_id, g.period_id AS period_id,
       coalesce(g.period_name, {slug_of("per")}) AS period_name, toString(g.expires_at) AS expires_at
"""
# A grant as its project's owners read it back (the web's page after an invite): the chapter's name, the witness's
# name the owner gave, the expiry; revoked or expired ones too (the page says until when it was valid).
PROJECT_GRANT = f"""
MATCH (g:WitnessGrant {{id: $id, project_id: $project_id}})-[:FOR]->(per:Period)
RETURN g.id AS id, coalesce(g.period_name, {slug_of("per")}) AS period_name, g.label AS label,
       toString(g.expires_at) AS expires_at, g.revoked OR g.expires_at <= datetime() AS ended
"""
# The name a witness's link was given, for each account among `$entry_ids` that the viewer may see: an account is
# shown under it (a link with no name: none); an entry hidden from the viewer answers nothing.
ACCOUNT_NAMES = f"""
UNWIND $entry_ids AS entry_id
MATCH (e:Entry {{id: entry_id}})
WHERE e.kind = 'witness' AND e.author_id STARTS WITH $witness_prefix AND {CAN_SEE}
MATCH (g:WitnessGrant {{id: substring(e.author_id, size($witness_prefix)), project_id: e.project_id}})
WHERE g.label IS NOT NULL
RETURN e.id AS entry_id, g.label AS label
"""
REVOKE_GRANT = """
MATCH (g:WitnessGrant {id: $id, project_id: $project_id})
SET g.revoked = true, g.revoked_at = datetime()
RETURN count(g) AS revoked
"""
LIST_GRANTS = """
MATCH (g:WitnessGrant {project_id: $project_id})
RETURN g.id AS grant_id, g.period_id AS period_id, g.label AS label, g.revoked AS revoked,
       toString(g.expires_at) AS expires_at, g.created_by AS created_by, toString(g.created_at) AS created_at
ORDER BY g.created_at
"""


@dataclass(frozen=True)
class Grant:
    id: str
    project_id: str
    period_id: str
    period_name: str
    expires_at: str


def create_grant(
    graph: Graph,
    project_id: str,
    period_id: str,
    created_by: str,
    ttl: timedelta,
    label: str | None = None,
    typed_name: str | None = None,
) -> str | None:
    """A new grant id, or None when the chapter is not a period of that project with an entry the creator may see.
    `typed_name` is the chapter's name as the creator gave it, if they gave one."""
    grant_id = secrets.token_urlsafe(12)
    expires = (datetime.now(UTC) + ttl).isoformat()
    rows = graph.write(
        CREATE_GRANT,
        {
            "id": grant_id,
            "project_id": project_id,
            "period_id": period_id,
            "created_by": created_by,
            "label": label,
            "expires_at": expires,
            "typed": typed_name,
            **visibility_params(Viewer(user_id=created_by)),
        },
    )
    return grant_id if rows else None


def active_grant(graph: Graph, grant_id: str) -> Grant | None:
    rows = graph.read(ACTIVE_GRANT, {"id": grant_id})
    if not rows:
        return None
    r = rows[0]
    return Grant(r["id"], r["project_id"], r["period_id"], r["period_name"], r["expires_at"])


def revoke_grant(graph: Graph, project_id: str, grant_id: str) -> bool:
    return bool(graph.write(REVOKE_GRANT, {"id": grant_id, "project_id": project_id})[0]["revoked"])


def list_grants(graph: Graph, project_id: str) -> list[dict[str, object]]:
    return [dict(r) for r in graph.read(LIST_GRANTS, {"project_id": project_id})]


@dataclass(frozen=True)
class ProjectGrant:
    id: str
    period_name: str
    label: str | None
    expires_at: str
    ended: bool


def project_grant(graph: Graph, project_id: str, grant_id: str) -> ProjectGrant | None:
    """A grant of `project_id` by its id (the caller checks that the viewer owns the project)."""
    rows = graph.read(PROJECT_GRANT, {"id": grant_id, "project_id": project_id})
    return ProjectGrant(**dict(rows[0])) if rows else None


def account_names(graph: Graph, viewer: Viewer, entry_ids: list[str], witness_prefix: str) -> dict[str, str]:
    """Entry id -> the name of the link its witness wrote it through, for the visible named accounts among them."""
    params = {"entry_ids": entry_ids, "witness_prefix": witness_prefix, **visibility_params(viewer)}
    return {r["entry_id"]: r["label"] for r in graph.read(ACCOUNT_NAMES, params)}
