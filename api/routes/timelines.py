"""`/v1/projects/{p}/analytics/changes` (who appeared or disappeared in a period) and `/analytics/timeline.svg` (an
entity's timeline as a picture), computed over the entries the caller may see (graph/timelines.py)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response

from api.actions import entities
from api.actions.pictures import SVG
from api.deps import ReadBudget, ServicesDep, ViewerDep, require_member
from api.models.analytics import ChangesOut
from api.ratelimit import READ_LIMITED
from api.responses import errors
from api.routes.analytics_params import Clock, DateFrom, DateTo, query_range
from graph.timelines import DEFAULT_FACTOR, changes

router = APIRouter(prefix="/v1/projects/{project_id}", tags=["entities"], responses=errors(403, 404))


@router.get("/analytics/changes", response_model=ChangesOut, dependencies=[ReadBudget], responses=READ_LIMITED)
def get_changes(
    project_id: str,
    who: ViewerDep,
    svc: ServicesDep,
    date_from: DateFrom = None,
    date_to: DateTo = None,
    kind: Annotated[Literal["person", "place", "thing"] | None, Query()] = None,
    factor: Annotated[
        float,
        Query(
            ge=1,
            le=100,
            description=("How many mean gaps of silence make a disappearance (a gap counts as at least 30 days)."),
        ),
    ] = DEFAULT_FACTOR,
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
) -> ChangesOut:
    """Who came into the story in the period (first visible mention in it) and who left it (last visible mention
    in it, then silence until the story's end of at least `factor` times their mean gap), most entries first."""
    require_member(svc, project_id, who)
    start, end = query_range(date_from, date_to)
    found = changes(svc.graph, who, project_id, start, end, kind, factor, limit)
    return ChangesOut.model_validate(
        {
            "from": start.isoformat() if start else None,
            "to": end.isoformat() if end else None,
            "story_end": found.story_end.isoformat() if found.story_end else None,
            "factor": factor,
            "appeared": found.appeared,
            "disappeared": found.disappeared,
        }
    )


PICTURE: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {SVG: {"schema": {"type": "string"}}},
        "description": "An SVG bar chart of the entity's visible entries per year or month (empty years or months "
        "drawn as gaps), with a text alternative that gives the numbers; the same numbers always give the same bytes.",
    },
}


@router.get(
    "/analytics/timeline.svg",
    response_class=Response,
    response_model=None,
    dependencies=[ReadBudget],
    responses={**PICTURE, **READ_LIMITED},
)
def get_timeline_svg(
    project_id: str,
    who: ViewerDep,
    svc: ServicesDep,
    entity: Annotated[str, Query(max_length=200)],
    resolution: Annotated[Literal["year", "month"], Query()] = "year",
    time: Clock = "event",
) -> Response:
    """`GET /analytics/timeline` as a picture, for people who would rather look than read: an SVG drawn by the
    service itself (no plotting library needed), its numbers also in its `<title>` and `<desc>`."""
    picture = entities.timeline_picture(svc, who, project_id, entity, resolution, time)
    return Response(picture, media_type=SVG)
