"""The hybrid search, as every door asks it: `POST /v1/search` and the witness search, the web's search and witness
pages, the MCP `search` tool and `memora search`. One from the caller's search budget, then
`queries.search.door.hybrid_search`, then the search's id and metrics (`api.telemetry`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import date

from api.actions.budgets import Budgets, Who, given
from api.models.core import WitnessSearchRequest
from api.models.search import SearchFilters, SearchRequest, SearchResponseOut
from api.ratelimit import Budget
from api.services import Services
from api.telemetry import after_search
from graph.witnesses import Grant
from queries.search import door
from queries.search.request import Filters, Scope, SearchOptions

BUDGET: Budget = "search"


@dataclass(frozen=True)
class Asked:
    """One search: the question, where, how; `project_ids` pins the projects searched (a witness's one project,
    whatever its membership)."""

    q: str
    scope: Scope
    options: SearchOptions
    project_ids: list[str] | None = None


def search(
    svc: Services, budgets: Budgets, who: Who, asked: Asked | Callable[[], Asked], telemetry: bool = True
) -> SearchResponseOut:
    """The answer, or `AccessDenied` (a project the viewer is not a member of) or `RateLimited`. `telemetry` off
    (the CLI): no search id, no log record, no metrics."""
    budgets.spend(BUDGET, who.key)
    a = given(asked)
    resp = door.hybrid_search(
        svc.graph, svc.embedder, svc.settings, who.viewer, a.q, a.scope, a.options, project_ids=a.project_ids
    )
    out = SearchResponseOut.model_validate(asdict(resp))
    if telemetry:
        project_id = None if a.scope.multi_project else a.scope.project_id
        out.search_id = after_search(svc, who.viewer, a.q, project_id, resp, a.options.rerank)
    return out


def asked_of(body: SearchRequest) -> Asked:
    """A `POST /v1/search` body (the MCP tool's arguments, the web page's box) as a search."""
    options = SearchOptions(
        k=body.k,
        include_chunks=body.include_chunks,
        explain=body.explain,
        filters=filters_of(body.filters),
        channels=tuple(body.channels) if body.channels else None,
        diversify=body.diversify,
        rerank=body.rerank,
        ignore=tuple(body.ignore),
    )
    return Asked(body.q, Scope(project_id=body.project_id, multi_project=body.multi_project), options)


def witness_asked(grant: Grant, body: WitnessSearchRequest) -> Asked:
    """A witness's search: the link's chapter of its project, whatever the body says."""
    options = SearchOptions(k=body.k, include_chunks=body.include_chunks, filters=Filters(period_id=grant.period_id))
    return Asked(body.q, Scope(project_id=grant.project_id), options, project_ids=[grant.project_id])


def filters_of(f: SearchFilters) -> Filters:
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
