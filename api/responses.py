"""The error answers of the API as its OpenAPI document states them: one body shape per status, the same reason
text the handlers give. Routes name the statuses they can answer with `errors(...)`; app.py adds the ones every
authenticated route shares."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException
from pydantic import BaseModel


class ErrorOut(BaseModel):
    """Every 4xx/5xx but 422: a sentence saying what went wrong, never the rejected input nor a trace."""

    detail: str


class FieldError(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class ValidationErrorOut(BaseModel):
    """A 422: one item per invalid field (`loc` is its path in the body, query or path)."""

    detail: list[FieldError]


_RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before retrying",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    }
}
_WWW_AUTH = {"WWW-Authenticate": {"description": "`Bearer`", "schema": {"type": "string"}}}

ERRORS: dict[int, dict[str, Any]] = {
    401: {
        "model": ErrorOut,
        "headers": _WWW_AUTH,
        "description": "No bearer token, or one that is malformed, forged, expired or revoked.",
    },
    403: {
        "model": ErrorOut,
        "description": "The caller is not a member of the project, or their role does not allow this. Answered "
        "the same whether or not the project exists.",
    },
    404: {
        "model": ErrorOut,
        "description": "Not found — or hidden from the caller: both give the same answer, so neither can be told "
        "from the other.",
    },
    409: {"model": ErrorOut, "description": "Conflicts with the current state (the reason says which)."},
    422: {"model": ValidationErrorOut, "description": "Invalid body, query or path parameter."},
    503: {
        "model": ErrorOut,
        "headers": _RETRY_AFTER,
        "description": "The graph database is unreachable; nothing was written. Retry after `Retry-After` seconds.",
    },
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers for a route's or router's `responses=`."""
    return {code: ERRORS[code] for code in codes}


def invalid_field(where: str, name: str, msg: str) -> HTTPException:
    """A 422 raised by a handler, in the same shape as the ones FastAPI's validation gives (`where` is "body",
    "query" or "path"), so that every 422 matches `ValidationErrorOut`."""
    return HTTPException(422, [{"loc": [where, name], "msg": msg, "type": "value_error"}])
