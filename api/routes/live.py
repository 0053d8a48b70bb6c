"""`POST /v1/context/live`: the interviewer's live context (queries/context/live.py), for members of the project."""

from __future__ import annotations

from fastapi import APIRouter

from api.actions import context as contexts
from api.deps import SearchBudget, ServicesDep, ViewerDep
from api.models.live import LiveContextOut, LiveRequest
from api.ratelimit import rate_limited
from api.responses import errors

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
    return contexts.live_for(svc, who, body)
