"""Error answers shared by every route: validation errors in one plain shape, an unreachable Neo4j as 503, and the
one "not found" message that hidden and missing entries share (so neither can be told from the other)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from neo4j.exceptions import ServiceUnavailable, SessionExpired

log = logging.getLogger(__name__)
NOT_FOUND = "entry not found"


async def invalid(_: Request, exc: Exception) -> JSONResponse:
    """422 with `loc`, `msg` and `type` of each error, never the rejected input echoed back."""
    assert isinstance(exc, RequestValidationError)
    errors = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
              for e in exc.errors()]
    return JSONResponse(status_code=422, content={"detail": errors})


async def db_down(_: Request, exc: Exception) -> JSONResponse:
    log.error("Neo4j unavailable: %s", exc)
    return JSONResponse(status_code=503, content={"detail": "the graph database is unavailable; retry later"})


def add_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(ServiceUnavailable, db_down)
    app.add_exception_handler(SessionExpired, db_down)
