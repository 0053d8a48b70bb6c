"""Signing in and out of the web app: with a token (a JWT from the identity provider, or `memora token`), or, on a
local install and from this machine only, by choosing a member (`MEMORA_WEB_DEV_SIGNIN`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
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
    is_loopback,
    keep_presession,
    presession,
    start_session,
    verify_user_token,
)
from graph.members import every_membership, projects_of

router = APIRouter(include_in_schema=False)
Field = Annotated[str, Form(max_length=8000)]
ERRORS = ("bad_token", "unknown_member")


def _dev_allowed(request: Request, svc: ServicesDep) -> bool:
    return svc.settings.web_dev_signin and is_loopback(request)


@router.get("/signin", response_class=HTMLResponse)
def signin_page(request: Request, svc: ServicesDep, error: str | None = None) -> Response:
    """The sign-in forms; a signed-in browser goes to its projects."""
    try:
        current_session(request)
        return RedirectResponse("/", status_code=303)
    except SignInRequired:
        stale = bool(request.cookies.get(SESSION))
    dev = _dev_allowed(request, svc)
    csrf, fresh = presession(request)
    context = {
        "members": _members(svc) if dev else {},
        "dev": dev,
        "error": error if error in ERRORS else None,
        "form_csrf": csrf,
    }
    response = page(request, "signin.html", context, status=401 if error else 200)
    keep_presession(request, response, fresh)
    if stale:
        end_session(response)
    return response


def _members(svc: ServicesDep) -> dict[str, list[str]]:
    """Each member's projects and roles, for the development sign-in's list."""
    found: dict[str, list[str]] = {}
    for m in every_membership(svc.graph):
        found.setdefault(m["user_id"], []).append(f"{m['project_id']} ({m['role']})")
    return found


@router.post("/signin/member", response_class=HTMLResponse)
def signin_member(request: Request, svc: ServicesDep, user: Field, csrf: CsrfField) -> Response:
    """The development sign-in: a member of some project, chosen by name, from this machine only."""
    if not _dev_allowed(request, svc):
        raise HTTPException(403, "the development sign-in is only for a local install, from this machine")
    check_csrf(request, None, csrf)
    if not projects_of(svc.graph, user):
        return RedirectResponse("/signin?error=unknown_member", status_code=303)
    response = RedirectResponse("/", status_code=303)
    start_session(request, response, auth.issue(svc.settings, user))
    return response


@router.post("/signin/token", response_class=HTMLResponse)
def signin_token(request: Request, token: Field, csrf: CsrfField) -> Response:
    """A token the API would accept as a bearer, kept in the session cookie."""
    check_csrf(request, None, csrf)
    try:
        verify_user_token(request, token.strip())
    except auth.TokenError:
        return RedirectResponse("/signin?error=bad_token", status_code=303)
    except IssuerUnavailable as exc:
        raise HTTPException(503, str(exc)) from exc
    response = RedirectResponse("/", status_code=303)
    start_session(request, response, token.strip())
    return response


@router.post("/signout", response_class=HTMLResponse)
def signout(request: Request, csrf: CsrfField) -> Response:
    check_csrf(request, current_session(request), csrf)
    response = RedirectResponse("/signin", status_code=303)
    end_session(response)
    return response
