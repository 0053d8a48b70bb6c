"""The witness page (`/w/{token}`): what a witness link's chapter lets its holder read, search and add, nothing else.
The link is the credential, checked on every request by the API's own action (`api.actions.witnesses.link_grant`;
expired or revoked: 401, and the address's failed attempts counted as for a bad token); the witness's searches,
accounts, chapter listing and entries are the actions the API's witness routes run (`api.actions`), from the link's
budgets; the form to add an account carries a CSRF token derived from the link. A witness sees the chapter's circle
and public entries only, as the API shows them."""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from api.actions import read, witnesses
from api.actions import search as searching
from api.actions import write as writing
from api.actions.budgets import Who
from api.actions.refusals import Invalid, NotAuthenticated
from api.deps import BudgetsDep, ServicesDep
from api.models.core import WitnessEntryIn, WitnessSearchRequest
from api.ratelimit import check_address, note_auth_failure
from api.services import Services
from api.web.entry_form import EntryForm, record_date
from api.web.form_errors import reasons
from api.web.render import page
from api.web.session import form_token
from graph.witnesses import Grant

router = APIRouter(include_in_schema=False)
LISTED = 50


def _grant(request: Request, svc: Services, token: str) -> Grant:
    check_address(request)
    try:
        return witnesses.link_grant(svc, token)
    except NotAuthenticated:
        note_auth_failure(request)
        raise


def _csrf(svc: Services, token: str) -> str:
    return form_token(svc.settings, "witness", token)


def _page(
    request: Request, svc: Services, token: str, grant: Grant, context: Mapping[str, Any], status: int = 200
) -> Response:
    values = {"token": token, "chapter": grant.period_name, "witness_csrf": _csrf(svc, token), **context}
    values["seasons_of"] = grant.project_id  # whose hemisphere names a season on the page
    response = page(request, "witness.html", values, status=status)
    response.headers["Referrer-Policy"] = "no-referrer"  # the link is the credential: never sent on
    return response


@router.get("/w/{token}", response_class=HTMLResponse)
def witness_page(
    request: Request,
    token: str,
    svc: ServicesDep,
    budgets: BudgetsDep,
    q: Annotated[str, Query(max_length=10_000)] = "",
    thanks: Annotated[bool, Query(description="an account was just added")] = False,
) -> Response:
    grant = _grant(request, svc, token)
    found = listing = None
    if q.strip():
        asked = searching.witness_asked(grant, WitnessSearchRequest(q=q, k=20))
        found = searching.search(svc, budgets, Who.witness(grant), asked)
    else:
        listing = read.chapter_entries(svc, budgets, grant, LISTED)
    context: dict[str, Any] = {"q": q, "found": found, "listing": listing, "values": EntryForm().fields(), "errors": []}
    return _page(request, svc, token, grant, context | {"thanks": thanks})


@router.post("/w/{token}", response_class=HTMLResponse)
def witness_add(
    request: Request, token: str, svc: ServicesDep, budgets: BudgetsDep, form: Annotated[EntryForm, Form()]
) -> Response:
    """The witness's own account, added to the chapter (kind witness, circle), through the API's witness route; then
    303 to the chapter's page, which thanks them."""
    grant = _grant(request, svc, token)
    if not hmac.compare_digest(form.csrf, _csrf(svc, token)):
        raise HTTPException(403, "this form expired or did not come from this site; reload the page and try again")
    values = form.fields()
    said = record_date(svc, grant.project_id, values["occurred_on"])
    try:
        writing.witness_account(
            svc,
            budgets,
            grant,
            lambda: WitnessEntryIn.model_validate(
                {k: v for k, v in values.items() if k in WitnessEntryIn.model_fields} | {"occurred_on": said}
            ),
        )
    except (ValidationError, Invalid) as exc:
        context = {"q": "", "found": None, "listing": None, "values": values, "errors": reasons(exc, request)}
        return _page(request, svc, token, grant, context, status=422)
    return RedirectResponse(f"/w/{quote(token, safe='')}?thanks=true", status_code=303)


@router.get("/w/{token}/e/{entry_id:path}", response_class=HTMLResponse)
def witness_entry_page(request: Request, token: str, entry_id: str, svc: ServicesDep) -> Response:
    grant = _grant(request, svc, token)
    entry = witnesses.entry(svc, token, entry_id)
    return _page(request, svc, token, grant, {"entry": entry, "values": None, "errors": []})
