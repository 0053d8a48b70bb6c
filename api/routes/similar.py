"""`GET /v1/projects/{project_id}/analytics/similar`: persons, places, things and chapters like a given one, by their
entity vectors as the viewer may see them (graph/entity_vectors.py, queries/entities/similar.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from api.actions import entities
from api.deps import ReadBudget, ServicesDep, ViewerDep
from api.models.entity_vectors import SimilarOut
from api.ratelimit import READ_LIMITED
from api.responses import errors

router = APIRouter(prefix="/v1/projects/{project_id}", tags=["entities"], responses=errors(403, 404))


@router.get("/analytics/similar", response_model=SimilarOut, dependencies=[ReadBudget], responses=READ_LIMITED)
def get_similar(
    project_id: str,
    who: ViewerDep,
    svc: ServicesDep,
    entity: Annotated[str, Query(max_length=200)],
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
    kind: Annotated[Literal["person", "place", "thing", "period"] | None, Query()] = None,
) -> SimilarOut:
    """Entities (of `kind`; by default the same kind as `entity`) whose vectors, built from the entries the viewer
    may see, are closest to `entity`'s ("otra época como la de Berlín"). Vectors follow the entries within a
    refresh of the background worker (or `memora entity refresh`)."""
    return entities.similar_to(svc, who, project_id, entity, limit, kind)
