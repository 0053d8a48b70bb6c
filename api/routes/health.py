"""`GET /health` (liveness) and `GET /ready` (readiness): the two routes without a token.

`/health` answers 200 while the process serves, saying whether Neo4j answers (`neo4j: down` means degraded, not dead:
restarting the service would not bring the graph back). `/ready` answers 503 with Retry-After while Neo4j is
unreachable, so a load balancer or readiness probe stops sending traffic until the graph is back, and while a served
process warms up (api/warmup.py), so that its first searches are not the ones that plan statements and load the
model.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api.deps import ServicesDep
from api.errors import RETRY_AFTER_SECONDS
from api.models.core import HealthOut, ReadyOut
from api.services import Services
from graph.db import UNAVAILABLE

router = APIRouter(tags=["health"])
PING = "RETURN 1 AS ok"
UNREACHABLE = "the graph database is unreachable; retry later"
WARMING = "the service is planning its statements and loading its model; retry shortly"
WARMING_RETRY_SECONDS = 1


def _neo4j_up(svc: Services) -> bool:
    """One auto-commit statement, not retried: a probe must answer at once, not after the driver's retries."""
    try:
        svc.graph.run_auto(PING)
        return True
    except UNAVAILABLE:
        return False
    except Exception:  # noqa: BLE001 - a probe reports (auth refused, database missing), it does not raise
        return False


@router.get("/health", response_model=HealthOut)
def health(svc: ServicesDep) -> HealthOut:
    """Liveness: 200 while the process serves; `neo4j` says whether the graph answers."""
    if _neo4j_up(svc):
        return HealthOut(status="ok", neo4j="up")
    return HealthOut(status="degraded", neo4j="down")


_READY_503: dict[int | str, dict[str, Any]] = {
    503: {
        "model": ReadyOut,
        "description": "Neo4j is unreachable, or the service is still warming up; retry after `Retry-After` seconds.",
        "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}},
    }
}


@router.get("/ready", response_model=ReadyOut, responses=_READY_503)
def ready(svc: ServicesDep, request: Request) -> ReadyOut | JSONResponse:
    """Readiness: 200 when the graph answers and the warm start is done, 503 (with Retry-After and a reason) when
    not."""
    if not _neo4j_up(svc):
        body = ReadyOut(status="unavailable", neo4j="down", detail=UNREACHABLE)
        retry = RETRY_AFTER_SECONDS
    elif (warm := getattr(request.app.state, "warm_start", None)) is not None and not warm.ready.is_set():
        body = ReadyOut(status="warming", neo4j="up", detail=WARMING)
        retry = WARMING_RETRY_SECONDS
    else:
        return ReadyOut(status="ready", neo4j="up")
    return JSONResponse(status_code=503, content=body.model_dump(), headers={"Retry-After": str(retry)})
