"""Prometheus metrics (`GET /metrics`, prometheus-client): requests and latency per route, search stage latencies,
search-cache outcomes and the embedding queue depth.

Nothing here is per project or per user: a route is labelled by its template (`/v1/entries/{entry_id}`, never the
id), a stage by its name, and the queue depth is one number for the whole service. Who may scrape is decided by
`api/routes/metrics.py` (a token, or an explicit open flag).

Every label comes from a closed set the code owns, never from what a client sent: a client picks its method and
path, and a label made from them would be a new series kept for the life of the process (memory anyone could fill
without a token). So an unknown method is `other`, a path no route answered is `unmatched`, and a status outside
100-599 is `other`.
"""

from __future__ import annotations

import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as AsgiScope

REGISTRY = CollectorRegistry(auto_describe=True)
REQUESTS = Counter(
    "memora_http_requests",
    "HTTP requests answered, by route template, method and status.",
    ["route", "method", "status"],
    registry=REGISTRY,
)
REQUEST_SECONDS = Histogram(
    "memora_http_request_duration_seconds",
    "Time to answer a request, by route template.",
    ["route", "method"],
    registry=REGISTRY,
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
SEARCH_STAGE_SECONDS = Histogram(
    "memora_search_stage_duration_seconds",
    "Time spent in each search stage (parse, embed, dense, fulltext, fuse, ...).",
    ["stage"],
    registry=REGISTRY,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
SEARCH_CACHE = Counter(
    "memora_search_cache",
    "Searches answered from the result cache (hit) or not (miss).",
    ["outcome"],
    registry=REGISTRY,
)
EMBEDDING_QUEUE = Gauge(
    "memora_embedding_queue_depth",
    "Chunks still waiting for the active model's vector (all projects).",
    registry=REGISTRY,
)
STAGE_NAME_MAX = 40
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"
OTHER = "other"


def observe_search(latency_ms: dict[str, float], cached: bool) -> None:
    SEARCH_CACHE.labels("hit" if cached else "miss").inc()
    for stage, ms in latency_ms.items():
        if len(stage) <= STAGE_NAME_MAX:  # stage names are code's, never user text; the bound is a second guard
            SEARCH_STAGE_SECONDS.labels(stage).observe(ms / 1000)


class RequestMetrics:
    """Count and time every HTTP request by the template of the route that answered it ("unmatched" otherwise)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = [500]

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route, method = route_label(scope), method_label(scope)
            REQUESTS.labels(route, method, status_label(status[0])).inc()
            REQUEST_SECONDS.labels(route, method).observe(time.perf_counter() - started)


def route_label(scope: AsgiScope) -> str:
    """The template of the route that answered (the app's own, a closed set), or `unmatched`."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) and path else UNMATCHED


def method_label(scope: AsgiScope) -> str:
    method = scope.get("method")
    return method if method in METHODS else OTHER


def status_label(status: int) -> str:
    return str(status) if 100 <= status <= 599 else OTHER
