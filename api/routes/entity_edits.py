"""`/v1/projects/{project_id}/entities/{kind}/{name}` (rename, delete) and `/relink/{job_id}` (the progress of the
re-linking those changes start). Owners and coauthors only; an edit acts on the sources the caller may see
(graph/entity_edits.py, docs/SECURITY.md), and an entity the caller may not see answers 404 like a missing one."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, HTTPException

from api.deps import ServicesDep, ViewerDep, WriteBudget, require_writer
from api.models import EntityOut, EntityPatch, RelinkJobOut
from api.ratelimit import rate_limited
from api.responses import ErrorOut, errors
from api.routes.entities import job_out
from api.services import Services
from graph.entities import Entity
from graph.entity_edits import NameTaken, NotDeclared, delete_entity, find_for_edit, rename_entity
from graph.visibility import Viewer, visibility_params

router = APIRouter(prefix="/v1/projects/{project_id}", tags=["entities"], responses=errors(403, 404))

EntityKind = Literal["person", "place", "thing"]
NO_ENTITY = "no such person, place or thing"
_WRITE = {
    **rate_limited("the caller's write budget is spent"),
    404: {"model": ErrorOut, "description": "no entity of this kind answers to this name for the caller"},
}


@router.patch(
    "/entities/{kind}/{name:path}",
    response_model=EntityOut,
    dependencies=[WriteBudget],
    responses={
        **_WRITE,
        409: {
            "model": ErrorOut,
            "description": "another entity of this kind already "
            "answers to the new name, or aliases "
            "were given for an undeclared entity",
        },
    },
)
def patch_entity(
    project_id: str, kind: EntityKind, name: str, body: EntityPatch, who: ViewerDep, svc: ServicesDep
) -> EntityOut:
    """Rename the entity that answers to `name` (its name, an alias or its id) and/or replace its aliases, in every
    declaration and entry the caller may see; existing entries are re-linked in the background (`relink`)."""
    require_writer(svc, project_id, who)
    entity = _editable(svc, project_id, who, kind, name)
    try:
        e = rename_entity(svc.graph, project_id, entity, visibility_params(who), body.name, body.aliases)
    except NameTaken as exc:
        raise HTTPException(409, f"another {kind} is already called {exc}; delete one of them first") from exc
    except NotDeclared as exc:
        raise HTTPException(
            409, "this entity is known only from entries: declare it (POST …/entities) to give it aliases"
        ) from exc
    return EntityOut(
        id=e.id,
        kind=kind,
        name=e.name,
        aliases=list(e.aliases),
        relink=job_out(svc.relink_jobs.submit(project_id, who.user_id or "")),
    )


@router.delete(
    "/entities/{kind}/{name:path}",
    response_model=RelinkJobOut,
    status_code=202,
    dependencies=[WriteBudget],
    responses=_WRITE,
)
def remove_entity(project_id: str, kind: EntityKind, name: str, who: ViewerDep, svc: ServicesDep) -> RelinkJobOut:
    """Delete the entity that answers to `name`: its declarations and its mentions in the entries the caller may see
    (which stop listing it). The answer is the re-linking job that then unlinks its names from texts."""
    require_writer(svc, project_id, who)
    delete_entity(svc.graph, _editable(svc, project_id, who, kind, name), visibility_params(who))
    return job_out(svc.relink_jobs.submit(project_id, who.user_id or ""))


@router.get(
    "/relink/{job_id}",
    response_model=RelinkJobOut,
    responses={404: {"model": ErrorOut, "description": "no such job in this project"}},
)
def get_relink_job(project_id: str, job_id: str, who: ViewerDep, svc: ServicesDep) -> RelinkJobOut:
    """Progress of the caller's own re-linking job, counted over the entries the caller may see (kept in the
    server's memory: a restart forgets it; re-linking again is safe)."""
    require_writer(svc, project_id, who)
    job = svc.relink_jobs.get(job_id)
    if job is None or job.project_id != project_id or job.viewer_id != who.user_id:
        raise HTTPException(404, "no such re-linking job")
    return job_out(job)


def _editable(svc: Services, project_id: str, who: Viewer, kind: str, name: str) -> Entity:
    entity = find_for_edit(svc.graph, project_id, visibility_params(who), kind, name)
    if entity is None:
        raise HTTPException(404, NO_ENTITY)
    return entity
