"""`POST /v1/search`: the API's door to the search action (`api.actions.search`), the one retrieval path."""

from __future__ import annotations

from fastapi import APIRouter

from api.actions import search as searching
from api.actions.budgets import Who
from api.deps import SearchBudgets, ServicesDep, ViewerDep
from api.models.search import SearchRequest, SearchResponseOut
from api.ratelimit import rate_limited
from api.responses import errors

router = APIRouter(tags=["search"])


@router.post(
    "/v1/search",
    response_model=SearchResponseOut,
    responses={**errors(403), **rate_limited("the caller's search budget is spent")},
)
def search(body: SearchRequest, who: ViewerDep, svc: ServicesDep, budgets: SearchBudgets) -> SearchResponseOut:
    """Hybrid search over the entries the caller may see, in one project or all of theirs (docs/search.md)."""
    return searching.search(svc, budgets, Who.user(who), searching.asked_of(body))
