"""Witnesses: an owner invites an outside person to one declared chapter (`POST /v1/projects/{p}/witnesses`, the web's
chapters page), and the link then opens that chapter's circle and public entries. The link is the credential: every
door checks it on every request (`link_grant`: the `/v1/w/{token}` routes, the web's witness page, the MCP server),
and a link that opens nothing is `NotAuthenticated`, which each door counts as a failed authentication of the
address."""

from __future__ import annotations

from datetime import timedelta

from api import auth
from api.actions.entries import entry_out
from api.actions.refusals import Invalid, NotAuthenticated, NotFound
from api.actions.roles import must_own
from api.actions.write import field_error
from api.errors import NOT_FOUND
from api.models.core import EntryOut, WitnessIn, WitnessOut
from api.services import Services
from graph.entries import get_visible_entry
from graph.ids import period_id
from graph.periods import is_automatic
from graph.visibility import Viewer
from graph.witnesses import Grant, ProjectGrant, account_names, active_grant, create_grant, project_grant
from ingest.pipeline import WITNESS_AUTHOR_PREFIX

AUTOMATIC_NOT_SHARED = (
    "an automatic chapter (a session, month or year) cannot be shared with a witness: "
    "declare a chapter on the entries (their `period`) and invite the witness to it"
)


def invite(svc: Services, viewer: Viewer, project_id: str, body: WitnessIn) -> WitnessOut:
    """A link to one declared chapter of the project, for its owner; automatic chapters are never granted."""
    must_own(svc, project_id, viewer)
    chapter = body.period_id or period_id(project_id, body.period or "")
    if is_automatic(chapter):
        raise Invalid([field_error("period_id" if body.period_id else "period", AUTOMATIC_NOT_SHARED)])
    grant_id = create_grant(
        svc.graph,
        project_id,
        chapter,
        viewer.user_id or "",
        timedelta(days=body.ttl_days),
        body.label,
        typed_name=body.period,
    )
    if grant_id is None:
        raise NotFound("no such chapter in this project")
    token = auth.issue_witness(svc.settings, grant_id, body.ttl_days * 86400)
    grant = active_grant(svc.graph, grant_id)
    return WitnessOut(
        grant_id=grant_id, token=token, link=f"/v1/w/{token}/search", expires_at=grant.expires_at if grant else ""
    )


def link_grant(svc: Services, token: str) -> Grant:
    """The grant a link token names, while it is neither expired nor revoked."""
    try:
        grant_id = auth.verify_witness(svc.settings, token)
    except auth.TokenError as exc:
        raise NotAuthenticated(f"invalid witness link: {exc}") from exc
    grant = active_grant(svc.graph, grant_id)
    if grant is None:
        raise NotAuthenticated("this witness link has expired or was revoked")
    return grant


def entry(svc: Services, token: str, entry_id: str) -> EntryOut:
    """One entry of the link's chapter as it was written; any other is refused exactly like a missing one. The link
    is checked again here, so an entry is never read under a link revoked since the door's check."""
    grant = link_grant(svc, token)
    row = get_visible_entry(svc.graph, Viewer(witness_period_id=grant.period_id), entry_id)
    if row is None:
        raise NotFound(NOT_FOUND)
    return entry_out(row)


def made_link(svc: Services, viewer: Viewer, project_id: str, grant_id: str) -> ProjectGrant:
    """A witness link of the project as its owner reads it back: chapter, witness's name, expiry; never its token,
    which is shown once, when it is made."""
    must_own(svc, project_id, viewer)
    grant = project_grant(svc.graph, project_id, grant_id)
    if grant is None:
        raise NotFound("no such witness link in this project")
    return grant


def witness_names(svc: Services, viewer: Viewer, entry_ids: list[str]) -> dict[str, str]:
    """The names witnesses' links were given, for the accounts among `entry_ids` the viewer may see: what a page
    shows as their author instead of the link's id."""
    return account_names(svc.graph, viewer, entry_ids, WITNESS_AUTHOR_PREFIX) if entry_ids else {}
