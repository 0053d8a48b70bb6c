"""`GET /v1/neighbours/{entry_id}`: the entries just before and after one that the caller may see, for reading on
(queries/entry_neighbours.py). An entry the caller may not see answers 404 like a missing one."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from api.deps import ReadBudget, ServicesDep, ViewerDep
from api.errors import NOT_FOUND
from api.models.neighbours import NeighbourOut, NeighboursOut
from api.ratelimit import READ_LIMITED
from api.responses import errors
from api.routes.entries import EntryIdPath
from queries.entry_neighbours import Neighbour, entry_neighbours

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
    found = entry_neighbours(svc.graph, who, entry_id)
    if found is None:
        raise HTTPException(404, NOT_FOUND)
    return NeighboursOut(entry_id=entry_id, by=found.by, before=_out(found.before), after=_out(found.after))


def _out(n: Neighbour | None) -> NeighbourOut | None:
    return None if n is None else NeighbourOut(entry_id=n.entry_id, title=n.title, occurred_on=n.occurred_on)
