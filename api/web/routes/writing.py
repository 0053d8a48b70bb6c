"""Writing from the web: a new entry (`/p/{project_id}/write`), a change to one (`/edit/{entry_id}`) and its
deletion (`/delete/{entry_id}`), each through the API's own route function (`POST /v1/entries`, `PATCH`, `DELETE`)
as the signed-in viewer, from their write budget, behind the form's CSRF token. A refused form is shown again with
what was typed and the reason (422), so nothing typed is lost; an entry is saved even while its embedding waits."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field, ValidationError

from api.deps import ServicesDep, require_writer
from api.models import EntryIn, EntryPatch
from api.ratelimit import spend
from api.routes.entries import create_entry, editable, get_entry, patch_entry, remove_entry
from api.services import Services
from api.web.render import LEVELS, page
from api.web.session import CSRF_FIELD, SessionDep, WebSession, check_csrf
from queries.search.query_constraints import project_hemisphere
from queries.search.understanding.parse import understand

router = APIRouter(include_in_schema=False)
_RECORD_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?(/\d{4}(-\d{2}(-\d{2})?)?)?")
Csrf = Annotated[str, Form(alias=CSRF_FIELD, max_length=200)]
NEW_LEVEL = "private"  # what a new entry from the form is until its writer opens it


class EntryForm(BaseModel):
    """What the form sends: names as one comma-separated line each. A level that is not one of the four is left out,
    so a new entry is private and a changed one keeps its own: a bad form never opens one."""

    csrf: str = Field(default="", max_length=200)  # the session's token (api/web/session.py, CSRF_FIELD)
    text: str = Field(default="", max_length=200_000)
    title: str = Field(default="", max_length=2000)
    occurred_on: str = Field(default="", max_length=2000)
    persons: str = Field(default="", max_length=2000)
    places: str = Field(default="", max_length=2000)
    tags: str = Field(default="", max_length=2000)
    intimacy: str = Field(default="circle", max_length=20)

    def fields(self) -> dict[str, Any]:
        values = {
            "text": self.text,
            "title": self.title.strip() or None,
            "occurred_on": self.occurred_on.strip() or None,
            "persons": _names(self.persons),
            "places": _names(self.places),
            "tags": _names(self.tags),
        }
        return values | ({"intimacy": self.intimacy} if self.intimacy in LEVELS else {})


FormDep = Annotated[EntryForm, Form()]


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def record_date(svc: Services, project_id: str, said: str | None) -> str | None:
    """The entry's `occurred_on` for a date said in words ("verano de 2009", "July 2008", "Navidad de 1995"), read
    as the search reads a date in a question (the project's hemisphere for a season); what is already a record date
    (`2009-07-12`, `2009-07`, `2009`, `START/END`), or no date at all, is left as typed for the API to judge."""
    if not said or _RECORD_DATE.fullmatch(said):
        return said
    found = understand(said, [], date.today(), hemisphere=lambda: project_hemisphere(svc.graph, [project_id])).temporal
    if found is None:
        return said
    start, end = found.start.isoformat(), found.end.isoformat()
    if start == end:
        return start
    if found.precision == "month":
        return start[:7]
    if found.precision == "year":
        return start[:4]
    return f"{start}/{end}"


def _reasons(exc: ValidationError | HTTPException) -> list[str]:
    if isinstance(exc, ValidationError):
        return [f"{'.'.join(str(p) for p in e['loc']) or 'entry'}: {e['msg']}" for e in exc.errors()]
    detail = exc.detail
    if isinstance(detail, list):
        return [f"{'.'.join(str(p) for p in d.get('loc', [])[1:]) or 'entry'}: {d.get('msg', '')}" for d in detail]
    return [str(detail)]


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
def write_entry(request: Request, project_id: str, session: SessionDep, svc: ServicesDep, form: FormDep) -> Response:
    check_csrf(request, session, form.csrf)
    who = session.viewer
    require_writer(svc, project_id, who)
    spend(request, "write", ("user", who.user_id))
    values = {"intimacy": NEW_LEVEL} | form.fields()
    values["occurred_on"] = record_date(svc, project_id, values["occurred_on"])
    try:
        written = create_entry(EntryIn.model_validate({**values, "project_id": project_id}), who, svc)
    except (ValidationError, HTTPException) as exc:
        if isinstance(exc, HTTPException) and exc.status_code != 422:
            raise
        return _form(request, session, project_id, values, str(request.url.path), _reasons(exc))
    return RedirectResponse(f"/e/{quote(written.entry_id, safe='/')}", status_code=303)


@router.get("/edit/{entry_id:path}", response_class=HTMLResponse)
def edit_entry_form(request: Request, entry_id: str, session: SessionDep, svc: ServicesDep) -> Response:
    editable(svc, session.viewer, entry_id)
    entry = get_entry(entry_id, session.viewer, svc)
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
def edit_entry(request: Request, entry_id: str, session: SessionDep, svc: ServicesDep, form: FormDep) -> Response:
    """A merge patch of the fields the form shows: the entry's other fields (metadata, chapter, kind) are kept."""
    check_csrf(request, session, form.csrf)
    who = session.viewer
    row = editable(svc, who, entry_id)
    spend(request, "write", ("user", who.user_id))
    values = form.fields()
    values["occurred_on"] = record_date(svc, row["entry"]["project_id"], values["occurred_on"])
    try:
        patch_entry(entry_id, EntryPatch.model_validate(values), who, svc)
    except (ValidationError, HTTPException) as exc:
        if isinstance(exc, HTTPException) and exc.status_code != 422:
            raise
        project_id = row["entry"]["project_id"]
        return _form(request, session, project_id, values, str(request.url.path), _reasons(exc))
    return RedirectResponse(f"/e/{quote(entry_id, safe='/')}", status_code=303)


@router.post("/delete/{entry_id:path}", response_class=HTMLResponse)
def delete_entry(request: Request, entry_id: str, session: SessionDep, svc: ServicesDep, csrf: Csrf) -> Response:
    check_csrf(request, session, csrf)
    who = session.viewer
    project_id = editable(svc, who, entry_id)["entry"]["project_id"]
    spend(request, "write", ("user", who.user_id))
    remove_entry(entry_id, who, svc)
    return RedirectResponse(f"/p/{quote(project_id, safe='')}/timeline", status_code=303)
