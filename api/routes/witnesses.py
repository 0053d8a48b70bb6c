"""Witnesses: an owner invites an outside person to one chapter (`/v1/projects/{project_id}/witnesses`); the link
token then opens that chapter's circle and public entries, and lets the witness add an account (`/v1/w/{token}`).

The link's check is called inside each `/v1/w/{token}` route, not declared as a dependency, so that an invalid body
is still a 422 before an expired link is a 401 (FastAPI solves dependencies before it validates the body).
"""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter, HTTPException, Response

from api import auth
from api.actions import search as searching
from api.actions import write as writing
from api.actions.budgets import Who
from api.actions.entries import entry_out
from api.deps import (
    ProjectOwner,
    ServicesDep,
    ViewerDep,
    WitnessRead,
    WitnessSearchBudgets,
    WitnessWriteBudgets,
    require_owner,
)
from api.errors import NOT_FOUND
from api.models.core import (
    EntryOut,
    WitnessEntryIn,
    WitnessGrantOut,
    WitnessIn,
    WitnessOut,
    WitnessSearchRequest,
    WriteOut,
)
from api.models.search import SearchResponseOut
from api.ratelimit import rate_limited
from api.responses import errors, invalid_field
from api.routes.entries import EntryIdPath
from api.services import Services
from graph.entries import get_visible_entry
from graph.ids import period_id
from graph.periods import is_automatic
from graph.visibility import Viewer
from graph.witnesses import Grant, active_grant, create_grant, list_grants, revoke_grant

router = APIRouter(tags=["witnesses"])
AUTOMATIC_NOT_SHARED = (
    "an automatic chapter (a session, month or year) cannot be shared with a witness: "
    "declare a chapter on the entries (their `period`) and invite the witness to it"
)


@router.post("/v1/projects/{project_id}/witnesses", response_model=WitnessOut, status_code=201, responses=errors(403))
def invite_witness(project_id: str, body: WitnessIn, who: ViewerDep, svc: ServicesDep) -> WitnessOut:
    require_owner(svc, project_id, who)
    chapter = body.period_id or period_id(project_id, body.period or "")
    if is_automatic(chapter):
        raise invalid_field("body", "period_id" if body.period_id else "period", AUTOMATIC_NOT_SHARED)
    grant_id = create_grant(
        svc.graph,
        project_id,
        chapter,
        who.user_id or "",
        timedelta(days=body.ttl_days),
        body.label,
        typed_name=body.period,
    )
    if grant_id is None:
        raise HTTPException(404, "no such chapter in this project")
    token = auth.issue_witness(svc.settings, grant_id, body.ttl_days * 86400)
    grant = active_grant(svc.graph, grant_id)
    return WitnessOut(
        grant_id=grant_id, token=token, link=f"/v1/w/{token}/search", expires_at=grant.expires_at if grant else ""
    )


@router.get("/v1/projects/{project_id}/witnesses", response_model=list[WitnessGrantOut], responses=errors(403))
def get_witnesses(project_id: str, who: ProjectOwner, svc: ServicesDep) -> list[WitnessGrantOut]:
    return [WitnessGrantOut.model_validate(g) for g in list_grants(svc.graph, project_id)]


@router.delete(
    "/v1/projects/{project_id}/witnesses/{grant_id}", status_code=204, response_model=None, responses=errors(403, 404)
)
def revoke_witness(project_id: str, grant_id: str, who: ProjectOwner, svc: ServicesDep) -> Response:
    if not revoke_grant(svc.graph, project_id, grant_id):
        raise HTTPException(404, "no such witness grant")
    return Response(status_code=204)


@router.post(
    "/v1/w/{token}/search",
    response_model=SearchResponseOut,
    responses=rate_limited("the witness link's search budget is spent"),
)
def witness_search(
    token: str, body: WitnessSearchRequest, svc: ServicesDep, budgets: WitnessSearchBudgets
) -> SearchResponseOut:
    """Similarity is computed exactly over the chapter's circle and public entries, never the project index."""
    grant = witness_grant(svc, token)
    return searching.search(svc, budgets, Who.witness(grant), searching.witness_asked(grant, body))


@router.get(
    "/v1/w/{token}/entries/{entry_id:path}", response_model=EntryOut, dependencies=[WitnessRead], responses=errors(404)
)
def witness_entry(token: str, entry_id: EntryIdPath, svc: ServicesDep) -> EntryOut:
    grant = witness_grant(svc, token)
    row = get_visible_entry(svc.graph, Viewer(witness_period_id=grant.period_id), entry_id)
    if row is None:
        raise HTTPException(404, NOT_FOUND)
    return entry_out(row)


@router.post(
    "/v1/w/{token}/entries",
    response_model=WriteOut,
    status_code=201,
    responses=rate_limited("the witness link's write budget is spent"),
)
def witness_write(token: str, body: WitnessEntryIn, svc: ServicesDep, budgets: WitnessWriteBudgets) -> WriteOut:
    return writing.witness_account(svc, budgets, witness_grant(svc, token), body)


def witness_grant(svc: Services, token: str) -> Grant:
    """The grant a link token names, while it is neither expired nor revoked; otherwise 401."""
    try:
        grant_id = auth.verify_witness(svc.settings, token)
    except auth.TokenError as exc:
        raise HTTPException(401, f"invalid witness link: {exc}") from exc
    grant = active_grant(svc.graph, grant_id)
    if grant is None:
        raise HTTPException(401, "this witness link has expired or was revoked")
    return grant
