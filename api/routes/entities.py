"""`/v1/projects/{project_id}/entities` and `/analytics`: persons, places and things, and the questions about them
(who appears with whom, when, who matters most), every count taken over the entries the viewer may see."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from api.actions import entities
from api.deps import ReadBudget, ServicesDep, ViewerDep, WriteBudget
from api.models.analytics import MEASURE_DOC
from api.models.core import CooccurrenceOut, EntityIn, EntityOut, ImportanceOut, TimelineOut
from api.ratelimit import READ_LIMITED, rate_limited
from api.responses import errors
from api.routes.analytics_params import Clock, DateFrom, DateTo

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
    return entities.cooccurrence(svc, who, project_id, entity, limit, kind, measure, date_from, date_to, time)


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
    return entities.entity_timeline(svc, who, project_id, entity, resolution, time)


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
    return entities.declare(svc, who, project_id, body)
