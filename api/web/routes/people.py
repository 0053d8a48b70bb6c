"""People and places (`/p/{project_id}/people`, `/p/{project_id}/entity?name=…`): the entities the viewer knows, the
most important first; and one entity's page, a page of the family album: its aliases, when it first and last appears
and its entries per year (a picture drawn here, in the page's language), who and what appears with it (how many
entries together, and a picture of them around it), the entries that name it (newest first, a page at a time), and
similar entities. Owners and coauthors also review the names recognition found (`/p/{project_id}/candidates`):
confirm one as the kind recognition guessed or another, reject it, or merge it into a known entity of the kind
chosen (confirmed, then merged: its name becomes an alias); a refusal is said in words beside the name. An owner
also says which person each member is, or takes it back (`/p/{project_id}/who`), so a member's entries count them
among their persons and their name shows as that person's; a writer adds a name with the names it goes by, for an
audience (`/p/{project_id}/names`, the API's declaration). Every
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
from pydantic import BaseModel, Field, ValidationError

from api.actions import called, entities, member_people, read
from api.actions.authors import shown_authors
from api.actions.budgets import Budgets, Who
from api.actions.entities import EntityKind
from api.actions.pictures import SVG, ChartWords, Companion, CompanionWords, companions_svg, timeline_svg
from api.actions.refusals import Refused
from api.actions.write import paid_write
from api.deps import BudgetsDep, ServicesDep, require_member
from api.models.core import ALIASES_MAX, ENTITY_NAME_MAX, EntityIn, Intimacy
from api.services import Services
from api.web import review, who_is_who
from api.web.i18n import language, translator
from api.web.render import page
from api.web.session import SessionDep, WebSession, check_csrf
from graph.visibility import INTIMACY_LEVELS, Viewer

router = APIRouter(include_in_schema=False)
Name = Annotated[str, Query(max_length=400)]  # a name, an alias or an entity id
Cursor = Annotated[str | None, Query(max_length=2000)]
MOST = 30
COMPANIONS = 15
NAMING = 20
REVIEW = 20
NAME_TYPED = 1000  # what a form may carry, past which no sentence is owed; the model's limits are lower
ALIASES_TYPED = (ENTITY_NAME_MAX + 2) * ALIASES_MAX + 1000


class CandidateForm(BaseModel):
    csrf: str = Field(default="", max_length=200)
    kind: str = Field(default="", max_length=20)  # checked by api.web.review, which says a wrong one in words
    name: str = Field(min_length=1, max_length=200)
    decision: Literal["confirm", "reject", "merge"]
    into: str = Field(default="", max_length=200)


@router.get("/p/{project_id}/people", response_class=HTMLResponse)
def people(request: Request, project_id: str, session: SessionDep, svc: ServicesDep, budgets: BudgetsDep) -> Response:
    return _people(request, project_id, session, svc, budgets)


def _people(
    request: Request,
    project_id: str,
    session: WebSession,
    svc: Services,
    budgets: Budgets,
    refused: dict[str, str] | None = None,
    status: int = 200,
    who_refused: dict[str, str] | None = None,
    name_refused: dict[str, str] | None = None,
) -> Response:
    """The page; after a refused decision, with the sentence saying why beside the name (or the member) and what was
    typed kept. An owner also sees who is who: each member and the person they are."""
    seen = read.people(svc, budgets, Who.user(session.viewer), project_id, most=MOST, review=REVIEW)
    owner = seen.role == "owner"
    values = {
        "project_id": project_id,
        "important": seen.important,
        "known": seen.known,
        "candidates": seen.candidates,
        "kinds": review.KINDS,
        "refused": refused,
        "role": seen.role,
        "who_is_who": member_people.member_persons(svc, session.viewer, project_id) if owner else [],
        "who_refused": who_refused,
        "name_refused": name_refused,
        "levels": INTIMACY_LEVELS,
    }
    return page(request, "people.html", values, session, status=status)


@router.post("/p/{project_id}/candidates", response_class=HTMLResponse)
def review_candidate(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    budgets: BudgetsDep,
    form: Annotated[CandidateForm, Form()],
) -> Response:
    """One decision on a name recognition found (`api.web.review`); back to the list, or, refused, the list again
    with the reason in a sentence beside the name (the API's status: 404 a name no longer to review, 409 a merge
    the graph refused, 422 a target unknown or of another kind)."""
    check_csrf(request, session, form.csrf)
    decision = review.Decision(form.name, form.kind, form.decision, form.into)
    try:
        paid_write(budgets, Who.user(session.viewer), lambda: review.decide(svc, project_id, session.viewer, decision))
    except review.ReviewRefused as refusal:
        said = {
            "name": form.name,
            "kind": form.kind,
            "into": form.into,
            "say": refusal.say(translator(language(request))),
        }
        return _people(request, project_id, session, svc, budgets, said, refusal.status)
    return RedirectResponse(f"/p/{quote(project_id, safe='')}/people#review", status_code=303)


class NameForm(BaseModel):
    csrf: str = Field(default="", max_length=200)
    name: str = Field(default="", max_length=NAME_TYPED)  # checked by the API's model, which says why in words
    kind: EntityKind
    aliases: str = Field(default="", max_length=ALIASES_TYPED)
    audience: Intimacy = "circle"


@router.post("/p/{project_id}/names", response_class=HTMLResponse)
def declare_name(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    budgets: BudgetsDep,
    form: Annotated[NameForm, Form()],
) -> Response:
    """A writer declares a person, place or thing with the other names it goes by, for an audience (the API's
    declaration); on to its page, or, refused, the page again with the reason in a sentence and what was typed."""
    check_csrf(request, session, form.csrf)
    aliases = [a.strip() for a in form.aliases.split(",") if a.strip()]
    try:
        body = EntityIn(kind=form.kind, name=form.name.strip(), aliases=aliases, audience=form.audience)
    except ValidationError:
        said = translator(language(request))("name_bad").format(most=ALIASES_MAX, longest=ENTITY_NAME_MAX)
        told = {**form.model_dump(exclude={"csrf"}), "say": said}
        return _people(request, project_id, session, svc, budgets, status=422, name_refused=told)
    who = session.viewer
    done = paid_write(budgets, Who.user(who), lambda: entities.declare(svc, who, project_id, body))
    return RedirectResponse(_entity_href(project_id, done.id), status_code=303)  # its id: a name may be another's


class WhoForm(BaseModel):
    csrf: str = Field(default="", max_length=200)
    user: str = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
    person: str = Field(default="", max_length=400, pattern=r"^[^\x00-\x1f]*$")
    action: Literal["link", "unlink"]


@router.post("/p/{project_id}/who", response_class=HTMLResponse)
def who_is_who_change(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    budgets: BudgetsDep,
    form: Annotated[WhoForm, Form()],
) -> Response:
    """An owner says which person a member is, or takes it back (`api.web.who_is_who`); back to the page, or,
    refused, the page again with the reason in a sentence beside the member (the API's status)."""
    check_csrf(request, session, form.csrf)
    said = who_is_who.Said(form.user, form.person, form.action)
    try:
        paid_write(budgets, Who.user(session.viewer), lambda: who_is_who.change(svc, project_id, session.viewer, said))
    except who_is_who.WhoRefused as refusal:
        told = {"user": form.user, "person": form.person, "say": refusal.say(translator(language(request)))}
        return _people(request, project_id, session, svc, budgets, status=refusal.status, who_refused=told)
    return RedirectResponse(f"/p/{quote(project_id, safe='')}/people#who", status_code=303)


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
        "authors": shown_authors(svc, who, project_id, [e.author for e in naming.entries]),
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
