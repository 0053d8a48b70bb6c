"""One search's request and answer: the caller's scope, hard filters and options, and the results the door returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from queries.search.replies import RepliesTo

# The rerank tiers (queries/search/rerank.py).
TIERS = ("none", "fast", "premium")


class AccessDenied(PermissionError):
    """The viewer is not a member of the requested project (same answer whether or not it exists)."""


@dataclass
class Filters:
    """Hard filters from the caller: never relaxed, and they can only narrow what the viewer may see."""

    date_from: date | None = None
    date_to: date | None = None
    intimacy_max: str | None = None
    person_ids: list[str] | None = None
    persons: list[str] | None = None
    place_ids: list[str] | None = None
    places: list[str] | None = None
    author_ids: list[str] | None = None
    kinds: list[str] | None = None
    tags: list[str] | None = None
    period_id: str | None = None


@dataclass
class Scope:
    project_id: str | None = None
    multi_project: bool = False


@dataclass
class SearchOptions:
    k: int = 10
    channels: tuple[str, ...] | None = None  # None: the default ones (queries/search/channel_set.py)
    include_chunks: bool = False
    explain: bool = False
    candidates_per_channel: int = 50
    # Meaning reaches deeper than keywords: a chat's answer often shares no word with its question, and the learned
    # ranker lifts a dense hit from past the 50th when the turns around it match (docs/BENCHMARKS.md). Never below
    # `candidates_per_channel` or `k`.
    dense_candidates: int = 80
    understand: bool = True
    ignore: tuple[str, ...] = ()  # understood constraints set aside (query_constraints.set_aside)
    diversify: bool = True
    now: date | None = None
    locale: str | None = None
    filters: Filters = field(default_factory=Filters)
    rerank: str = "none"  # queries/search/rerank.py: none | fast | premium
    fusion: str | None = None  # None: settings.fusion ("learned" or "rrf")
    capture: list[dict[str, Any]] | None = None  # receives the ranker's raw record (bench/capture_fusion.py)

    def __post_init__(self) -> None:
        if self.rerank not in TIERS:
            raise ValueError(f"unknown rerank tier {self.rerank!r}; choose from {list(TIERS)}")


@dataclass
class SearchResult:
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
    intimacy_level: str
    kind: str
    persons: list[str]
    places: list[str]
    things: list[str]
    tags: list[str]
    periods: list[dict[str, str]]
    chunk: dict[str, Any] | None = None
    told: list[dict[str, str]] = field(default_factory=list)  # times the text tells: ingest/event_times.py
    replies_to: RepliesTo | None = None  # the message a conversation's turn answers: queries/search/replies.py
    relevance: float | None = None  # calibrated, 0..1: queries/search/relevance.py


@dataclass
class SearchResponse:
    results: list[SearchResult]
    total_candidates: int
    source: str
    latency_ms: dict[str, float]
    query_understanding: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    answer: dict[str, Any] | None = None  # an entity question's answer (queries/entities/entity_questions.py)
    channel_candidates: dict[str, int] = field(default_factory=dict)  # for the retrieval log, not the API
    cached: bool = False
    matched: bool = True  # False: nothing reached the relevance threshold; the results are the closest or latest
