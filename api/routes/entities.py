"""`/v1/projects/{project_id}/entities` and `/analytics`: persons, places and things, and the questions about them
(who appears with whom, when, who matters most), every count taken over the entries the viewer may see."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query

from api.actions import entities
from api.deps import ReadBudget, ServicesDep, ViewerDep, WriteBudget, require_member, require_writer
from api.models.core import CooccurrenceOut, EntityIn, EntityOut, EntityRef, ImportanceOut, RelinkJobOut, TimelineOut
from api.ratelimit import READ_LIMITED, rate_limited
from api.responses import errors
from api.routes.analytics_params import MEASURE_DOC, Clock, DateFrom, DateTo, query_range
from api.services import Services
from graph.analytics import co_occurrence, timeline
from graph.entities import Entity, find_visible_entity, upsert_entity
from graph.timelines import timeline_months
from graph.visibility import Viewer
from ingest.relink import RelinkJob

router = APIRouter(prefix="/v1/projects/{project_id}", tags=["entities"], responses=errors(403, 404))


@router.get("/entities", response_model=list[EntityOut])
def get_entities(project_id: str, who: ViewerDep, svc: ServicesDep) -> list[EntityOut]:
    """Persons, places and things with their aliases, as the caller knows them: named by entries they may see or by
    declarations whose audience includes them."""
    return entities.known(svc, who, project_id)


@router.get(
    "/analytics/cooccurrence", response_model=CooccurrenceOut, dependencies=[ReadBudget], responses=READ_LIMITED
)
def get_cooccurrence(
    project_id: str,
    who: ViewerDep,
    svc: ServicesDep,
    entity: Annotated[str, Query(max_length=200)],
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
    kind: Annotated[Literal["person", "place", "thing"] | None, Query()] = None,
    measure: Annotated[Literal["jaccard", "pmi", "count"], Query(description=MEASURE_DOC)] = "jaccard",
    date_from: DateFrom = None,
    date_to: DateTo = None,
    time: Clock = "event",
) -> CooccurrenceOut:
    """Who or what appears with an entity ("who appears with Pep?"), counted over visible entries only; `kind`
    keeps companions of one kind, `from`/`to` entries where both are named in the range (by `time`)."""
    require_member(svc, project_id, who)
    start, end = query_range(date_from, date_to)
    e = _visible_entity(svc, project_id, who, entity)
    return CooccurrenceOut.model_validate(
        {
            "entity": _ref(e),
            "measure": measure,
            "with": co_occurrence(svc.graph, who, project_id, e.id, limit, kind, measure, start, end, time),
        }
    )


@router.get("/analytics/timeline", response_model=TimelineOut, dependencies=[ReadBudget], responses=READ_LIMITED)
def get_timeline(
    project_id: str,
    who: ViewerDep,
    svc: ServicesDep,
    entity: Annotated[str, Query(max_length=200)],
    resolution: Annotated[Literal["year", "month"], Query()] = "year",
    time: Clock = "event",
) -> TimelineOut:
    """Visible entries per year (and per month with `resolution=month`) mentioning an entity ("when did Marta
    disappear from my life?"), placed by when what they tell of it happened (`time=event`) or when they were
    written."""
    e = _visible_entity(svc, project_id, who, entity)
    out: dict[str, Any] = {"entity": _ref(e), "years": timeline(svc.graph, who, project_id, e.id, time)}
    if resolution == "month":
        out["months"], out["vaguer"] = timeline_months(svc.graph, who, project_id, e.id, time)
    return TimelineOut.model_validate(out)


@router.get(
    "/analytics/importance", response_model=list[ImportanceOut], dependencies=[ReadBudget], responses=READ_LIMITED
)
def get_importance(
    project_id: str,
    who: ViewerDep,
    svc: ServicesDep,
    kind: Annotated[Literal["person", "place", "thing"] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
) -> list[ImportanceOut]:
    """The project's most important entities: visible entries × (1 + chapters + years) they span."""
    return entities.most_important(svc, who, project_id, kind, limit)


@router.post(
    "/entities",
    response_model=EntityOut,
    dependencies=[WriteBudget],
    responses=rate_limited("the caller's write budget is spent"),
)
def add_entity(project_id: str, body: EntityIn, who: ViewerDep, svc: ServicesDep) -> EntityOut:
    """Declare a name and its aliases for an audience (`circle` unless said). The answer is the caller's own
    declaration, never what another source holds about an entity of the same name, and the job re-linking the
    project's existing entries to it (`relink`)."""
    require_writer(svc, project_id, who)
    e = upsert_entity(
        svc.graph, project_id, body.kind, body.name, body.aliases, audience=body.audience, author_id=who.user_id
    )
    return EntityOut(
        id=e.id,
        kind=body.kind,
        name=e.name,
        aliases=list(e.aliases),
        relink=job_out(svc.relink_jobs.submit(project_id, who.user_id or "")),
    )


def _visible_entity(svc: Services, project_id: str, who: Viewer, name: str) -> Entity:
    """An entity by id, name or alias among those the viewer may know of; otherwise 404 (hidden == missing)."""
    require_member(svc, project_id, who)
    entity = find_visible_entity(svc.graph, project_id, who, name)
    if entity is None:
        raise HTTPException(404, "no such person, place or thing")
    return entity


def job_out(job: RelinkJob) -> RelinkJobOut:
    """The job as its requester sees it (its numbers count only entries they may see)."""
    return RelinkJobOut.model_validate({k: v for k, v in asdict(job).items() if k != "viewer_id"})


def _ref(e: Entity) -> EntityRef:
    return EntityRef.model_validate({"id": e.id, "name": e.name, "kind": e.kind})
