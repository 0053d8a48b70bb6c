"""People and places (`/p/{project_id}/people`, `/p/{project_id}/entity?name=…`): the entities the viewer knows, the
most important first; and one entity's page, a page of the family album: its aliases, when it first and last appears
and its entries per year (a picture drawn here, in the page's language), who and what appears with it (how many
entries together, and a picture of them around it), the entries that name it (newest first, a page at a time), and
similar entities. Owners and coauthors also review the names recognition found (`/p/{project_id}/candidates`):
confirm one, reject it, or merge it into a known entity (confirmed, then merged: its name becomes an alias). Every
part is the action its API route runs (`api.actions.entities`), called as the viewer, so a name known only from
hidden entries answers 404 like a name nobody wrote, and every number and name in a picture comes from those reads;
each page (and the timeline picture) is one read (`api.actions.read`) and pays one from the viewer's read budget, as
one call of those routes does; a decision on a candidate is one write (`api.actions.write.paid_write`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from pydantic import BaseModel, Field

from api.actions import called, entities, read
from api.actions.budgets import Who
from api.actions.entities import EntityKind
from api.actions.pictures import SVG, ChartWords, Companion, CompanionWords, companions_svg, timeline_svg
from api.actions.refusals import Refused
from api.actions.write import paid_write
from api.deps import BudgetsDep, ServicesDep, require_member
from api.models.entity_review import MergeIn
from api.responses import invalid_field
from api.services import Services
from api.web.i18n import language, translator
from api.web.render import page
from api.web.session import SessionDep, check_csrf
from graph.visibility import Viewer

router = APIRouter(include_in_schema=False)
Name = Annotated[str, Query(max_length=200)]
Cursor = Annotated[str | None, Query(max_length=2000)]
MOST = 30
COMPANIONS = 15
NAMING = 20
REVIEW = 20


class CandidateForm(BaseModel):
    csrf: str = Field(default="", max_length=200)
    kind: EntityKind
    name: str = Field(min_length=1, max_length=200)
    decision: Literal["confirm", "reject", "merge"]
    into: str = Field(default="", max_length=200)


@router.get("/p/{project_id}/people", response_class=HTMLResponse)
def people(request: Request, project_id: str, session: SessionDep, svc: ServicesDep, budgets: BudgetsDep) -> Response:
    seen = read.people(svc, budgets, Who.user(session.viewer), project_id, most=MOST, review=REVIEW)
    values = {"project_id": project_id, "important": seen.important, "known": seen.known, "candidates": seen.candidates}
    return page(request, "people.html", values, session)


@router.post("/p/{project_id}/candidates", response_class=HTMLResponse)
def review_candidate(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    budgets: BudgetsDep,
    form: Annotated[CandidateForm, Form()],
) -> Response:
    """One decision on a name recognition found, through the API's candidate and merge routes; back to the list."""
    check_csrf(request, session, form.csrf)
    paid_write(budgets, Who.user(session.viewer), lambda: _decide(svc, project_id, session.viewer, form))
    return RedirectResponse(f"/p/{quote(project_id, safe='')}/people#review", status_code=303)


def _decide(svc: Services, project_id: str, who: Viewer, form: CandidateForm) -> None:
    if form.decision == "merge":  # checked before the candidate is confirmed, so a refusal changes nothing
        if not form.into.strip():
            raise invalid_field("body", "into", "choose the person, place or thing to merge this name into")
        known = entities.known(svc, who, project_id)
        if not any(e.kind == form.kind and form.into in (e.name, e.id) for e in known):
            raise invalid_field("body", "into", f"no {form.kind} called {form.into} to merge this name into")
    decision: Literal["confirm", "reject"] = "reject" if form.decision == "reject" else "confirm"
    decided = entities.decide_candidate(svc, who, project_id, form.kind, form.name, decision)
    if form.decision == "merge":
        merge = MergeIn.model_validate({"into": form.into, "from": decided.name, "kind": form.kind})
        entities.merge(svc, who, project_id, merge)


class CalledForm(BaseModel):
    csrf: str = Field(default="", max_length=200)
    entity: str = Field(min_length=1, max_length=400)
    name: str = Field(min_length=1, max_length=200)


@router.post("/p/{project_id}/called", response_class=HTMLResponse)
def reject_called(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    budgets: BudgetsDep,
    form: Annotated[CalledForm, Form()],
) -> Response:
    """A writer says a name messages gave this person is not theirs (the API's reject route); back to their page."""
    check_csrf(request, session, form.csrf)
    who = session.viewer
    done = paid_write(budgets, Who.user(who), lambda: called.reject(svc, who, project_id, form.entity, form.name))
    return RedirectResponse(_entity_href(project_id, done.entity), status_code=303)


@router.get("/p/{project_id}/entity", response_class=HTMLResponse)
def entity_page(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    name: Name,
    budgets: BudgetsDep,
    cursor: Cursor = None,
) -> Response:
    t = translator(language(request))
    values = read.paid_read(
        budgets, Who.user(session.viewer), lambda: _entity(svc, project_id, session.viewer, name, cursor, t)
    )
    return page(request, "entity.html", values, session)


def _entity(
    svc: Services, project_id: str, who: Viewer, name: str, cursor: str | None, t: Callable[[str], str]
) -> dict[str, Any]:
    require_member(svc, project_id, who)
    companions = entities.cooccurrence(svc, who, project_id, name, limit=COMPANIONS, measure="count")
    timeline = entities.entity_timeline(svc, who, project_id, name)
    naming = entities.entries_naming(svc, who, project_id, name, limit=NAMING, cursor=cursor)
    known = next((e for e in entities.known(svc, who, project_id) if e.id == companions.entity.id), None)
    try:
        similar = entities.similar_to(svc, who, project_id, name, limit=8).similar
    except Refused:  # no vector for it yet (the background worker builds them)
        similar = []
    entity = companions.entity
    years = [y for y in timeline.years if y.entries]
    chart = timeline_svg(entity.name, [y.model_dump() for y in years], "year", chart_words(t), "entity-timeline")
    around = [Companion(c.name, c.together, _entity_href(project_id, c.name)) for c in companions.with_]
    with_picture = companions_svg(entity.name, around, companion_words(t)) if around else None
    return {
        "project_id": project_id,
        "entity": entity,
        "aliases": known.aliases if known else [],
        "called": known.called if known else [],
        "companions": companions.with_,
        "years": years,
        "chart": Markup(chart),  # drawn by api.actions.pictures, which escapes every text it puts in
        "with_picture": Markup(with_picture) if with_picture else None,
        "naming": naming,
        "cursor": cursor,
        "similar": similar,
    }


def _entity_href(project_id: str, name: str) -> str:
    return f"/p/{quote(project_id, safe='')}/entity?name={quote(name, safe='')}"


def chart_words(t: Callable[[str], str]) -> ChartWords:
    """The timeline picture's words in the page's language."""
    return ChartWords(title=t("picture_title"), one=t("picture_one"), many=t("picture_many"), empty=t("picture_empty"))


def companion_words(t: Callable[[str], str]) -> CompanionWords:
    return CompanionWords(title=t("with_title"), together_one=t("together_one"), together_many=t("together_many"))


@router.get("/p/{project_id}/entity.svg")
def entity_timeline_svg(
    request: Request, project_id: str, session: SessionDep, svc: ServicesDep, budgets: BudgetsDep, name: Name
) -> Response:
    """The entity's timeline picture as a file of its own, in the page's language (the entity page draws the same
    picture inside itself)."""
    who, words = session.viewer, chart_words(translator(language(request)))

    def look() -> bytes:
        require_member(svc, project_id, who)
        return entities.timeline_picture(svc, who, project_id, name, words=words)

    picture = Response(read.paid_read(budgets, Who.user(who), look), media_type=SVG)
    picture.headers["Cache-Control"] = "no-store"
    return picture
