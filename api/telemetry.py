"""What the search routes do after a search: a `search_id` (and, sampled, a retrieval log record, see
`queries/telemetry/search_log.py`) and the search's stage latencies in /metrics."""

from __future__ import annotations

from api.metrics import observe_search
from api.services import Services
from graph.visibility import Viewer
from queries.search.request import SearchResponse
from queries.telemetry.search_log import record


def after_search(
    svc: Services, viewer: Viewer, query: str, project_id: str | None, resp: SearchResponse, rerank: str
) -> str:
    """The search's id. A search over all the caller's projects is logged with the projects of its results."""
    observe_search(resp.latency_ms, resp.cached)
    projects = [project_id] if project_id else sorted({r.project_id for r in resp.results})
    return record(svc.graph, svc.settings, viewer, query, projects, resp, rerank)
