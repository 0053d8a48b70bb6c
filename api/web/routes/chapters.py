"""A project's chapter page (`/p/{project_id}/chapters?theme=…`): a theme and a token budget → the chapter context
(the project summary, the periods the theme matched with their events, the cited entries), or the draft, from the
API's own `POST /v1/context/chapter` and `POST /v1/chapters/draft` route functions, from the viewer's search
budget."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from api.deps import ServicesDep, require_member
from api.models_summaries import MAX_BUDGET, MAX_THEME, ChapterRequest
from api.ratelimit import spend
from api.routes.summaries import chapter, chapter_draft
from api.web.render import page
from api.web.session import SessionDep

router = APIRouter(include_in_schema=False)
DEFAULT_BUDGET = 2000


@router.get("/p/{project_id}/chapters", response_class=HTMLResponse)
def chapters(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    theme: Annotated[str, Query(max_length=MAX_THEME)] = "",
    budget: Annotated[int, Query(ge=1, le=MAX_BUDGET)] = DEFAULT_BUDGET,
    draft: bool = False,
) -> Response:
    who = session.viewer
    require_member(svc, project_id, who)
    context = draft_out = None
    if theme.strip():
        spend(request, "search", ("user", who.user_id))
        body = ChapterRequest(project_id=project_id, theme=theme, budget_tokens=budget)
        if draft:
            draft_out = chapter_draft(body, who, svc)
            context = draft_out.context
        else:
            context = chapter(body, who, svc)
    values = {"project_id": project_id, "theme": theme, "budget": budget, "draft": draft_out, "context": context}
    return page(request, "chapters.html", values, session)
