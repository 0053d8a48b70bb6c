"""`POST /v1/context/live`: the interviewer's live context (queries/context/live.py), for members of the project."""

from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter

from api.deps import SearchBudget, ServicesDep, ViewerDep, require_member
from api.models.live import LiveContextOut, LiveRequest
from api.ratelimit import rate_limited
from api.responses import errors
from queries.context.live import live_context, shared_cache

router = APIRouter(tags=["context"])


@router.post(
    "/v1/context/live",
    response_model=LiveContextOut,
    dependencies=[SearchBudget],
    responses={**errors(403), **rate_limited("the caller's search budget is spent")},
)
def context_live(body: LiveRequest, who: ViewerDep, svc: ServicesDep) -> LiveContextOut:
    """The entries most related to the last ~500 tokens of a transcript being recorded, and whom to ask about:
    names the window mentions that few visible entries tell of (docs/live.md)."""
    require_member(svc, body.project_id, who)
    cache = shared_cache(
        svc.graph,
        svc.settings.live_cache_size,
        svc.settings.live_cache_ttl_seconds,
        svc.settings.live_cache_check_seconds,
    )
    ctx = live_context(svc.graph, svc.embedder, who, body.project_id, body.transcript, cache)
    return LiveContextOut.model_validate(asdict(ctx))
