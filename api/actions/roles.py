"""The role checks of every door: the API's routes (through `api.deps`), the web pages, the MCP tools and the actions
themselves refuse with the same `NotAllowed`, which each door answers as the API's 403."""

from __future__ import annotations

from api.actions.refusals import NotAllowed, Why
from api.services import Services
from graph.members import role_of
from graph.visibility import Viewer

NOT_MEMBER = "not a member of this project"
WRITERS = ("owner", "coauthor")


def must_be_member(svc: Services, project_id: str, viewer: Viewer) -> None:
    """Any role will do; a non-member is refused whether or not the project exists, so neither can be told."""
    if role_of(svc.graph, project_id, viewer.user_id or "") is None:
        raise NotAllowed(NOT_MEMBER, "not_member")


def must_write(svc: Services, project_id: str, viewer: Viewer) -> None:
    role = role_of(svc.graph, project_id, viewer.user_id or "")
    if role not in WRITERS:
        raise NotAllowed("only the project's owner and coauthors can write to it", _why(role, "reader"))


def must_own(svc: Services, project_id: str, viewer: Viewer) -> None:
    role = role_of(svc.graph, project_id, viewer.user_id or "")
    if role != "owner":
        raise NotAllowed(
            "only the project's owner may do this (members, project settings, witnesses, export)",
            _why(role, "not_owner"),
        )


def _why(role: str | None, member: Why) -> Why:
    """A refusal's reason: a non-member is told only that, whatever was asked."""
    return "not_member" if role is None else member
