"""The projects a viewer belongs to (`/`), and a project's search page (`/p/{project_id}`): one box, answered by the
API's own `POST /v1/search` route function, as the signed-in viewer, from their search budget."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from api.deps import ServicesDep, require_member
from api.models_search import SearchRequest
from api.ratelimit import spend
from api.routes.projects import my_projects
from api.routes.search import search
from api.web.render import page
from api.web.session import SessionDep

router = APIRouter(include_in_schema=False)
RESULTS = 20


@router.get("/", response_class=HTMLResponse)
def home(request: Request, session: SessionDep, svc: ServicesDep) -> Response:
    """The viewer's projects; with only one, its search page."""
    projects = my_projects(session.viewer, svc)
    if len(projects) == 1:
        return RedirectResponse(f"/p/{quote(projects[0].project_id, safe='')}", status_code=303)
    return page(request, "home.html", {"projects": projects}, session)


@router.get("/p/{project_id}", response_class=HTMLResponse)
def project_search(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    q: Annotated[str, Query(max_length=10_000)] = "",
) -> Response:
    """The search box and, for a question, the door's answer: results, the understood constraints and an entity
    answer."""
    who = session.viewer
    require_member(svc, project_id, who)
    answer = None
    if q.strip():
        spend(request, "search", ("user", who.user_id))
        body = SearchRequest(q=q, project_id=project_id, k=RESULTS, explain=True)
        answer = search(body, who, svc)
    understood = _understood(answer.query_understanding if answer else None)
    context = {"project_id": project_id, "q": q, "answer": answer, "understood": understood}
    return page(request, "search.html", context, session)


def _understood(understanding: dict[str, object] | None) -> list[str]:
    """The constraints the door read from the question, as short labels ("2008-06-21 – 2008-09-22", "Pep")."""
    if not understanding:
        return []
    labels: list[str] = []
    temporal = understanding.get("temporal")
    if isinstance(temporal, dict) and temporal.get("start"):
        start, end, said = temporal.get("start"), temporal.get("end"), temporal.get("text")
        span = f"{start} – {end}" if end and end != start else str(start)
        labels.append(f"{said} ({span})" if said else span)
    for key in ("persons", "places"):
        found = understanding.get(key)
        if isinstance(found, list):
            labels += [str(x.get("name") if isinstance(x, dict) else x) for x in found]
    return labels
