"""Bodies of the search route (`POST /v1/search`): the request with its filters, and the ranked results."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from api.models.core import Channel, Intimacy, Kind
from api.models.entity_vectors import EntityAnswer

_IDS = Field(default=None, max_length=100)


class SearchFilters(BaseModel):
    """Hard filters: never relaxed, and they can only narrow what the viewer may see. Filters combine with AND;
    within a list filter, any of its values matches (`persons: ["Pep", "Marta"]`: entries naming Pep or Marta)."""

    model_config = ConfigDict(extra="forbid")

    intimacy_max: Intimacy | None = None
    period_id: str | None = Field(default=None, max_length=300)
    person_ids: list[str] | None = _IDS
    persons: list[str] | None = _IDS
    place_ids: list[str] | None = _IDS
    places: list[str] | None = _IDS
    author_ids: list[str] | None = _IDS
    kinds: list[Kind] | None = None
    tags: list[str] | None = _IDS
    occurred_year: int | None = Field(default=None, ge=1, le=9999)
    date_from: date | None = None
    date_to: date | None = None

    @model_validator(mode="after")
    def _range(self) -> SearchFilters:
        if self.date_from and self.date_to and self.date_to < self.date_from:
            raise ValueError("date_to is before date_from")
        return self


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    q: str = Field(max_length=10_000, description="The question, in any language.")
    project_id: str | None = Field(default=None, max_length=200, description="Defaults to every project of the viewer.")
    multi_project: bool = False
    k: int = Field(default=10, ge=1, le=100)
    include_chunks: bool = False
    explain: bool = Field(default=False, description="Return the query understanding (debugging, opt-in).")
    channels: list[Channel] | None = None
    diversify: bool = Field(
        default=True,
        description=(
            "Near-duplicates move down (false: fused order): by default one sharing at least 80 % of its words with an "
            "entry above goes after every other candidate; with MEMORA_DIVERSIFY=mmr, MMR over the entries' vectors."
        ),
    )
    rerank: Literal["none", "fast", "premium"] = Field(
        default="none",
        description=(
            "A second stage over the fused candidates: `fast`, a cross-encoder over the top 50 (MEMORA_RERANKER); "
            "`premium`, listwise by the configured language model over the top 20 (MEMORA_LLM_*), the fused order kept "
            "past its timeout. Unconfigured or failing, the fused order is kept and `warnings` says why."
        ),
    )
    filters: SearchFilters = Field(default_factory=SearchFilters)
    ignore: list[Annotated[str, Field(max_length=300)]] = Field(
        default_factory=list,
        max_length=20,
        description=(
            "Constraints the query implied to set aside, as `query_understanding` names them: `date`, `author`, or the "
            "id of a person, place or thing the query named. A value the query did not imply changes nothing."
        ),
    )


class RepliesToOut(BaseModel):
    entry_id: str
    author_id: str | None
    text: str = Field(description="The message's words, shortened to a few lines.")


class ResultOut(BaseModel):
    entry_id: str
    project_id: str
    score: float
    score_breakdown: dict[str, dict[str, float]]
    snippet_md: str
    highlights: list[str]
    title: str | None
    occurred_on: str | None
    occurred_end: str | None
    occurred_precision: str | None
    author_id: str | None
    intimacy_level: Intimacy
    kind: Kind
    persons: list[str]
    places: list[str]
    things: list[str]
    tags: list[str]
    periods: list[dict[str, str]]
    chunk: dict[str, Any] | None = None
    told: list[dict[str, str]] = Field(
        default_factory=list,
        description="The times the entry's text tells, read against the day it was written (`start`, `end`): "
        "\"ayer\" in an entry of 2010-06-02 is 2010-06-01. A question's date matches these or the entry's date.",
    )
    replies_to: RepliesToOut | None = Field(
        default=None,
        description="For a turn of a conversation, the message it answers: the latest of the few turns before it that "
        'the viewer may see written by someone else. A short reply ("yes!!") is read with its question.',
    )
    relevance: float | None = Field(
        default=None,
        description='How well the entry matches the question, 0 to 1, calibrated (docs/search.md, "Relevance"): '
        "comparable across questions, unlike `score`. None for an entity question's supporting entries and the "
        "latest entries shown when nothing was found.",
    )


class SearchResponseOut(BaseModel):
    results: list[ResultOut]
    total_candidates: int
    source: str
    latency_ms: dict[str, float]
    query_understanding: dict[str, Any] | None = None
    warnings: list[str] = []
    answer: EntityAnswer | None = None  # set when the query is an entity question (docs/entities.md)
    search_id: str | None = None  # for POST /v1/feedback (api/routes/feedback.py)
    matched: bool = Field(
        default=True,
        description="False when nothing matched well: no result reaches the relevance threshold, and the results are "
        "the closest entries (`source` other than `recency`) or, when no channel found anything, the latest ones "
        "(`source` `recency`). Show them under that label, never as answers.",
    )
