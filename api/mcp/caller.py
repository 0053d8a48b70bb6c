"""Who calls the MCP server, and how a refusal is said.

Over stdio the caller is the person running `memora mcp --as USER` (like the CLI). Over HTTP every request is
authenticated before the MCP transport sees it, by the API's own checks (`api.deps.current_viewer` for development
tokens and JWTs, `api.actions.witnesses.link_grant` for witness links, with the same rules for failed authentication
per address, counted by this process), and the caller is put in the request's state, where the tools read it back.

A refusal is the HTTP layer's answer: an action's refusal as `api.errors.as_http` answers it, an `HTTPException`, or
the pydantic error of the arguments in the API's 422 shape; the tool result is an MCP error (`isError`) whose text is
that reason and whose structured content is `{"status", "detail"}`. Never a traceback: anything unforeseen is logged
and answered as an internal error.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials
from fastapi.security.utils import get_authorization_scheme_param
from pydantic import ValidationError

from api.actions.budgets import Budgets, Who
from api.actions.refusals import NotAuthenticated
from api.actions.witnesses import link_grant
from api.auth import WITNESS_PREFIX
from api.deps import current_viewer
from api.errors import as_http, unavailable_detail
from api.ratelimit import Limits, check_address, limits_of, note_auth_failure
from graph.db import UNAVAILABLE
from graph.visibility import Viewer
from graph.witnesses import Grant

log = logging.getLogger(__name__)
STATE_KEY = "memora_mcp_caller"
WITNESS_ONLY = "a witness link opens only its chapter: the tools search, get_entry and add_entry"


@dataclass(frozen=True)
class Caller:
    """A verified user, or a witness link's grant; the budgets they spend from; for stdio, the size limit the
    HTTP door's body limit would apply."""

    viewer: Viewer
    limits: Limits
    witness_token: str | None = None
    grant: Grant | None = None
    body_limit: int | None = None

    @property
    def budget_key(self) -> Hashable:
        """The key of the rate-limit buckets, as the HTTP routes spend them."""
        return ("witness", self.grant.id) if self.grant is not None else ("user", self.viewer.user_id)

    @property
    def who(self) -> Who:
        return Who(self.viewer, self.budget_key)

    @property
    def budgets(self) -> Budgets:
        """The app's buckets, for the actions a tool runs: they pay before the arguments are read, as the API pays
        before the body is."""
        return Budgets(self.limits)


def authenticate(request: Request) -> Caller:
    """The caller of an HTTP request, or what the API would answer instead (401, 429, 503)."""
    header = request.headers.get("authorization")
    scheme, token = get_authorization_scheme_param(header)
    if scheme.lower() == "bearer" and token.startswith(f"{WITNESS_PREFIX}."):
        check_address(request)
        try:
            grant = link_grant(request.app.state.services, token)
        except NotAuthenticated:
            note_auth_failure(request)
            raise
        return Caller(Viewer(witness_period_id=grant.period_id), limits_of(request), token, grant)
    creds = HTTPAuthorizationCredentials(scheme=scheme, credentials=token) if header and scheme and token else None
    return Caller(current_viewer(request, creds), limits_of(request))


def caller_of(request: Request) -> Caller:
    caller: Caller = getattr(request.state, STATE_KEY)
    return caller


@dataclass(frozen=True)
class Refusal:
    """What the HTTP API would have answered instead of a result."""

    status: int
    detail: Any

    @property
    def text(self) -> str:
        if isinstance(self.detail, list):
            return "invalid arguments: " + "; ".join(
                f"{'.'.join(str(p) for p in e['loc'][1:]) or e['loc'][0]}: {e['msg']}" for e in self.detail
            )
        return str(self.detail)


def invalid(exc: ValidationError) -> HTTPException:
    """Arguments refused by their model, as the API's 422 (`loc`, `msg`, `type`; the input never echoed)."""
    return HTTPException(
        422, [{"loc": ["arguments", *e["loc"]], "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
    )


def refusal_of(exc: BaseException) -> Refusal:
    exc = as_http(exc) or exc
    if isinstance(exc, HTTPException):
        return Refusal(exc.status_code, exc.detail)
    if isinstance(exc, ValidationError):
        return refusal_of(invalid(exc))
    if isinstance(exc, UNAVAILABLE):
        return Refusal(503, unavailable_detail(exc))
    log.exception("MCP call failed")
    return Refusal(500, "internal error (logged by the server); nothing more is said about it")
