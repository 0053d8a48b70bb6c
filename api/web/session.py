"""Who is looking at a page: a server-side session (`graph/web_sessions.py`) whose random id the browser keeps in an
HttpOnly, SameSite=Strict cookie; and the CSRF token every form carries.

A session is not an API token: the cookie holds an opaque id that opens nothing on `/v1/*`, ends after a while
without use (and at the latest a day after sign-in), and is ended by signing out and by a role change or removal.
A token pasted into the sign-in form is verified once, as the API verifies a bearer, and only the session it starts
is kept. The CSRF token is an HMAC of the session id under the service's secret, so it changes with every sign-in
and cannot be computed without the secret; before sign-in, a random cookie stands in for the session (the
double-submit pattern).
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
from api.ratelimit import check_address, note_auth_failure
from graph.settings import Settings
from graph.visibility import Viewer
from graph.web_sessions import end_session as end_session_in_graph
from graph.web_sessions import open_session, picker_allowed, session_user

SESSION = "memora_session"
PRESESSION = "memora_presession"
PICKER = "memora_local"
"""The cookie of a browser that opened a one-time sign-in link: it may choose a member (`graph/web_sessions.py`)."""
CSRF_FIELD = "csrf"
MAX_SECRET_CHARS = 100


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
    """The signed-in viewer and their CSRF token; `SignInRequired` without a live session. An address that sent too
    many unknown session ids is refused (429) as the API refuses it for bad tokens."""
    sid = request.cookies.get(SESSION)
    if not sid:
        raise SignInRequired()
    check_address(request)
    svc = get_services(request)
    user = session_user(svc.graph, svc.settings, sid) if len(sid) <= MAX_SECRET_CHARS else None
    if user is None:
        note_auth_failure(request)
        raise SignInRequired()
    return WebSession(Viewer(user_id=user), _mac(request, "csrf", sid))


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


def start_session(request: Request, response: Response, user_id: str) -> None:
    """Open a session for `user_id` and hand the browser its id; the sign-in forms' pre-session is dropped."""
    svc = get_services(request)
    _set_cookie(
        request, response, SESSION, open_session(svc.graph, svc.settings, user_id), svc.settings.web_session_max_seconds
    )
    response.delete_cookie(PRESESSION, path="/")


def sign_out(request: Request, response: Response) -> None:
    """End the browser's session in the graph (so a copy of its cookie opens nothing any more) and drop the cookie."""
    sid = request.cookies.get(SESSION)
    if sid and len(sid) <= MAX_SECRET_CHARS:
        end_session_in_graph(get_services(request).graph, sid)
    end_session(response)


def end_session(response: Response) -> None:
    """Drop the session cookie (an ended or unknown session: nothing to end in the graph)."""
    response.delete_cookie(SESSION, path="/", httponly=True, samesite="strict")


def keep_picker(request: Request, response: Response, secret: str) -> None:
    _set_cookie(request, response, PICKER, secret, get_services(request).settings.web_session_max_seconds)


def may_pick_member(request: Request) -> bool:
    """The local sign-in: on (MEMORA_WEB_DEV_SIGNIN), a service bound to loopback, a caller on this machine, and a
    browser that opened a one-time sign-in link."""
    if not local_signin_offered(request):
        return False
    secret = request.cookies.get(PICKER)
    svc = get_services(request)
    return bool(secret) and len(secret or "") <= MAX_SECRET_CHARS and picker_allowed(svc.graph, secret or "")


def local_signin_offered(request: Request) -> bool:
    """Whether this service offers the local sign-in to this caller at all (a link is still needed to use it)."""
    settings = get_services(request).settings
    return settings.web_dev_signin and is_loopback_name(settings.api_host) and is_loopback(request)


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


def is_loopback_name(host: str) -> bool:
    """Whether a bind address or name is this machine only (`localhost`, 127.0.0.0/8, ::1)."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_loopback(request: Request) -> bool:
    """Whether the caller is on this machine: the development sign-in is offered to no one else."""
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
