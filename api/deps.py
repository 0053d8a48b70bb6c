"""What routes depend on: the Services object, the current viewer (from the bearer token) and role checks.

Role checks come in two forms, so that a malformed request is always answered 422 before any role check: FastAPI
solves dependencies *before* it validates the body and query, so a dependency that refuses (403) would win over the
422. `ProjectMember` and `ProjectOwner` are dependencies for routes whose only
inputs are path parameters; a route with a body or query parameters calls `require_member`, `require_writer` or
`require_owner` as its first line instead.

Rate limits (`api.ratelimit`) are dependencies too: they only need the token, so a request over its budget is 429
before its body is validated (and never reaches the graph). A route that runs an action (`api.actions`) takes the
dependency's `Budgets` and hands it to the action, which finds its spend paid (`SearchBudgets`, `WriteBudgets`,
`WitnessSearchBudgets`, `WitnessWriteBudgets`); the others attach it with `dependencies=[...]`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api import auth
from api.actions.budgets import Budgets, Who
from api.actions.refusals import NotAuthenticated
from api.actions.roles import must_be_member, must_own, must_write
from api.jwt_auth import IssuerUnavailable, JwtVerifier, looks_like_jwt
from api.ratelimit import Budget, check_address, limits_of, note_auth_failure
from api.services import Services
from graph.settings import Settings
from graph.visibility import Viewer

_bearer = HTTPBearer(auto_error=False)


def get_services(request: Request) -> Services:
    """The app's Services, set by `create_app`; tests build their own (a test graph, a tiny embedder)."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def current_viewer(request: Request, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> Viewer:
    """The user named by a valid bearer token (a development token or a JWT from the application in front); roles are
    read from the graph by each statement. An address that sent too many invalid tokens is refused (429) before its
    token is read; each invalid or expired one counts (an unreachable JWKS does not: 503, not the caller's fault)."""
    settings = get_services(request).settings
    check_address(request)
    if creds is None or creds.scheme.lower() != "bearer":
        raise HTTPException(401, "missing bearer token", headers={"WWW-Authenticate": "Bearer"})
    try:
        return Viewer(user_id=user_of_token(request, settings, creds.credentials))
    except auth.TokenError as exc:
        note_auth_failure(request)
        raise HTTPException(401, f"invalid token: {exc}", headers={"WWW-Authenticate": "Bearer"}) from exc
    except IssuerUnavailable as exc:
        retry = str(max(1, math.ceil(settings.auth_jwks_refetch_seconds)))
        raise HTTPException(503, str(exc), headers={"Retry-After": retry}) from exc


def user_of_token(request: Request, settings: Settings, token: str) -> str:
    """A development token (`mem1.`) is checked against MEMORA_SECRET; anything shaped like a JWT goes to the app's
    JWT verifier, and is refused when JWTs are not configured."""
    if not looks_like_jwt(token):
        return auth.verify(settings, token)
    verifier: JwtVerifier | None = request.app.state.jwt
    if verifier is None:
        raise auth.TokenError("JWTs are not accepted by this service (MEMORA_AUTH_* not configured)")
    return verifier.verify(token)


ViewerDep = Annotated[Viewer, Depends(current_viewer)]


def require_member(svc: Services, project_id: str, who: Viewer) -> None:
    """Any role will do; non-members get 403 (`NotAllowed`, answered by `api.errors`) whether or not the project
    exists."""
    must_be_member(svc, project_id, who)


def require_writer(svc: Services, project_id: str, who: Viewer) -> None:
    must_write(svc, project_id, who)


def require_owner(svc: Services, project_id: str, who: Viewer) -> None:
    must_own(svc, project_id, who)


def _member_of_path_project(project_id: str, who: ViewerDep, svc: ServicesDep) -> Viewer:
    require_member(svc, project_id, who)
    return who


def _owner_of_path_project(project_id: str, who: ViewerDep, svc: ServicesDep) -> Viewer:
    require_owner(svc, project_id, who)
    return who


ProjectMember = Annotated[Viewer, Depends(_member_of_path_project)]
"""The viewer, once checked to be a member of the path's `{project_id}` (path-only routes, see above)."""
ProjectOwner = Annotated[Viewer, Depends(_owner_of_path_project)]
"""The viewer, once checked to own the path's `{project_id}` (path-only routes, see above)."""


# --- rate limits (api/ratelimit.py) ---------------------------------------------------------------------------------


def _budgets(request: Request) -> Budgets:
    return Budgets(limits_of(request))


BudgetsDep = Annotated[Budgets, Depends(_budgets)]
"""The app's buckets, nothing paid yet: for the web pages, whose actions pay once the page has read its input."""


def _paid(request: Request, kind: Budget, key: Hashable) -> Budgets:
    return Budgets(limits_of(request)).prepaid(kind, key)


def _limit_searches(request: Request, who: ViewerDep) -> Budgets:
    return _paid(request, "search", Who.user(who).key)


def _limit_writes(request: Request, who: ViewerDep) -> Budgets:
    return _paid(request, "write", Who.user(who).key)


def _limit_reads(request: Request, who: ViewerDep) -> Budgets:
    return _paid(request, "read", Who.user(who).key)


def _witness_guard(request: Request, token: str, kind: Budget | None) -> Iterator[Budgets]:
    """For `/v1/w/{token}` routes: the address check; one from the budget of the grant a correctly signed link names
    (the link itself is still checked by the route, after the body: a 422 comes before a 401); and a link the route
    refused (`NotAuthenticated`, or any 401) counted as a failed authentication."""
    check_address(request)
    budgets = Budgets(limits_of(request))
    if kind is not None:
        try:
            grant_id: str | None = auth.verify_witness(get_services(request).settings, token)
        except auth.TokenError:
            grant_id = None
        if grant_id is not None:
            budgets.prepaid(kind, ("witness", grant_id))
    try:
        yield budgets
    except NotAuthenticated:
        note_auth_failure(request)
        raise
    except HTTPException as exc:
        if exc.status_code == 401:
            note_auth_failure(request)
        raise


def _witness_search(request: Request, token: str) -> Iterator[Budgets]:
    yield from _witness_guard(request, token, "search")


def _witness_write(request: Request, token: str) -> Iterator[Budgets]:
    yield from _witness_guard(request, token, "write")


def _witness_read(request: Request, token: str) -> Iterator[Budgets]:
    yield from _witness_guard(request, token, None)


SearchBudget = Depends(_limit_searches)
"""POST /v1/search: one from the verified user's search budget (after the token check, before the body)."""
WriteBudget = Depends(_limit_writes)
"""Entry and entity writes: one from the verified user's write budget."""
ReadBudget = Depends(_limit_reads)
"""Reads that cost far more than one row (periods, summary, analytics, candidates, listings, neighbours): one from the
verified user's read budget, so no member can keep the service and Neo4j busy with them."""
WitnessSearchBudget = Depends(_witness_search)
"""POST /v1/w/{token}/search: one from the grant's search budget; failed links counted against the address."""
WitnessWriteBudget = Depends(_witness_write)
"""POST /v1/w/{token}/entries: one from the grant's write budget; failed links counted against the address."""
WitnessRead = Depends(_witness_read)
"""GET /v1/w/{token}/entries/...: no budget, but the address check and failed links counted."""
SearchBudgets = Annotated[Budgets, SearchBudget]
"""`SearchBudget`, for the route to hand to its action."""
WriteBudgets = Annotated[Budgets, WriteBudget]
ReadBudgets = Annotated[Budgets, ReadBudget]
WitnessSearchBudgets = Annotated[Budgets, WitnessSearchBudget]
WitnessWriteBudgets = Annotated[Budgets, WitnessWriteBudget]
