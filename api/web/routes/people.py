"""People and places (`/p/{project_id}/people`, `/p/{project_id}/entity?name=…`): the entities the viewer knows, the
most important first; and one entity's page: its aliases, who and what appears with it (measure selectable), its
timeline (the API's picture, and when it first and last appears), and similar entities. Every part is an API route
function called as the viewer, so a name known only from hidden entries answers 404 like a name nobody wrote."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from api.deps import ServicesDep, require_member
from api.routes.entities import get_cooccurrence, get_entities, get_importance, get_timeline
from api.routes.similar import get_similar
from api.routes.timelines import get_timeline_svg
from api.web.render import page
from api.web.session import SessionDep

router = APIRouter(include_in_schema=False)
Name = Annotated[str, Query(max_length=200)]
Measure = Literal["jaccard", "pmi", "count"]
MOST = 30


@router.get("/p/{project_id}/people", response_class=HTMLResponse)
def people(request: Request, project_id: str, session: SessionDep, svc: ServicesDep) -> Response:
    who = session.viewer
    require_member(svc, project_id, who)
    important = get_importance(project_id, who, svc, limit=MOST)
    known = get_entities(project_id, who, svc)
    return page(request, "people.html", {"project_id": project_id, "important": important, "known": known}, session)


@router.get("/p/{project_id}/entity", response_class=HTMLResponse)
def entity_page(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    name: Name,
    measure: Annotated[Measure, Query()] = "jaccard",
) -> Response:
    who = session.viewer
    require_member(svc, project_id, who)
    companions = get_cooccurrence(project_id, who, svc, entity=name, limit=15, measure=measure)
    timeline = get_timeline(project_id, who, svc, entity=name)
    aliases = next((e.aliases for e in get_entities(project_id, who, svc) if e.id == companions.entity.id), [])
    try:
        similar = get_similar(project_id, who, svc, entity=name, limit=8).similar
    except HTTPException:  # no vector for it yet (the background worker builds them)
        similar = []
    years = [y for y in timeline.years if y.entries]
    values = {
        "project_id": project_id,
        "entity": companions.entity,
        "aliases": aliases,
        "measure": measure,
        "companions": companions.with_,
        "years": years,
        "similar": similar,
    }
    return page(request, "entity.html", values, session)


@router.get("/p/{project_id}/entity.svg")
def entity_timeline_svg(project_id: str, session: SessionDep, svc: ServicesDep, name: Name) -> Response:
    """The API's timeline picture, for the entity page's `<img>` (an image cannot send a bearer)."""
    who = session.viewer
    require_member(svc, project_id, who)
    picture = get_timeline_svg(project_id, who, svc, entity=name)
    picture.headers["Cache-Control"] = "no-store"
    return picture
