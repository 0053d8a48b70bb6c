"""What a member reads about persons, places and things: those they know of, the most important, and for a writer
the names recognition found, to review. `GET /v1/projects/{p}/entities`, `/analytics/importance` and
`/entities/candidates` answer these, and the web's people page and the MCP `entity_question` tool read them. Unpaid:
the door pays its read (a route's budget dependency, `api.actions.read`)."""

from __future__ import annotations

from typing import Literal

from api.actions.roles import must_be_member, must_write
from api.models.core import EntityOut, ImportanceOut
from api.models.entity_review import CandidateOut
from api.services import Services
from graph.analytics import importance
from graph.candidates import list_candidates
from graph.entities import list_visible_entities
from graph.visibility import Viewer

EntityKind = Literal["person", "place", "thing"]


def known(svc: Services, viewer: Viewer, project_id: str) -> list[EntityOut]:
    """With their aliases, as the viewer knows them: named by entries they may see or by declarations whose
    audience includes them."""
    must_be_member(svc, project_id, viewer)
    return [
        EntityOut(id=e.id, kind=e.kind, name=e.name, aliases=list(e.aliases), called=list(e.called))  # type: ignore[arg-type]
        for e in list_visible_entities(svc.graph, [project_id], viewer)
    ]


def most_important(
    svc: Services, viewer: Viewer, project_id: str, kind: EntityKind | None = None, limit: int = 10
) -> list[ImportanceOut]:
    """Visible entries × (1 + chapters + years) they span, so a person of every era outranks a burst."""
    must_be_member(svc, project_id, viewer)
    return [ImportanceOut.model_validate(row) for row in importance(svc.graph, viewer, project_id, kind, limit)]


def candidates(svc: Services, viewer: Viewer, project_id: str, limit: int = 50) -> list[CandidateOut]:
    """Names in the entries the viewer may see that are no known entity, most mentioned first; writers only, who
    are the ones to confirm or reject them."""
    must_write(svc, project_id, viewer)
    return [CandidateOut.model_validate(c.as_dict()) for c in list_candidates(svc.graph, project_id, viewer, limit)]
