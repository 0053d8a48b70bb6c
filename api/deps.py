"""What routes depend on: the Services object, the current viewer (from the bearer token) and role checks.

Role checks come in two forms, so that every request is answered with the same status as before the split:
FastAPI solves dependencies *before* it validates the body and query, so a dependency that refuses (403) would win over
a 422 the service has always given first. `ProjectMember` and `ProjectOwner` are dependencies for routes whose only
inputs are path parameters; a route with a body or query parameters calls `require_member`, `require_writer` or
`require_owner` as its first line instead.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api import auth
from api.services import Services
from graph.members import role_of
from graph.visibility import Viewer

_bearer = HTTPBearer(auto_error=False)


def get_services(request: Request) -> Services:
    """The app's Services, set by `create_app`; tests build their own (a test graph, a tiny embedder)."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def current_viewer(request: Request,
                   creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> Viewer:
    """The user named by a valid bearer token; roles are read from the graph by each statement."""
    settings = get_services(request).settings
    if creds is None or creds.scheme.lower() != "bearer":
        raise HTTPException(401, "missing bearer token", headers={"WWW-Authenticate": "Bearer"})
    try:
        return Viewer(user_id=auth.verify(settings, creds.credentials))
    except auth.TokenError as exc:
        raise HTTPException(401, f"invalid token: {exc}", headers={"WWW-Authenticate": "Bearer"}) from exc


ViewerDep = Annotated[Viewer, Depends(current_viewer)]


def require_member(svc: Services, project_id: str, who: Viewer) -> None:
    """Any role will do; non-members get 403 whether or not the project exists."""
    if role_of(svc.graph, project_id, who.user_id or "") is None:
        raise HTTPException(403, "not a member of this project")


def require_writer(svc: Services, project_id: str, who: Viewer) -> None:
    if role_of(svc.graph, project_id, who.user_id or "") not in ("owner", "coauthor"):
        raise HTTPException(403, "only the project's owner and coauthors can write to it")


def require_owner(svc: Services, project_id: str, who: Viewer) -> None:
    if role_of(svc.graph, project_id, who.user_id or "") != "owner":
        raise HTTPException(403, "only the project's owner manages members")


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
