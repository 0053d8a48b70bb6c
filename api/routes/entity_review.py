"""`/v1/projects/{project_id}/entities/candidates` (names recognition found, to confirm, as the kind recognition
guessed or, with `{"as": kind}`, another, or reject),
`/entities/{entity}/called/{name}/reject` (a name messages gave a person, rejected), `/entities/merge`,
`/entities/unmerge`. Owners and coauthors only; everything acts on, and counts over, what the caller may see
(graph/candidates.py, graph/called.py, graph/entity_merge.py); a name the caller may not see answers 404 like a
missing one."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, HTTPException, Query

from api.actions import called, entities
from api.actions.entities import EntityKind, job_out
from api.deps import ReadBudget, ServicesDep, ViewerDep, WriteBudget, require_writer
from api.models.entity_review import (
    CalledDecisionOut,
    CandidateDecisionIn,
    CandidateDecisionOut,
    CandidateOut,
    MergeIn,
    MergeOut,
    UnmergeIn,
)
from api.ratelimit import READ_LIMITED, rate_limited
from api.responses import ErrorOut, errors
from graph.entity_merge import unmerge

router = APIRouter(prefix="/v1/projects/{project_id}", tags=["entities"], responses=errors(403, 404))

_WRITE = {
    **rate_limited("the caller's write budget is spent"),
    404: {"model": ErrorOut, "description": "no such candidate or entity for the caller"},
}


@router.get(
    "/entities/candidates", response_model=list[CandidateOut], dependencies=[ReadBudget], responses=READ_LIMITED
)
def get_candidates(
    project_id: str, who: ViewerDep, svc: ServicesDep, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> list[CandidateOut]:
    """Names found in the entries the caller may see that are not known entities, most mentioned first."""
    return entities.candidates(svc, who, project_id, limit)


@router.post(
    "/entities/candidates/{kind}/{name}/{decision}",
    response_model=CandidateDecisionOut,
    dependencies=[WriteBudget],
    responses=_WRITE,
)
def decide_candidate(
    project_id: str,
    kind: EntityKind,
    name: str,
    decision: Literal["confirm", "reject"],
    who: ViewerDep,
    svc: ServicesDep,
    body: Annotated[CandidateDecisionIn | None, Body()] = None,
) -> CandidateDecisionOut:
    """Confirm (declare it, then re-link entries in the background) or reject a candidate."""
    as_kind = body.as_ if body is not None else None
    return entities.decide_candidate(svc, who, project_id, kind, name, decision, as_kind)


@router.post(
    "/entities/{entity}/called/{name}/reject",
    response_model=CalledDecisionOut,
    dependencies=[WriteBudget],
    responses=_WRITE,
)
def reject_called(project_id: str, entity: str, name: str, who: ViewerDep, svc: ServicesDep) -> CalledDecisionOut:
    """Reject a name messages gave a person (`called` on the entity): it stops being theirs for whoever may see the
    rejection, a question naming it no longer finds them."""
    return called.reject(svc, who, project_id, entity, name)


@router.post(
    "/entities/merge",
    response_model=MergeOut,
    dependencies=[WriteBudget],
    responses={**_WRITE, 409: {"model": ErrorOut, "description": "the two are of different kinds, or one entity"}},
)
def post_merge(project_id: str, body: MergeIn, who: ViewerDep, svc: ServicesDep) -> MergeOut:
    """Merge entity `from` into `into`: every name of `from` becomes an alias of `into` and its mentions move there
    when entries are re-linked (in the background); `/entities/unmerge` undoes it."""
    return entities.merge(svc, who, project_id, body)


@router.post("/entities/unmerge", response_model=MergeOut, dependencies=[WriteBudget], responses=_WRITE)
def post_unmerge(project_id: str, body: UnmergeIn, who: ViewerDep, svc: ServicesDep) -> MergeOut:
    """Undo the latest merge of entity `name` the caller may see; entries are re-linked in the background."""
    require_writer(svc, project_id, who)
    done = unmerge(svc.graph, project_id, body.name, body.kind, who)
    if done is None:
        raise HTTPException(404, f"no merge of {body.name} to undo")
    return MergeOut(
        id=done["id"],
        kind=done["kind"],  # type: ignore[arg-type]
        name=done["name"],
        merged=done["from"],
        relink=job_out(svc.relink_jobs.submit(project_id, who.user_id or "")),
    )
