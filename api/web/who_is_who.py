"""An owner's "who is who" from the people page: which person of the project a member is, said or taken back. Both
run the actions the API's member-persons routes run, as the viewer (owner only; the person must be one every member
may know of). A refusal is said in a sentence of the page's language naming what was typed, never the API's English
detail: not a member, no person of that name the owner knows (hidden and missing alike), a place or thing of that
name, a person some members may not know of yet, or nothing to take back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from api.actions import entities, member_people
from api.actions.refusals import Invalid, NotFound
from api.actions.roles import must_own
from api.models.member_people import MemberPersonIn
from api.services import Services
from api.web.review import names_of
from api.web.worded import WordedRefusal
from graph.members import role_of
from graph.textnorm import fold
from graph.visibility import Viewer


@dataclass(frozen=True)
class Said:
    """The form as the page sent it: the member, the person typed, and whether to say it or take it back."""

    user_id: str
    person: str
    action: Literal["link", "unlink"]


class WhoRefused(WordedRefusal):
    """A change refused before anything changed."""


def change(svc: Services, project_id: str, who: Viewer, said: Said) -> None:
    """The change, or `WhoRefused`; the person is looked for among the entities the owner knows first, so what is
    refused is refused in words before the graph is asked to change."""
    must_own(svc, project_id, who)  # anyone else is refused for their role, whatever the form says
    if role_of(svc.graph, project_id, said.user_id) is None:
        raise WhoRefused(404, "who_not_member", member=said.user_id)
    if said.action == "unlink":
        try:
            member_people.unlink_person(svc, who, project_id, said.user_id)
        except NotFound as exc:
            raise WhoRefused(404, "who_not_linked", member=said.user_id) from exc
        return
    typed = said.person.strip()
    if not typed:
        raise WhoRefused(422, "who_empty", member=said.user_id)
    key = fold(typed)
    called = [e for e in entities.known(svc, who, project_id) if key in names_of(e)]
    person = next((e for e in called if e.kind == "person"), None)
    if person is None and called:
        raise WhoRefused(422, "who_not_a_person", person=called[0].name, kind=called[0].kind)
    if person is None:
        raise WhoRefused(422, "who_unknown", person=typed)
    try:
        member_people.link_person(svc, who, project_id, MemberPersonIn(user_id=said.user_id, person=person.id))
    except Invalid as exc:
        raise WhoRefused(422, "who_not_shared", person=person.name) from exc
    except NotFound as exc:
        raise WhoRefused(404, "who_gone", member=said.user_id, person=person.name) from exc
