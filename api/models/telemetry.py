"""Request and response bodies of the telemetry routes (`POST /v1/feedback`)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ingest.records import ENTRY_ID_MAX


class FeedbackIn(BaseModel):
    search_id: str = Field(min_length=1, max_length=64, description="The `search_id` of one of your searches.")
    entry_id: str = Field(min_length=1, max_length=ENTRY_ID_MAX, description="The result you opened.")
    position: int = Field(ge=1, le=1000, description="Where it was shown: 1 for the first result.")


class FeedbackOut(BaseModel):
    search_id: str
    entry_id: str
    position: int
    recorded: bool = Field(
        description="Whether the click went into the retrieval log (only sampled searches are "
        "logged; a click on another is accepted and not kept)."
    )
