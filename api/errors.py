"""Error answers shared by every route: validation errors in one plain shape, an unreachable Neo4j as 503, and the
one "not found" message that hidden and missing entries share (so neither can be told from the other)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from neo4j.exceptions import IncompleteCommit, TransientError

from api.actions.refusals import AlreadyExists, Conflict, Invalid, NotAllowed, NotAuthenticated, NotFound, Refused
from api.ratelimit import RateLimited
from graph.db import UNAVAILABLE
from queries.search.request import AccessDenied

log = logging.getLogger(__name__)
NOT_FOUND = "entry not found"
RETRY_AFTER_SECONDS = 5
"""What a 503 asks the client to wait: about the time a restarted Neo4j needs to answer again."""
UNAVAILABLE_DETAIL = "the graph database is unavailable; nothing was written, retry later"


async def invalid(_: Request, exc: Exception) -> JSONResponse:
    """422 with `loc`, `msg` and `type` of each error, never the rejected input echoed back."""
    assert isinstance(exc, RequestValidationError)
    errors = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in exc.errors()]
    return JSONResponse(status_code=422, content={"detail": errors})


def unavailable_detail(exc: BaseException) -> str:
    """The reason a 503 gives. A commit whose answer was lost is the one case where a write may have happened."""
    if isinstance(exc, IncompleteCommit):
        return (
            "the connection to the graph database was lost while committing: the write may or may not be "
            "stored; read it back before retrying"
        )
    if isinstance(exc, TransientError):
        return (
            "the graph database could not complete the request now (transient failure); nothing was written, "
            "retry later"
        )
    return UNAVAILABLE_DETAIL


async def db_down(_: Request, exc: Exception) -> JSONResponse:
    """503 with Retry-After and a reason, never a traceback: the driver gave up within its bounded retries."""
    log.error("Neo4j unavailable: %s: %s", type(exc).__name__, exc)
    return JSONResponse(
        status_code=503, content={"detail": unavailable_detail(exc)}, headers={"Retry-After": str(RETRY_AFTER_SECONDS)}
    )


DOMAIN_ERRORS: tuple[type[Exception], ...] = (RateLimited, AccessDenied, Refused)
"""What actions (`api.actions`) raise, answered by every door as `as_http` says."""

REFUSED_STATUS: dict[type[Refused], int] = {
    NotAuthenticated: 401,
    NotFound: 404,
    NotAllowed: 403,
    AlreadyExists: 409,
    Conflict: 409,
    Invalid: 422,
}


def as_http(exc: BaseException) -> HTTPException | None:
    """A domain error as the API answers it (429 with `Retry-After`, 403, an action's refusal by its kind), for the
    HTTP doors and the MCP server."""
    if isinstance(exc, RateLimited):
        return HTTPException(429, str(exc), headers={"Retry-After": str(exc.retry_after)})
    if isinstance(exc, AccessDenied):
        return HTTPException(403, str(exc))
    if isinstance(exc, Refused):
        return HTTPException(REFUSED_STATUS[type(exc)], exc.detail)
    return None


async def refused(request: Request, exc: Exception) -> Response:
    answer = as_http(exc)
    assert answer is not None
    return await http_exception_handler(request, answer)


def add_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, invalid)
    for domain in DOMAIN_ERRORS:
        app.add_exception_handler(domain, refused)
    for kind in UNAVAILABLE:
        app.add_exception_handler(kind, db_down)
