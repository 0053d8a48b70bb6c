"""`/v1/projects/{project_id}/entities/candidates` (names recognition found, to confirm or reject) and
`/entities/merge`, `/entities/unmerge`. Owners and coauthors only; everything acts on, and counts over, what the caller
may see (graph/candidates.py, graph/entity_merge.py); a name the caller may not see answers 404 like a missing one."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query

from api.actions import entities
from api.deps import ReadBudget, ServicesDep, ViewerDep, WriteBudget, require_writer
from api.models.entity_review import CandidateDecisionOut, CandidateOut, MergeIn, MergeOut, UnmergeIn
from api.ratelimit import READ_LIMITED, rate_limited
from api.responses import ErrorOut, errors
from api.routes.entities import job_out
from api.services import Services
from graph.candidates import candidate_sources, confirm_candidate, reject_candidate
from graph.entities import Entity
from graph.entity_merge import MergeRefused, find_entity, merge_entities, unmerge
from graph.visibility import Viewer

router = APIRouter(prefix="/v1/projects/{project_id}", tags=["entities"], responses=errors(403, 404))

EntityKind = Literal["person", "place", "thing"]
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
) -> CandidateDecisionOut:
    """Confirm (declare it, then re-link entries in the background) or reject a candidate."""
    require_writer(svc, project_id, who)
    found = candidate_sources(svc.graph, project_id, who, name, kind)
    if found is None:
        raise HTTPException(404, f"no candidate {kind} called {name}")
    source, user = found, who.user_id or ""
    if decision == "reject":
        reject_candidate(svc.graph, project_id, source, user)
        return CandidateDecisionOut(name=source.name, kind=kind, status="rejected")
    entity = confirm_candidate(svc.graph, project_id, source, user)
    return CandidateDecisionOut(
        name=source.name,
        kind=kind,
        status="confirmed",
        id=entity.id,
        relink=job_out(svc.relink_jobs.submit(project_id, user)),
    )


@router.post(
    "/entities/merge",
    response_model=MergeOut,
    dependencies=[WriteBudget],
    responses={**_WRITE, 409: {"model": ErrorOut, "description": "the two are of different kinds, or one entity"}},
)
def post_merge(project_id: str, body: MergeIn, who: ViewerDep, svc: ServicesDep) -> MergeOut:
    """Merge entity `from` into `into`: every name of `from` becomes an alias of `into` and its mentions move there
    when entries are re-linked (in the background); `/entities/unmerge` undoes it."""
    require_writer(svc, project_id, who)
    into = _find(svc, project_id, who, body.kind, body.into)
    merged = _find(svc, project_id, who, body.kind or into.kind, body.from_)
    try:
        result = merge_entities(svc.graph, project_id, into, merged, who, who.user_id or "")
    except MergeRefused as exc:
        raise HTTPException(409, str(exc)) from exc
    return MergeOut(
        id=into.id,
        kind=into.kind,  # type: ignore[arg-type]
        name=into.name,
        merged=merged.name,
        aliases_added=result.aliases,
        relink=job_out(svc.relink_jobs.submit(project_id, who.user_id or "")),
    )


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


def _find(svc: Services, project_id: str, who: Viewer, kind: str | None, name: str) -> Entity:
    entity = find_entity(svc.graph, project_id, who, name, kind)
    if entity is None:
        raise HTTPException(404, f"no such person, place or thing: {name}")
    return entity
