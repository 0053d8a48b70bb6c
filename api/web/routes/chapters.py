"""A project's chapter page (`/p/{project_id}/chapters?theme=…`): a theme and a token budget → the chapter context
(the project summary, the periods the theme matched with their events, the cited entries), or the draft, from the
context actions (`api.actions.context`) that `POST /v1/context/chapter` and `POST /v1/chapters/draft` run, from the
viewer's search budget; the project's declared chapters, and for its owner a witness link to one of them. Every
view of the page also pays one from the viewer's read budget (`api.actions.read`), as the API's periods route
does."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from api.actions import context as contexts
from api.actions import witnesses
from api.actions.budgets import Who
from api.actions.read import paid_read
from api.deps import BudgetsDep, ServicesDep, require_member
from api.models.core import WitnessIn
from api.models.summaries import MAX_BUDGET, MAX_THEME, ChapterRequest
from api.web.render import page
from api.web.session import SessionDep, check_csrf
from graph.members import role_of
from graph.summaries import visible_periods

router = APIRouter(include_in_schema=False)
DEFAULT_BUDGET = 2000


class InviteForm(BaseModel):
    csrf: str = Field(default="", max_length=200)
    period_id: str = Field(max_length=300)
    ttl_days: int = Field(default=30, ge=1, le=365)


InviteDep = Annotated[InviteForm, Form()]


@router.get("/p/{project_id}/chapters", response_class=HTMLResponse)
def chapters(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    budgets: BudgetsDep,
    theme: Annotated[str, Query(max_length=MAX_THEME)] = "",
    budget: Annotated[int, Query(ge=1, le=MAX_BUDGET)] = DEFAULT_BUDGET,
    draft: bool = False,
) -> Response:
    who = session.viewer
    caller = Who.user(who)
    paid_read(budgets, caller, lambda: require_member(svc, project_id, who))
    context = draft_out = None
    if theme.strip():
        body = ChapterRequest(project_id=project_id, theme=theme, budget_tokens=budget)
        if draft:
            draft_out = contexts.chapter_draft(svc, budgets, caller, body)
            context = draft_out.context
        else:
            context = contexts.chapter(svc, budgets, caller, body)
    values = {
        "project_id": project_id,
        "theme": theme,
        "budget": budget,
        "draft": draft_out,
        "context": context,
        "declared": [p for p in visible_periods(svc.graph, project_id, who) if not p["automatic"]],
        "owner": role_of(svc.graph, project_id, who.user_id or "") == "owner",
    }
    return page(request, "chapters.html", values, session)


@router.post("/p/{project_id}/witnesses", response_class=HTMLResponse)
def invite(request: Request, project_id: str, session: SessionDep, svc: ServicesDep, form: InviteDep) -> Response:
    """A witness link to one declared chapter, by the action `POST /v1/projects/{p}/witnesses` runs (owners only)."""
    check_csrf(request, session, form.csrf)
    asked = WitnessIn(period_id=form.period_id, ttl_days=form.ttl_days)
    made = witnesses.invite(svc, session.viewer, project_id, asked)
    link = str(request.base_url).rstrip("/") + f"/w/{quote(made.token, safe='')}"
    values = {"project_id": project_id, "link": link, "expires_at": made.expires_at}
    return page(request, "invited.html", values, session, status=201)
