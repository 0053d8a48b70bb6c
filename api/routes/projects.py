"""`/v1/projects`: create a project (the caller owns it), the caller's projects, a project's name and hemisphere, its
members (owner manages them; a project always keeps at least one owner) and the person each member is, leaving one
and deleting one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Response

from api.actions import member_people, projects
from api.deps import ProjectMember, ProjectOwner, ServicesDep, ViewerDep, WriteBudget, require_owner
from api.models.core import MemberIn, MemberOut, MembershipOut, ProjectIn, ProjectOut, ProjectPatch
from api.models.forgetting import LeaveIn, LeaveOut, ProjectDeletedOut
from api.models.member_people import MemberPersonIn, MemberPersonOut
from api.ratelimit import rate_limited
from api.responses import ErrorOut, errors
from graph.member_people import is_linked
from graph.members import (
    LastOwner,
    NoSuchProject,
    ProjectExists,
    change_member,
    create_project,
    members_of,
    update_project,
)
from graph.project_deletion import delete_project, visible_entries
from ingest.departure import NotMember, leave_project

router = APIRouter(prefix="/v1/projects", tags=["projects"])

LAST_OWNER = "a project keeps at least one owner: make another member owner first"
_CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {"model": ErrorOut, "description": "the change would leave the project without an owner"}
}


@router.get("", response_model=list[MembershipOut])
def my_projects(who: ViewerDep, svc: ServicesDep) -> list[MembershipOut]:
    """The caller's projects and their role in each."""
    return projects.memberships(svc, who)


@router.post(
    "",
    response_model=ProjectOut,
    status_code=201,
    dependencies=[WriteBudget],
    responses={
        **rate_limited("the caller's write budget is spent"),
        409: {"model": ErrorOut, "description": "a project with this id already exists"},
    },
)
def post_project(body: ProjectIn, who: ViewerDep, svc: ServicesDep) -> ProjectOut:
    """Create a project; the caller becomes its owner. Without `id`, one is made from the name and 6 random hex
    digits. A taken id answers 409 whoever holds it (project ids are one namespace: see docs/SECURITY.md)."""
    try:
        row = create_project(svc.graph, body.id, body.name, body.hemisphere, who.user_id or "")
    except ProjectExists as exc:
        raise HTTPException(409, "a project with this id already exists; choose another id or omit it") from exc
    return ProjectOut.model_validate(row)


@router.patch("/{project_id}", response_model=ProjectOut, responses=errors(403))
def patch_project(project_id: str, body: ProjectPatch, who: ViewerDep, svc: ServicesDep) -> ProjectOut:
    """Rename the project or set its hemisphere (what "summer" means in its queries); owner only."""
    require_owner(svc, project_id, who)
    row = update_project(svc.graph, project_id, body.name, body.hemisphere)
    if row is None:
        raise HTTPException(404, "no such project")
    return ProjectOut.model_validate(row)


@router.get("/{project_id}/members", response_model=list[MemberOut], responses=errors(403))
def list_members(project_id: str, who: ProjectMember, svc: ServicesDep) -> list[MemberOut]:
    """The project's members and roles; members only."""
    return [MemberOut.model_validate(m) for m in members_of(svc.graph, project_id)]


@router.put("/{project_id}/members", response_model=MemberOut, responses={**errors(403), **_CONFLICT})
def put_member(project_id: str, body: MemberIn, who: ViewerDep, svc: ServicesDep) -> MemberOut:
    """Add a member or change their role; owner only. A missing project is 403 and is never created; the last owner
    cannot be demoted (409)."""
    require_owner(svc, project_id, who)
    try:
        change_member(svc.graph, project_id, body.user_id, body.role)
    except LastOwner as exc:
        raise HTTPException(409, LAST_OWNER) from exc
    except NoSuchProject as exc:  # deleted between the role check and the change
        raise HTTPException(404, "no such project") from exc
    return MemberOut(user_id=body.user_id, role=body.role)


@router.delete(
    "/{project_id}/members/{user_id:path}",
    status_code=204,
    response_model=None,
    responses={**errors(403, 404), **_CONFLICT},
)
def delete_member(project_id: str, user_id: str, who: ProjectOwner, svc: ServicesDep) -> Response:
    """Remove a member; owner only. The last owner cannot leave (409). Their entries stop counting the person they
    were (re-linked in the background)."""
    linked = is_linked(svc.graph, project_id, user_id)
    try:
        before = change_member(svc.graph, project_id, user_id, None)
    except LastOwner as exc:
        raise HTTPException(409, LAST_OWNER) from exc
    except NoSuchProject as exc:
        raise HTTPException(404, "no such member") from exc
    if before is None:
        raise HTTPException(404, "no such member")
    if linked:
        svc.relink_jobs.submit(project_id, who.user_id or "")
    return Response(status_code=204)


_PERSON_WRITE = {**errors(403, 404), **rate_limited("the caller's write budget is spent")}


@router.get("/{project_id}/member-persons", response_model=list[MemberPersonOut], responses=errors(403))
def list_member_persons(project_id: str, who: ProjectMember, svc: ServicesDep) -> list[MemberPersonOut]:
    """The members and the person of the project each one is (null when none); members only."""
    return member_people.member_persons(svc, who, project_id)


@router.put(
    "/{project_id}/member-persons",
    response_model=MemberPersonOut,
    dependencies=[WriteBudget],
    responses={
        **_PERSON_WRITE,
        404: {"model": ErrorOut, "description": "no such member, or no person of this name the caller may see"},
    },
)
def put_member_person(project_id: str, body: MemberPersonIn, who: ViewerDep, svc: ServicesDep) -> MemberPersonOut:
    """Say which person of the project a member is (replacing what they were); owner only. The person must be one
    every member may know of (422 otherwise, and for a place or thing). Their entries then count the person among
    theirs (re-linked in the background: `relink`)."""
    return member_people.link_person(svc, who, project_id, body)


@router.delete(
    "/{project_id}/member-persons/{user_id:path}",
    response_model=MemberPersonOut,
    dependencies=[WriteBudget],
    responses=_PERSON_WRITE,
)
def delete_member_person(project_id: str, user_id: str, who: ViewerDep, svc: ServicesDep) -> MemberPersonOut:
    """Take back which person a member is; owner only (404 when they are none). Their entries stop counting the
    person once re-linked (`relink`)."""
    return member_people.unlink_person(svc, who, project_id, user_id)


@router.post(
    "/{project_id}/leave",
    response_model=LeaveOut,
    dependencies=[WriteBudget],
    responses={**errors(403), **_CONFLICT, **rate_limited("the caller's write budget is spent")},
)
def leave(project_id: str, body: LeaveIn, who: ViewerDep, svc: ServicesDep) -> LeaveOut:
    """Leave the project; with `delete_entries`, first delete every entry the caller wrote in it (each with what it
    alone left behind) and the names they declared or rejected. The only owner cannot leave (409), and then nothing
    is deleted."""
    linked = is_linked(svc.graph, project_id, who.user_id or "")
    try:
        gone = leave_project(svc.graph, svc.embedder, project_id, who.user_id or "", body.delete_entries)
    except NotMember as exc:
        raise HTTPException(403, "not a member of this project") from exc
    except LastOwner as exc:
        raise HTTPException(409, LAST_OWNER + ", or delete the project") from exc
    if linked:  # their entries stop counting the person they were; nobody reads this job
        svc.relink_jobs.submit(project_id, "")
    return LeaveOut(
        project_id=project_id,
        role=gone.role,
        entries_deleted=gone.entries_deleted,
        declarations_deleted=gone.declarations_deleted,
    )


@router.delete(
    "/{project_id}",
    response_model=ProjectDeletedOut,
    dependencies=[WriteBudget],
    responses={**errors(403), **rate_limited("the caller's write budget is spent")},
)
def remove_project(project_id: str, who: ProjectOwner, svc: ServicesDep) -> ProjectDeletedOut:
    """Delete the project and everything in it and derived from it, every author's entries included; owner only.
    Answers how many of the entries the caller could see went. Cut short, it is finished by asking again."""
    seen = visible_entries(svc.graph, project_id, who)
    removed = delete_project(svc.graph, project_id)
    return ProjectDeletedOut(project_id=project_id, entries_deleted=seen, members_removed=removed["members"])
