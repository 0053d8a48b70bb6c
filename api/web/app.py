"""The web app, added to the service by `create_app`: its routers and static files, and how a page answers what is
not a page of its own. Without a session: a redirect to the sign-in page. A refusal (an action's 401, 403,
404, 409, 422, 429; a form's CSRF check; the database down) is the same status as the API's, as an error page in the
viewer's language: the usual frame (the project's menu when the viewer is signed in and a member), a plain sentence
and a way back, never the API's English detail; its headers (Retry-After) kept. A path no route serves is a page
too (404), except under /v1, where the API answers JSON, as every route of the API still does."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from neo4j.exceptions import IncompleteCommit
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.actions.projects import memberships
from api.actions.refusals import NotAllowed
from api.deps import get_services
from api.errors import DOMAIN_ERRORS, RETRY_AFTER_SECONDS, as_http, unavailable_detail
from api.ratelimit import RateLimited
from api.web.i18n import language, translator
from api.web.refusals import REASON_WORDS
from api.web.render import HERE, page
from api.web.routes import chapters, entries, people, search, signin, timeline, witness, writing
from api.web.session import SESSION, SignInRequired, WebSession, current_session, end_session
from graph.db import UNAVAILABLE
from graph.members import role_of

ROUTERS = (
    signin.router,
    search.router,
    timeline.router,
    people.router,
    chapters.router,
    writing.router,
    witness.router,
    entries.router,
)
PAGES = {route.path for router in ROUTERS for route in router.routes if hasattr(route, "path")}
SAYS = {401: "sign_in_again", 404: "not_found", 409: "conflict", 413: "too_large", 422: "bad_address"}
"""What an error page says for a status, unless the refusal itself says more (`_say`)."""
CSRF_REFUSAL = "this form expired"


def is_page(request: Request) -> bool:
    route = request.scope.get("route")
    return getattr(route, "path", None) in PAGES


def is_unknown_page(request: Request, exc: Exception) -> bool:
    """A path no route serves, outside the API's /v1: a browser's mistyped or stale link."""
    path = request.url.path
    return (
        isinstance(exc, StarletteHTTPException)
        and exc.status_code == 404
        and request.scope.get("route") is None
        and not (path == "/v1" or path.startswith("/v1/"))
    )


def _refusal(exc: Exception) -> tuple[int, str, dict[str, str]]:
    exc = as_http(exc) or exc
    if isinstance(exc, StarletteHTTPException):
        return exc.status_code, str(exc.detail), dict(exc.headers or {})
    if isinstance(exc, RequestValidationError):
        fields = ", ".join(".".join(str(p) for p in e.get("loc", ())[1:]) or "request" for e in exc.errors())
        return 422, f"not valid: {fields}", {}
    return 503, unavailable_detail(exc), {"Retry-After": str(RETRY_AFTER_SECONDS)}


def _say(request: Request, exc: Exception, status: int, detail: str, headers: dict[str, str]) -> str:
    """The sentence for a person: by the refusal's reason where it has one, else by its status."""
    t = translator(language(request))
    if isinstance(exc, NotAllowed) and exc.reason:
        return t(REASON_WORDS[exc.reason])
    if status == 401 and request.url.path.startswith("/w/"):
        return t("witness_link_bad")
    if status == 403:
        return t("form_expired") if detail.startswith(CSRF_REFUSAL) else t("forbidden")
    if status == 404 and request.scope.get("route") is None:
        return t("no_such_page")
    if status == 429:
        kind = exc.kind if isinstance(exc, RateLimited) else None
        return t(f"too_many_{kind}" if kind else "too_many").format(n=headers.get("Retry-After", RETRY_AFTER_SECONDS))
    if status == 503:
        return t("maybe_saved") if isinstance(exc, IncompleteCommit) else t("unavailable")
    return t(SAYS.get(status, "went_wrong"))


def _frame(request: Request, status: int) -> tuple[WebSession | None, str | None, str | None]:
    """The signed-in viewer, the project the page belongs to and their role in it, for the menu: the project the path
    names (or an entry's id begins with) when the viewer is a member of it, else, on a path that names none, their
    only project. None for a witness's pages, a spent budget or the database down, where nothing more is read."""
    if status in (429, 503) or request.url.path.startswith("/w/") or not request.cookies.get(SESSION):
        return None, None, None
    try:
        session = current_session(request)
        svc = get_services(request)
        user = session.viewer.user_id or ""
        params = request.path_params
        named = params.get("project_id") or str(params.get("entry_id", "")).split("/", 1)[0]
        if named:
            role = role_of(svc.graph, str(named), user)
            return session, (str(named) if role else None), role
        own = memberships(svc, session.viewer)
        return (session, own[0].project_id, own[0].role) if len(own) == 1 else (session, None, None)
    except Exception:  # a frame is a courtesy: the error page is shown without it rather than not at all
        return None, None, None


def error_page(request: Request, exc: Exception) -> Response:
    status, detail, headers = _refusal(exc)
    session, project_id, role = _frame(request, status)
    back = f"/p/{quote(project_id, safe='')}" if project_id else "/"
    context: dict[str, Any] = {
        "status": status,
        "say": _say(request, exc, status, detail, headers),
        "back": None if request.url.path.startswith("/w/") else back,
        "role": role,
    }
    if project_id:
        context["project_id"] = project_id
    response = page(request, "error.html", context, session, status=status)
    response.headers.update(headers)
    if request.url.path.startswith("/w/"):
        response.headers["Referrer-Policy"] = "no-referrer"  # a witness link is a credential: never sent on
    return response


def _pages_first(app: FastAPI, kind: type[Exception] | int) -> None:
    """A page's refusal (or an unknown path's) as an error page; anything else to the handler the API registered."""
    original: Callable[[Request, Any], Any] | None = app.exception_handlers.get(kind)

    async def handler(request: Request, exc: Exception) -> Response:
        if is_page(request) or is_unknown_page(request, exc) or original is None:
            return error_page(request, exc)
        answer = original(request, exc)
        return await answer if inspect.isawaitable(answer) else answer

    app.add_exception_handler(kind, handler)


def add_web_app(app: FastAPI) -> None:
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.exception_handler(SignInRequired)
    async def sign_in_first(request: Request, exc: SignInRequired) -> Response:
        """To the sign-in page, dropping a session cookie that no longer signs in (expired, or from an old secret):
        kept, it would count against the address on every page."""
        response = RedirectResponse("/signin", status_code=303)
        if request.cookies.get(SESSION):
            end_session(response)
        return response

    for kind in (StarletteHTTPException, RequestValidationError, *DOMAIN_ERRORS, *UNAVAILABLE):
        _pages_first(app, kind)
