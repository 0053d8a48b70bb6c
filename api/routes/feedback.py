"""`POST /v1/feedback`: a click on a search result, recorded in the retrieval log
(`queries/telemetry/search_log.py`)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from api.deps import SearchBudget, ServicesDep, ViewerDep
from api.models.telemetry import FeedbackIn, FeedbackOut
from api.ratelimit import rate_limited
from api.responses import errors, invalid_field
from queries.telemetry.search_log import NoSuchSearch, NotInResults, feedback

router = APIRouter(tags=["search"])


@router.post(
    "/v1/feedback",
    response_model=FeedbackOut,
    dependencies=[SearchBudget],
    responses={**errors(404), **rate_limited("the caller's search budget is spent")},
)
def post_feedback(body: FeedbackIn, who: ViewerDep, svc: ServicesDep) -> FeedbackOut:
    """Only the user who made a search can report a click on it, and only on an entry it showed at that position:
    a search id of another user answers exactly like one that never existed (404)."""
    try:
        recorded = feedback(svc.graph, who, body.search_id, body.entry_id, body.position)
    except NoSuchSearch as exc:
        raise HTTPException(404, "no such search") from exc
    except NotInResults as exc:
        raise invalid_field("body", "entry_id", str(exc)) from exc
    return FeedbackOut(search_id=body.search_id, entry_id=body.entry_id, position=body.position, recorded=recorded)
