"""Writing from the web: a new entry (`/p/{project_id}/write`), a change to one (`/edit/{entry_id}`) and its
deletion (`/delete/{entry_id}`: a page that names what goes, then its form), each through the write action the API's
routes run (`api.actions.write`: `POST /v1/entries`, `PATCH`, `DELETE`) as the signed-in viewer, from their write
budget, behind the form's CSRF token. A refused form is shown again with what was typed and the reason (422), so
nothing typed is lost; an entry is saved even while its embedding waits. A role's refusal says its true reason
(`api.web.refusals`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from api.actions import write as writing
from api.actions.budgets import Who
from api.actions.entries import entry_out, visible_entry
from api.actions.refusals import Invalid, NotAllowed
from api.actions.write import editable
from api.deps import BudgetsDep, ServicesDep, require_writer
from api.models.core import EntryIn, EntryPatch
from api.services import Services
from api.web.entry_form import EntryForm, FormDep, record_date
from api.web.form_errors import reasons
from api.web.refusals import refused_page
from api.web.render import page
from api.web.session import CsrfField, SessionDep, WebSession, check_csrf

router = APIRouter(include_in_schema=False)
NEW_LEVEL = "private"  # what a new entry from the form is until its writer opens it
NAMED_WORDS = 12


def _form(
    request: Request,
    session: WebSession,
    project_id: str,
    values: dict[str, Any],
    action: str,
    errors: list[str] | None = None,
) -> Response:
    context = {"project_id": project_id, "values": values, "action": action, "errors": errors or []}
    return page(request, "write.html", context, session, status=422 if errors else 200)


@router.get("/p/{project_id}/write", response_class=HTMLResponse)
def new_entry_form(request: Request, project_id: str, session: SessionDep, svc: ServicesDep) -> Response:
    require_writer(svc, project_id, session.viewer)
    values = EntryForm(intimacy=NEW_LEVEL).fields()
    return _form(request, session, project_id, values, f"/p/{quote(project_id, safe='')}/write")


@router.post("/p/{project_id}/write", response_class=HTMLResponse)
def write_entry(
    request: Request, project_id: str, session: SessionDep, svc: ServicesDep, budgets: BudgetsDep, form: FormDep
) -> Response:
    check_csrf(request, session, form.csrf)
    who = session.viewer
    require_writer(svc, project_id, who)
    values = {"intimacy": NEW_LEVEL} | form.fields()
    values["occurred_on"] = record_date(svc, project_id, values["occurred_on"])
    try:
        written = writing.create(
            svc,
            budgets,
            Who.user(who),
            lambda: writing.NewEntry(EntryIn.model_validate({**values, "project_id": project_id})),
        )
    except (ValidationError, Invalid) as exc:
        return _form(request, session, project_id, values, str(request.url.path), reasons(exc, request))
    return RedirectResponse(f"/e/{quote(written.entry_id, safe='/')}", status_code=303)


@router.get("/edit/{entry_id:path}", response_class=HTMLResponse)
def edit_entry_form(request: Request, entry_id: str, session: SessionDep, svc: ServicesDep) -> Response:
    try:
        entry = entry_out(editable(svc, session.viewer, entry_id))
    except NotAllowed as refusal:
        return _refused(request, session, svc, refusal, entry_id)
    values = {
        "text": entry.text,
        "title": entry.title,
        "occurred_on": entry.occurred_on,
        "persons": entry.persons,
        "places": entry.places,
        "tags": entry.tags,
        "intimacy": entry.intimacy,
    }
    return _form(request, session, entry.project_id, values, f"/edit/{quote(entry_id, safe='/')}")


@router.post("/edit/{entry_id:path}", response_class=HTMLResponse)
def edit_entry(
    request: Request, entry_id: str, session: SessionDep, svc: ServicesDep, budgets: BudgetsDep, form: FormDep
) -> Response:
    """A merge patch of the fields the form shows: the entry's other fields (metadata, chapter, kind) are kept."""
    check_csrf(request, session, form.csrf)
    who = session.viewer
    try:
        row = editable(svc, who, entry_id)
    except NotAllowed as refusal:
        return _refused(request, session, svc, refusal, entry_id)
    values = form.fields()
    values["occurred_on"] = record_date(svc, row["entry"]["project_id"], values["occurred_on"])
    try:
        writing.patch(svc, budgets, Who.user(who), lambda: writing.Change(entry_id, EntryPatch.model_validate(values)))
    except (ValidationError, Invalid) as exc:
        project_id = row["entry"]["project_id"]
        return _form(request, session, project_id, values, str(request.url.path), reasons(exc, request))
    return RedirectResponse(f"/e/{quote(entry_id, safe='/')}", status_code=303)


@router.get("/delete/{entry_id:path}", response_class=HTMLResponse)
def delete_entry_form(request: Request, entry_id: str, session: SessionDep, svc: ServicesDep) -> Response:
    """What deleting would remove, named (its title or first words, date and level), before anything is: for the
    entry's author or the owner; to anyone else the same answer as its `POST`."""
    try:
        entry = entry_out(editable(svc, session.viewer, entry_id))
    except NotAllowed as refusal:
        return _refused(request, session, svc, refusal, entry_id)
    context = {"entry": entry, "project_id": entry.project_id, "named": entry.title or first_words(entry.text)}
    return page(request, "delete.html", context, session)


@router.post("/delete/{entry_id:path}", response_class=HTMLResponse)
def delete_entry(
    request: Request, entry_id: str, session: SessionDep, svc: ServicesDep, budgets: BudgetsDep, csrf: CsrfField
) -> Response:
    """Once deleted, to the project's page, which says so by a flag (`?done=deleted`): never the entry's words in an
    address."""
    check_csrf(request, session, csrf)
    who = session.viewer
    try:
        project_id = editable(svc, who, entry_id)["entry"]["project_id"]
    except NotAllowed as refusal:
        return _refused(request, session, svc, refusal, entry_id)
    writing.delete(svc, budgets, Who.user(who), entry_id)
    return RedirectResponse(f"/p/{quote(project_id, safe='')}?done=deleted", status_code=303)


def _refused(request: Request, session: WebSession, svc: Services, refusal: NotAllowed, entry_id: str) -> Response:
    """A visible entry's change refused by role: the page of its project's refusal."""
    return refused_page(request, session, svc, refusal, visible_entry(svc, session.viewer, entry_id).project_id)


def first_words(text: str, count: int = NAMED_WORDS) -> str:
    words = text.split()
    return " ".join(words[:count]) + ("…" if len(words) > count else "")
