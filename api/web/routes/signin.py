"""Signing in and out of the web app: with a token (a JWT from the identity provider, or `memora token`), or, on a
local install, from this machine only and in a browser that opened a one-time sign-in link (`memora serve` prints
one, `memora signin-link` makes another), by choosing a member (`MEMORA_WEB_DEV_SIGNIN`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from api import auth
from api.deps import ServicesDep
from api.jwt_auth import IssuerUnavailable
from api.web.render import page
from api.web.session import (
    SESSION,
    CsrfField,
    SignInRequired,
    check_csrf,
    current_session,
    end_session,
    keep_picker,
    keep_presession,
    local_signin_offered,
    may_pick_member,
    presession,
    sign_out,
    start_session,
    verify_user_token,
)
from graph.members import every_membership, projects_of
from graph.web_sessions import use_link

router = APIRouter(include_in_schema=False)
Field = Annotated[str, Form(max_length=8000)]
ERRORS = ("bad_token", "unknown_member", "bad_link")
LinkKey = Annotated[str, Query(max_length=200)]


@router.get("/signin", response_class=HTMLResponse)
def signin_page(request: Request, svc: ServicesDep, error: str | None = None) -> Response:
    """The sign-in forms; a signed-in browser goes to its projects."""
    try:
        current_session(request)
        return RedirectResponse("/", status_code=303)
    except SignInRequired:
        stale = bool(request.cookies.get(SESSION))
    dev = may_pick_member(request)
    csrf, fresh = presession(request)
    context = {
        "members": _members(svc) if dev else {},
        "dev": dev,
        "dev_needs_link": not dev and local_signin_offered(request),
        "error": error if error in ERRORS else None,
        "form_csrf": csrf,
    }
    response = page(request, "signin.html", context, status=401 if error else 200)
    keep_presession(request, response, fresh)
    if stale:
        end_session(response)
    return response


def _members(svc: ServicesDep) -> dict[str, list[tuple[str, str]]]:
    """Each project's members and their roles, for the local sign-in's choices (a capped list: a member beyond it
    is typed by name)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for m in every_membership(svc.graph):
        found.setdefault(m["project_id"], []).append((m["user_id"], m["role"]))
    return dict(sorted(found.items()))


@router.get("/signin/local", response_class=HTMLResponse)
def signin_link(request: Request, svc: ServicesDep, key: LinkKey) -> Response:
    """A one-time sign-in link: its key is spent, and this browser may choose a member until the picker ends."""
    picker = use_link(svc.graph, svc.settings, key) if local_signin_offered(request) else None
    if picker is None:
        return RedirectResponse("/signin?error=bad_link", status_code=303)
    response = RedirectResponse("/signin", status_code=303)
    keep_picker(request, response, picker)
    return response


@router.post("/signin/member", response_class=HTMLResponse)
def signin_member(request: Request, svc: ServicesDep, user: Field, csrf: CsrfField) -> Response:
    """The local sign-in: a member of some project, chosen by name, in a browser on this machine that opened a
    sign-in link."""
    if not may_pick_member(request):
        raise HTTPException(
            403, "choosing a member needs the sign-in link `memora serve` prints, opened on the machine it runs on"
        )
    check_csrf(request, None, csrf)
    if not projects_of(svc.graph, user):
        return RedirectResponse("/signin?error=unknown_member", status_code=303)
    response = RedirectResponse("/", status_code=303)
    start_session(request, response, user)
    return response


@router.post("/signin/token", response_class=HTMLResponse)
def signin_token(request: Request, token: Field, csrf: CsrfField) -> Response:
    """A token the API would accept as a bearer, verified once: the session it starts is kept, never the token."""
    check_csrf(request, None, csrf)
    try:
        user = verify_user_token(request, token.strip())
    except auth.TokenError:
        return RedirectResponse("/signin?error=bad_token", status_code=303)
    except IssuerUnavailable as exc:
        raise HTTPException(503, str(exc)) from exc
    response = RedirectResponse("/", status_code=303)
    start_session(request, response, user)
    return response


@router.post("/signout", response_class=HTMLResponse)
def signout(request: Request, csrf: CsrfField) -> Response:
    check_csrf(request, current_session(request), csrf)
    response = RedirectResponse("/signin", status_code=303)
    sign_out(request, response)
    return response
