"""`/v1/projects/{project_id}/entities/{kind}/{name}` (rename, delete, forget) and `/relink/{job_id}` (the progress
of the re-linking those changes start). Owners and coauthors only; an edit acts on the sources the caller may see
(graph/entity_edits.py, docs/SECURITY.md), and an entity the caller may not see answers 404 like a missing one."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Response

from api.actions.entities import job_out
from api.deps import ServicesDep, ViewerDep, WriteBudget, require_writer
from api.models.core import EntityOut, EntityPatch, RelinkJobOut
from api.models.forgetting import ForgetOut, RedactedEntryOut
from api.ratelimit import rate_limited
from api.responses import ErrorOut, errors, invalid_field
from api.services import Services
from graph.entities import Entity
from graph.entity_edits import NameTaken, NotDeclared, delete_entity, find_for_edit, rename_entity
from graph.members import role_of
from graph.visibility import Viewer
from ingest.forget import forget as forget_entity
from ingest.forget import plan_forget

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
        e = rename_entity(svc.graph, project_id, entity, who, body.name, body.aliases)
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
    response_model=RelinkJobOut | ForgetOut,
    status_code=202,
    dependencies=[WriteBudget],
    responses={
        **_WRITE,
        200: {"model": ForgetOut, "description": "a dry run: what `forget` would change; nothing was changed"},
        202: {"description": "deleted (or forgotten, with `forget`); re-linking started"},
    },
)
def remove_entity(
    project_id: str,
    kind: EntityKind,
    name: str,
    who: ViewerDep,
    svc: ServicesDep,
    response: Response,
    forget: Annotated[
        bool,
        Query(
            description="Also redact its names from the texts of every entry the caller may edit (the owner: every "
            "entry they see; a coauthor: their own), which are re-chunked and embedded again."
        ),
    ] = False,
    dry_run: Annotated[bool, Query(description="With `forget`: answer what would change, change nothing.")] = False,
) -> RelinkJobOut | ForgetOut:
    """Delete the entity that answers to `name`: its declarations and its mentions in the entries the caller may see
    (which stop listing it). The answer is the re-linking job that then unlinks its names from texts; with `forget`,
    what was redacted, and the job."""
    require_writer(svc, project_id, who)
    if dry_run and not forget:
        raise invalid_field("query", "dry_run", "dry_run applies to forget=true")
    entity = _editable(svc, project_id, who, kind, name)
    if not forget:
        delete_entity(svc.graph, entity, who)
        return job_out(svc.relink_jobs.submit(project_id, who.user_id or ""))
    owner = role_of(svc.graph, project_id, who.user_id or "") == "owner"
    plan = plan_forget(svc.graph, entity, who, owner)
    relink = None
    if dry_run:
        response.status_code = 200
    else:
        try:
            forget_entity(svc.graph, svc.embedder, plan, who)
        except ValueError as exc:
            raise invalid_field("path", "name", f"an entry could not be rewritten: {exc}") from exc
        relink = job_out(svc.relink_jobs.submit(project_id, who.user_id or ""))
    return ForgetOut(
        dry_run=dry_run,
        kind=kind,
        name=entity.name,
        names=plan.names,
        entries=[RedactedEntryOut(entry_id=r.entry_id, occurrences=r.occurrences) for r in plan.entries],
        declarations=plan.declarations,
        not_editable=plan.not_editable,
        relink=relink,
    )


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
    entity = find_for_edit(svc.graph, project_id, who, kind, name)
    if entity is None:
        raise HTTPException(404, NO_ENTITY)
    return entity
