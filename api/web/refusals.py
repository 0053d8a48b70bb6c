"""A role's refusal as a page that says the true reason (a reader may read but not write; only the author or the
owner may change an entry; a non-member is told only that), with the API's status (403) and its detail unchanged."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import Response

from api.actions.refusals import NotAllowed, Why
from api.actions.roles import WRITERS
from api.services import Services
from api.web.render import page
from api.web.session import WebSession
from graph.members import role_of

REASON_WORDS: dict[Why, str] = {
    "not_member": "forbidden",
    "reader": "forbidden_reader",
    "not_author": "forbidden_not_author",
    "not_owner": "forbidden_not_owner",
}


def refused_page(
    request: Request, session: WebSession, svc: Services, refusal: NotAllowed, project_id: str
) -> Response:
    """The refusal of `project_id`'s page; its menus are the member's, a non-member's none."""
    role = role_of(svc.graph, project_id, session.viewer.user_id or "")
    why = refusal.reason or _why(role)
    context = {"status": 403, "reason": REASON_WORDS[why], "role": role}
    if role is not None:
        context["project_id"] = project_id
    return page(request, "error.html", context, session, status=403)


def _why(role: str | None) -> Why:
    """For a refusal that carries no reason, the one the viewer's role gives: a writer refused an entry is not its
    author."""
    if role is None:
        return "not_member"
    return "not_author" if role in WRITERS else "reader"
