"""`POST /v1/search`: the API's door to `queries.search.door.hybrid_search`, the one retrieval path."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date

from fastapi import APIRouter, HTTPException

from api.deps import SearchBudget, ServicesDep, ViewerDep
from api.models_search import SearchFilters, SearchRequest, SearchResponseOut
from api.ratelimit import rate_limited
from api.responses import errors
from api.telemetry import after_search
from queries.search.door import hybrid_search
from queries.search.request import DEFAULT_CHANNELS, AccessDenied, Filters, Scope, SearchOptions

router = APIRouter(tags=["search"])


@router.post(
    "/v1/search",
    response_model=SearchResponseOut,
    dependencies=[SearchBudget],
    responses={**errors(403), **rate_limited("the caller's search budget is spent")},
)
def search(body: SearchRequest, who: ViewerDep, svc: ServicesDep) -> SearchResponseOut:
    """Hybrid search over the entries the caller may see, in one project or all of theirs (docs/search.md)."""
    options = SearchOptions(
        k=body.k,
        include_chunks=body.include_chunks,
        explain=body.explain,
        filters=_filters(body.filters),
        channels=tuple(body.channels) if body.channels else DEFAULT_CHANNELS,
        diversify=body.diversify,
        rerank=body.rerank,
        ignore=tuple(body.ignore),
    )
    try:
        resp = hybrid_search(
            svc.graph,
            svc.embedder,
            svc.settings,
            who,
            body.q,
            Scope(project_id=body.project_id, multi_project=body.multi_project),
            options,
        )
    except AccessDenied as exc:
        raise HTTPException(403, str(exc)) from exc
    out = SearchResponseOut.model_validate(asdict(resp))
    out.search_id = after_search(svc, who, body.q, None if body.multi_project else body.project_id, resp, body.rerank)
    return out


def _filters(f: SearchFilters) -> Filters:
    """The caller's hard filters; `occurred_year` narrows the date range to that year."""
    date_from, date_to = f.date_from, f.date_to
    if f.occurred_year is not None:
        date_from = max(date_from or date.min, date(f.occurred_year, 1, 1))
        date_to = min(date_to or date.max, date(f.occurred_year, 12, 31))
    return Filters(
        date_from=date_from,
        date_to=date_to,
        intimacy_max=f.intimacy_max,
        person_ids=f.person_ids,
        persons=f.persons,
        place_ids=f.place_ids,
        places=f.places,
        author_ids=f.author_ids,
        kinds=list(f.kinds) if f.kinds else None,
        tags=f.tags,
        period_id=f.period_id,
    )
