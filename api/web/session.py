"""Who is looking at a page: the token the API would take as a bearer, kept in an HttpOnly, SameSite=Strict cookie,
checked by the same function (`api.deps.user_of_token`); and the CSRF token every form carries.

A page never trusts anything but the cookie: a signed development token (`mem1.`) or a JWT from the identity
provider, verified on every request exactly as the API verifies a bearer. The CSRF token is an HMAC of the session
token under the service's secret, so it changes with every sign-in and cannot be computed without the secret; before
sign-in, a random cookie stands in for the session (the double-submit pattern).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Form, HTTPException, Request, Response

from api import auth
from api.deps import get_services, user_of_token
from api.jwt_auth import IssuerUnavailable
from api.ratelimit import check_address, note_auth_failure
from graph.settings import Settings
from graph.visibility import Viewer

SESSION = "memora_session"
PRESESSION = "memora_presession"
CSRF_FIELD = "csrf"


class SignInRequired(Exception):
    """No valid session: the page answers with a redirect to the sign-in page (`api/web/app.py`)."""


@dataclass(frozen=True)
class WebSession:
    viewer: Viewer
    csrf: str


def form_token(settings: Settings, purpose: str, value: str) -> str:
    """The CSRF token a form carries: an HMAC of what it is bound to (a session, a pre-session, a witness link) under
    the service's secret, so it cannot be made without the secret."""
    return hmac.new(auth.secret_of(settings).encode(), f"{purpose}.{value}".encode(), hashlib.sha256).hexdigest()


def _mac(request: Request, purpose: str, value: str) -> str:
    return form_token(get_services(request).settings, purpose, value)


def current_session(request: Request) -> WebSession:
    """The signed-in viewer and their CSRF token; `SignInRequired` without a valid session cookie. An address that
    sent too many invalid tokens is refused (429) as the API refuses it."""
    token = request.cookies.get(SESSION)
    if not token:
        raise SignInRequired()
    check_address(request)
    try:
        user = user_of_token(request, get_services(request).settings, token)
    except auth.TokenError as exc:
        note_auth_failure(request)
        raise SignInRequired() from exc
    except IssuerUnavailable as exc:
        raise HTTPException(503, str(exc)) from exc
    return WebSession(Viewer(user_id=user), _mac(request, "csrf", token))


CsrfField = Annotated[str, Form(alias=CSRF_FIELD, max_length=200)]
"""A form's CSRF field, as a route parameter (`check_csrf` judges it)."""
SessionDep = Annotated[WebSession, Depends(current_session)]
"""A page's signed-in viewer; without a valid session cookie the page redirects to the sign-in page."""


def verify_user_token(request: Request, token: str) -> str:
    """The user a pasted token names, or `auth.TokenError` (counted against the address, as a bad bearer is)."""
    check_address(request)
    try:
        return user_of_token(request, get_services(request).settings, token)
    except auth.TokenError:
        note_auth_failure(request)
        raise


def check_csrf(request: Request, session: WebSession | None, given: str | None) -> None:
    """A form's CSRF field against the session's (or, before sign-in, the pre-session cookie's): 403 when absent or
    different."""
    expected = session.csrf if session is not None else presession_csrf(request)
    if not given or not expected or not hmac.compare_digest(given, expected):
        raise HTTPException(403, "this form expired or did not come from this site; reload the page and try again")


def presession_csrf(request: Request) -> str | None:
    value = request.cookies.get(PRESESSION)
    return _mac(request, "presession", value) if value else None


def presession(request: Request) -> tuple[str, str | None]:
    """The CSRF token of the sign-in forms, and the new pre-session cookie value to set when the browser has none
    (`keep_presession`)."""
    value = request.cookies.get(PRESESSION)
    fresh = None if value else secrets.token_urlsafe(24)
    return _mac(request, "presession", value or fresh or ""), fresh


def keep_presession(request: Request, response: Response, fresh: str | None) -> None:
    if fresh:
        _set_cookie(request, response, PRESESSION, fresh, max_age=3600)


def start_session(request: Request, response: Response, token: str) -> None:
    ttl = get_services(request).settings.token_ttl_seconds
    _set_cookie(request, response, SESSION, token, max_age=ttl)
    response.delete_cookie(PRESESSION, path="/")


def end_session(response: Response) -> None:
    response.delete_cookie(SESSION, path="/", httponly=True, samesite="strict")


def _set_cookie(request: Request, response: Response, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def is_loopback(request: Request) -> bool:
    """Whether the caller is on this machine: the development sign-in is offered to no one else."""
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
