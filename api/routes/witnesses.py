"""Witnesses: an owner invites an outside person to one chapter (`/v1/projects/{project_id}/witnesses`); the link
token then opens that chapter's circle and public entries, and lets the witness add an account (`/v1/w/{token}`).

The link's check (`api.actions.witnesses.link_grant`) is called inside each `/v1/w/{token}` route, not declared
as a dependency, so that an invalid body is still a 422 before an expired link is a 401 (FastAPI solves dependencies
before it validates the body).
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Response

from api.actions import search as searching
from api.actions import witnesses
from api.actions import write as writing
from api.actions.budgets import Who
from api.deps import (
    ProjectOwner,
    ServicesDep,
    ViewerDep,
    WitnessRead,
    WitnessSearchBudgets,
    WitnessWriteBudgets,
)
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
from api.responses import errors
from api.routes.entries import EntryIdPath
from graph.witnesses import list_grants, revoke_grant

router = APIRouter(tags=["witnesses"])


@router.post("/v1/projects/{project_id}/witnesses", response_model=WitnessOut, status_code=201, responses=errors(403))
def invite_witness(project_id: str, body: WitnessIn, who: ViewerDep, svc: ServicesDep) -> WitnessOut:
    return witnesses.invite(svc, who, project_id, body)


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
    grant = witnesses.link_grant(svc, token)
    return searching.search(svc, budgets, Who.witness(grant), searching.witness_asked(grant, body))


@router.get(
    "/v1/w/{token}/entries/{entry_id:path}", response_model=EntryOut, dependencies=[WitnessRead], responses=errors(404)
)
def witness_entry(token: str, entry_id: EntryIdPath, svc: ServicesDep) -> EntryOut:
    return witnesses.entry(svc, token, entry_id)


@router.post(
    "/v1/w/{token}/entries",
    response_model=WriteOut,
    status_code=201,
    responses=rate_limited("the witness link's write budget is spent"),
)
def witness_write(token: str, body: WitnessEntryIn, svc: ServicesDep, budgets: WitnessWriteBudgets) -> WriteOut:
    return writing.witness_account(svc, budgets, witnesses.link_grant(svc, token), body)
