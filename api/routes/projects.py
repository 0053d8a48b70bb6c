"""`/v1/projects`: the caller's projects, a project's name and hemisphere, and its members (owner manages them)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Response

from api.deps import ProjectMember, ProjectOwner, ServicesDep, ViewerDep, require_owner
from api.models import MemberIn, MemberOut, MembershipOut, ProjectOut, ProjectPatch
from graph.members import members_of, projects_of, remove_member, set_member, update_project

router = APIRouter(prefix="/v1/projects", tags=["projects"])


@router.get("", response_model=list[MembershipOut])
def my_projects(who: ViewerDep, svc: ServicesDep) -> list[MembershipOut]:
    return [MembershipOut.model_validate(p) for p in projects_of(svc.graph, who.user_id or "")]


@router.patch("/{project_id}", response_model=ProjectOut)
def patch_project(project_id: str, body: ProjectPatch, who: ViewerDep, svc: ServicesDep) -> ProjectOut:
    require_owner(svc, project_id, who)
    row = update_project(svc.graph, project_id, body.name, body.hemisphere)
    if row is None:
        raise HTTPException(404, "no such project")
    return ProjectOut.model_validate(row)


@router.get("/{project_id}/members", response_model=list[MemberOut])
def list_members(project_id: str, who: ProjectMember, svc: ServicesDep) -> list[MemberOut]:
    return [MemberOut.model_validate(m) for m in members_of(svc.graph, project_id)]


@router.put("/{project_id}/members", response_model=MemberOut)
def put_member(project_id: str, body: MemberIn, who: ViewerDep, svc: ServicesDep) -> MemberOut:
    require_owner(svc, project_id, who)
    set_member(svc.graph, project_id, body.user_id, body.role)
    return MemberOut(user_id=body.user_id, role=body.role)


@router.delete("/{project_id}/members/{user_id:path}", status_code=204, response_model=None)
def delete_member(project_id: str, user_id: str, who: ProjectOwner, svc: ServicesDep) -> Response:
    if not remove_member(svc.graph, project_id, user_id):
        raise HTTPException(404, "no such member")
    return Response(status_code=204)
