"""`GET /v1/neighbours/{entry_id}`: the entries just before and after one that the caller may see, for reading on
(queries/entry_neighbours.py). An entry the caller may not see answers 404 like a missing one."""

from __future__ import annotations

from fastapi import APIRouter

from api.actions.entries import neighbours
from api.deps import ReadBudget, ServicesDep, ViewerDep
from api.models.neighbours import NeighboursOut
from api.ratelimit import READ_LIMITED
from api.responses import errors
from api.routes.entries import EntryIdPath

router = APIRouter(prefix="/v1/neighbours", tags=["entries"])


@router.get(
    "/{entry_id:path}",
    response_model=NeighboursOut,
    dependencies=[ReadBudget],
    responses={**errors(404), **READ_LIMITED},
)
def get_neighbours(entry_id: EntryIdPath, who: ViewerDep, svc: ServicesDep) -> NeighboursOut:
    """The turns before and after in the entry's conversation, or the entries before and after it in time; each the
    nearest one the caller may see."""
    return neighbours(svc, who, entry_id)
