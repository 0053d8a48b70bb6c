"""A writer's rejection of a name messages gave a person ("Hey Mom!" said to an aunt): it stops being one of their
names for whoever may see the rejection (graph/called.py). `POST /v1/projects/{p}/entities/{entity}/called/{name}/
reject` and the web's entity page run it. Unpaid: the door pays its write."""

from __future__ import annotations

from api.actions.entities import visible_entity
from api.actions.refusals import NotFound
from api.actions.roles import must_write
from api.models.entity_review import CalledDecisionOut
from api.services import Services
from graph.called import called_sources, reject_called
from graph.visibility import Viewer


def reject(svc: Services, viewer: Viewer, project_id: str, entity: str, name: str) -> CalledDecisionOut:
    """Writers only; a person the caller may not see, or a name they see no message give them, is a 404."""
    must_write(svc, project_id, viewer)
    person = visible_entity(svc, viewer, project_id, entity)
    found = called_sources(svc.graph, project_id, viewer, person.id, name) if person.kind == "person" else None
    if found is None:
        raise NotFound(f"no message the caller may see calls {person.name} {name}")
    reject_called(svc.graph, project_id, person.id, found, viewer.user_id or "")
    return CalledDecisionOut(id=person.id, entity=person.name, names=found.names, status="rejected")
