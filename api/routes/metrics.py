"""`GET /metrics`: Prometheus text format (api/metrics.py), for a scraper, not for users.

Off unless configured: with `MEMORA_METRICS_TOKEN` a scraper sends it as a bearer token (compared in constant time);
with `MEMORA_METRICS_OPEN=true` anyone who reaches the port may read it (a private network). Otherwise the route
answers 404, as if it did not exist; a missing or wrong token is 401 and counts against the address like any failed
authentication (api/ratelimit.py). The figures are service-wide (no project, user or entry id in any label), but
request rates and latencies still describe how the service is used, so they are not public by default.
Not in the OpenAPI document: it is an operator's endpoint, not part of the API.
"""

from __future__ import annotations

import contextlib
import hmac
import threading
import time

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from api.deps import ServicesDep
from api.metrics import EMBEDDING_QUEUE, REGISTRY
from api.ratelimit import check_address, note_auth_failure
from api.services import Services
from graph.db import UNAVAILABLE
from ingest.embedding_jobs import status

router = APIRouter(tags=["health"])
QUEUE_REFRESH_SECONDS = 15.0
_queue_lock = threading.Lock()


def _check(request: Request, svc: Services) -> None:
    """404 when /metrics is not configured; 401 (counted as a failed authentication of the address) for a
    missing or wrong token."""
    if svc.settings.metrics_open:
        return
    token = svc.settings.metrics_token
    if token is None:
        raise HTTPException(404, "Not Found")
    check_address(request)
    sent = request.headers.get("authorization", "")
    if not hmac.compare_digest(sent.encode(), f"Bearer {token.get_secret_value()}".encode()):
        note_auth_failure(request)
        raise HTTPException(401, "a valid metrics token is required", headers={"WWW-Authenticate": "Bearer"})


def _refresh_queue(svc: Services) -> None:
    """The pending-chunk count, read at most every QUEUE_REFRESH_SECONDS (it counts every chunk)."""
    read = svc.graph.kept.room("metrics.queue_read", lambda: [float("-inf")])
    with _queue_lock:
        if time.monotonic() - read[0] < QUEUE_REFRESH_SECONDS:
            return
        read[0] = time.monotonic()
    with contextlib.suppress(*UNAVAILABLE):  # the gauge keeps its last value; /ready says the graph is down
        EMBEDDING_QUEUE.set(status(svc.graph, svc.embedder)["pending"])


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request, svc: ServicesDep) -> Response:
    """Prometheus text for a scraper: 404 unless `MEMORA_METRICS_TOKEN` is set (sent as a bearer token; a wrong one
    is 401) or `MEMORA_METRICS_OPEN` is true."""
    _check(request, svc)
    _refresh_queue(svc)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
