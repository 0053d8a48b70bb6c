"""The web app, added to the service by `create_app`: its routers and static files, and how a page answers what is
not a page of its own. Without a session: a redirect to the sign-in page. A refusal (an action's 401, 403,
404, 409, 422, 429; a form's CSRF check; the database down) is the same status as the API's, as an error page in the
viewer's language, its headers (Retry-After) kept; a route of the API still answers JSON."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.errors import DOMAIN_ERRORS, RETRY_AFTER_SECONDS, as_http, unavailable_detail
from api.web.render import HERE, page
from api.web.routes import chapters, entries, people, search, signin, timeline, witness, writing
from api.web.session import SESSION, SignInRequired, end_session
from graph.db import UNAVAILABLE

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
REASONS = {403: "forbidden", 404: "not_found"}


def is_page(request: Request) -> bool:
    route = request.scope.get("route")
    return getattr(route, "path", None) in PAGES


def _refusal(exc: Exception) -> tuple[int, str, dict[str, str]]:
    exc = as_http(exc) or exc
    if isinstance(exc, StarletteHTTPException):
        return exc.status_code, str(exc.detail), dict(exc.headers or {})
    if isinstance(exc, RequestValidationError):
        fields = ", ".join(".".join(str(p) for p in e.get("loc", ())[1:]) or "request" for e in exc.errors())
        return 422, f"not valid: {fields}", {}
    return 503, unavailable_detail(exc), {"Retry-After": str(RETRY_AFTER_SECONDS)}


def _pages_first(app: FastAPI, kind: type[Exception] | int) -> None:
    """A page's refusal as an error page; anything else to the handler the API registered for `kind`."""
    original: Callable[[Request, Any], Any] | None = app.exception_handlers.get(kind)

    async def handler(request: Request, exc: Exception) -> Response:
        if is_page(request) or original is None:
            status, detail, headers = _refusal(exc)
            response = page(request, "error.html", {"status": status, "reason": REASONS.get(status), "detail": detail})
            response.status_code = status
            response.headers.update(headers)
            return response
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
