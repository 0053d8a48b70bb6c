"""`GET /v1/projects/{project_id}/analytics/similar`: persons, places, things and chapters like a given one, by their
entity vectors as the viewer may see them (graph/entity_vectors.py, queries/entities/similar.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query

from api.deps import ReadBudget, ServicesDep, ViewerDep, require_member
from api.models.entity_vectors import SimilarItemOut, SimilarOut, SimilarRef
from api.ratelimit import READ_LIMITED
from api.responses import errors
from queries.entities.similar import find_target, similar

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
    require_member(svc, project_id, who)
    model = svc.embedder.slug
    target = find_target(svc.graph, who, project_id, entity, model)
    if target is None:
        raise HTTPException(404, "no such person, place, thing or chapter")
    tid, name, tkind = target
    found = similar(svc.graph, who, project_id, tid, model, kind or tkind, limit)
    return SimilarOut(
        entity=SimilarRef(id=tid, name=name, kind=tkind),  # type: ignore[arg-type]
        similar=[
            SimilarItemOut(
                id=s.id,
                name=s.name,
                kind=s.kind,  # type: ignore[arg-type]
                score=s.score,
                entries=s.entries,
            )
            for s in found
        ],
    )
