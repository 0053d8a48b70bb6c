"""Request and response bodies of the HTTP API (shape of section 16 of the retrieval design, adapted to Neo4j)."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ingest.records import EntryRecord

Intimacy = Literal["private", "intimate", "circle", "public"]
Kind = Literal["diary", "chronicle", "session", "witness"]
Channel = Literal["dense", "fulltext", "structured"]
Role = Literal["owner", "coauthor", "reader"]
_IDS = Field(default=None, max_length=100)


class SearchFilters(BaseModel):
    """Hard filters: never relaxed, and they can only narrow what the viewer may see."""

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
    diversify: bool = Field(default=True, description="MMR, so near-identical entries do not fill the page.")
    rerank: Literal["none", "fast", "premium"] = "none"
    hyde: bool = False
    filters: SearchFilters = Field(default_factory=SearchFilters)


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


class SearchResponseOut(BaseModel):
    results: list[ResultOut]
    total_candidates: int
    source: str
    latency_ms: dict[str, float]
    query_understanding: dict[str, Any] | None = None
    warnings: list[str] = []


class EntryUpdate(BaseModel):
    """The fields a person writes; PUT replaces them, keeping what ingest derived (thread, metadata)."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=200_000)
    title: str | None = Field(default=None, max_length=500)
    occurred_on: str | None = Field(default=None, max_length=50)
    persons: list[str] = Field(default_factory=list, max_length=200)
    places: list[str] = Field(default_factory=list, max_length=200)
    tags: list[str] = Field(default_factory=list, max_length=200)
    intimacy: Intimacy = "circle"
    kind: Kind = "diary"
    period: str | None = Field(default=None, max_length=200)


class EntryIn(EntryUpdate):
    """An entry written through the API; its author is the caller."""

    entry_id: str | None = Field(default=None, pattern=r"^[^\s/][^\x00-\x1f]{0,199}$")
    project_id: str = Field(max_length=200)

    def to_record(self, entry_id: str, author: str) -> EntryRecord:
        data = self.model_dump(exclude={"entry_id"})
        return EntryRecord.model_validate({**data, "entry_id": entry_id, "author": author})


class EntryOut(BaseModel):
    entry_id: str
    project_id: str
    author_id: str | None
    title: str | None
    text: str
    occurred_on: str | None
    occurred_end: str | None
    occurred_precision: str | None
    intimacy_level: Intimacy
    kind: Kind
    tags: list[str]
    persons: list[str]
    places: list[str]
    things: list[str]
    periods: list[dict[str, str]]
    embedding_pending: bool = False


class WriteOut(BaseModel):
    entry_id: str
    status: Literal["created", "updated", "unchanged", "deleted"]
    embedding: Literal["done", "pending", "n/a"] = "n/a"


class MemberIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: str = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
    role: Role


class MemberOut(BaseModel):
    user_id: str
    role: Role


class ErrorOut(BaseModel):
    detail: Any


class RateLimitedOut(BaseModel):
    """A 429: which budget ran out (searches, writes, failed authentications) and when to retry."""

    detail: str


class EntityIn(BaseModel):
    """A person, place or thing of a project; aliases are the words people use for it ("papá", "dad")."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["person", "place", "thing"]
    name: str = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
    aliases: list[str] = Field(default_factory=list, max_length=50)
    audience: Intimacy = Field(default="circle", description="Who may learn this name and its aliases, read like "
                                                           "an entry's intimacy level (private: only you).")


class EntityOut(BaseModel):
    id: str
    kind: Literal["person", "place", "thing"]
    name: str
    aliases: list[str]


class WitnessIn(BaseModel):
    """Invite an outside person to one chapter; give the chapter's `period_id` or its `period` name."""

    model_config = ConfigDict(extra="forbid")

    period_id: str | None = Field(default=None, max_length=300)
    period: str | None = Field(default=None, max_length=200)
    ttl_days: int = Field(default=30, ge=1, le=365)
    label: str | None = Field(default=None, max_length=200)

    @model_validator(mode="after")
    def _one_chapter(self) -> WitnessIn:
        if (self.period_id is None) == (self.period is None):
            raise ValueError("give exactly one of period_id and period")
        return self


class WitnessOut(BaseModel):
    grant_id: str
    token: str
    link: str
    expires_at: str


class WitnessSearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    q: str = Field(max_length=10_000)
    k: int = Field(default=10, ge=1, le=100)
    include_chunks: bool = False


class WitnessEntryIn(BaseModel):
    """A witness's own account, added to the chapter they were invited to (kind witness, intimacy circle)."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=50_000)
    title: str | None = Field(default=None, max_length=500)
    occurred_on: str | None = Field(default=None, max_length=50)
    persons: list[str] = Field(default_factory=list, max_length=50)
    places: list[str] = Field(default_factory=list, max_length=50)


class ProjectPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
    hemisphere: Literal["north", "south"] | None = Field(
        default=None, description="Decides which months a season means in this project's queries.")


class ProjectOut(BaseModel):
    project_id: str
    name: str
    hemisphere: Literal["north", "south"]


class HealthOut(BaseModel):
    """Liveness (always 200 while the process serves): `degraded` when Neo4j does not answer."""

    status: Literal["ok", "degraded"]
    neo4j: Literal["up", "down"]


class ReadyOut(BaseModel):
    """Readiness: 200 `ready` when Neo4j answers, 503 `unavailable` (with a reason and Retry-After) when not."""

    status: Literal["ready", "unavailable"]
    neo4j: Literal["up", "down"]
    detail: str | None = None


class MembershipOut(BaseModel):
    """One of the caller's projects, with the caller's role in it."""

    project_id: str
    name: str | None
    role: Role


class EntityRef(BaseModel):
    id: str
    name: str
    kind: str


class CompanionOut(BaseModel):
    """An entity named together with another, in `together` visible entries, between `first` and `last`."""

    id: str
    name: str
    kind: str
    together: int
    first: str | None
    last: str | None


class CooccurrenceOut(BaseModel):
    # `with` is a Python keyword: the field is `with_`, the JSON key stays "with".
    model_config = ConfigDict(populate_by_name=True)

    entity: EntityRef
    with_: list[CompanionOut] = Field(alias="with")


class YearOut(BaseModel):
    year: int
    entries: int
    mentions: int


class TimelineOut(BaseModel):
    entity: EntityRef
    years: list[YearOut]


class ImportanceOut(BaseModel):
    """Visible entries × (1 + chapters + years) that mention the entity."""

    id: str
    name: str
    kind: str
    entries: int
    mentions: int
    periods: int
    years: int
    importance: int


class WitnessGrantOut(BaseModel):
    id: str
    period_id: str
    label: str | None
    revoked: bool
    expires_at: str | None
