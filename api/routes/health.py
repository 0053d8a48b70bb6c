"""`GET /health`: liveness and Neo4j reachability, the one route without a token."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import ServicesDep
from api.models import HealthOut

router = APIRouter(tags=["health"])


@router.get("/health", response_model=HealthOut)
def health(svc: ServicesDep) -> HealthOut:
    try:
        svc.graph.read("RETURN 1 AS ok")
        return HealthOut(status="ok", neo4j="up")
    except Exception:  # noqa: BLE001 - health reports, it does not raise
        return HealthOut(status="degraded", neo4j="down")
