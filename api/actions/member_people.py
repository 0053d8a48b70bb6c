"""Which person of a project a member is (graph/member_people.py): an owner declares it or takes it back, and the
project's entries are re-linked, so the member's entries count them among their persons; any member reads the
links. The person is found among the entities the owner may see, and must be one every member may know of: a link is
a declaration every member sees, so it never tells them of a person only hidden sources name."""

from __future__ import annotations

from api.actions.entities import job_out
from api.actions.refusals import Invalid, NotFound
from api.actions.roles import must_be_member, must_own
from api.actions.write import field_error
from api.models.member_people import MemberPersonIn, MemberPersonOut
from api.services import Services
from graph import member_people
from graph.entity_merge import find_entity
from graph.members import role_of
from graph.visibility import Viewer

NOT_SHARED = (
    "{name} is known only through entries or names some members may not see, and every member sees who a member "
    "is: declare {name} for the circle first (POST …/entities with audience circle)"
)


def link_person(svc: Services, viewer: Viewer, project_id: str, body: MemberPersonIn) -> MemberPersonOut:
    """The owner says `body.user_id` is the person `body.person`; their entries are re-linked in the background."""
    must_own(svc, project_id, viewer)
    role = role_of(svc.graph, project_id, body.user_id)
    if role is None:
        raise NotFound(f"{body.user_id} is not a member of this project")
    entity = find_entity(svc.graph, project_id, viewer, body.person, "person")
    if entity is None:
        other = find_entity(svc.graph, project_id, viewer, body.person, None)
        if other is not None:
            raise Invalid([field_error("person", f"{body.person} is a {other.kind}, not a person")])
        raise NotFound(f"no person called {body.person} in this project")
    try:
        linked = member_people.link(svc.graph, project_id, body.user_id, entity.id, viewer.user_id)
    except member_people.NotShared as exc:
        raise Invalid([field_error("person", NOT_SHARED.format(name=entity.name))]) from exc
    if linked is None:  # the member or the person went meanwhile
        raise NotFound(f"{body.user_id} is not a member of this project, or {body.person} is gone")
    job = svc.relink_jobs.submit(project_id, viewer.user_id or "")
    out = {"user_id": body.user_id, "role": role, "person_id": linked.id, "person": linked.name}
    return MemberPersonOut.model_validate({**out, "relink": job_out(job)})


def unlink_person(svc: Services, viewer: Viewer, project_id: str, user_id: str) -> MemberPersonOut:
    """The owner takes back who `user_id` is; their entries stop counting that person once re-linked."""
    must_own(svc, project_id, viewer)
    if member_people.unlink(svc.graph, project_id, user_id) is None:
        raise NotFound(f"{user_id} is not linked to a person in this project")
    job = svc.relink_jobs.submit(project_id, viewer.user_id or "")
    out = {"user_id": user_id, "role": role_of(svc.graph, project_id, user_id), "person_id": None, "person": None}
    return MemberPersonOut.model_validate({**out, "relink": job_out(job)})


def member_persons(svc: Services, viewer: Viewer, project_id: str) -> list[MemberPersonOut]:
    """Every member with the person they are, for a member of the project."""
    must_be_member(svc, project_id, viewer)
    return [MemberPersonOut.model_validate(r) for r in member_people.member_persons(svc.graph, project_id)]
