"""Arguments and results of the MCP tools (api/mcp/) that have no HTTP body of their own.

Tools whose route takes a body (`search`, `chapter_context`, `live_context`, `add_entry`) use that body's model
(core.py, search.py, summaries.py, live.py beside this one) as their schema. The models here stand for a route's path
and query parameters, with the same bounds as the route declares, and wrap several route answers into one object (a
tool answers one JSON object)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from api.models.analytics import MEASURE_DOC
from api.models.core import CooccurrenceOut, EntryIn, ImportanceOut, MembershipOut, TimelineOut
from api.models.entity_vectors import SimilarOut
from api.models.summaries import PeriodOut, SummaryOut
from ingest.records import ENTRY_ID_MAX, ENTRY_ID_PATTERN, ENTRY_ID_RULE

Question = Literal["cooccurrence", "timeline", "importance", "similar"]


class GetEntryIn(BaseModel):
    """`GET /v1/entries/{entry_id}` (or `/v1/w/{token}/entries/{entry_id}` for a witness)."""

    model_config = ConfigDict(extra="forbid")

    entry_id: str = Field(pattern=ENTRY_ID_PATTERN, max_length=ENTRY_ID_MAX, description=ENTRY_ID_RULE)


class EntityQuestionIn(BaseModel):
    """The query parameters of `/v1/projects/{p}/analytics/{cooccurrence,timeline,importance,similar}`; a parameter
    a question does not take is ignored, as the route would ignore an unknown query parameter."""

    model_config = ConfigDict(extra="forbid")

    question: Question = Field(
        description=(
            "`cooccurrence`: who or what appears with `entity`; `timeline`: visible entries per year (or month) naming "
            "it; `importance`: the project's most important entities (no `entity`); `similar`: entities or chapters "
            "like `entity`, by their vectors."
        )
    )
    project_id: str = Field(min_length=1, max_length=200)
    entity: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description=(
            "A person, place or thing by id, name or alias (for `similar`, a chapter too); required except for "
            "`importance`."
        ),
    )
    limit: int = Field(default=10, ge=1, le=100)
    kind: Literal["person", "place", "thing", "period"] | None = Field(
        default=None,
        description=("Keep companions / important / similar entities of one kind (`period` only for `similar`)."),
    )
    measure: Literal["jaccard", "pmi", "count"] = Field(default="jaccard", description=MEASURE_DOC)
    date_from: str | None = Field(
        default=None, max_length=50, description="`cooccurrence`: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`."
    )
    date_to: str | None = Field(default=None, max_length=50, description="`cooccurrence`: as `date_from`.")
    resolution: Literal["year", "month"] = Field(default="year", description="`timeline` only.")
    time: Literal["event", "written"] = Field(
        default="event",
        description="`timeline`, dated `cooccurrence`: by the times told where the entity is named, or entry dates.",
    )


class EntityAnswerOut(BaseModel):
    """The answer of the question asked, under its own name (the route's response body); the others are null."""

    question: Question
    cooccurrence: CooccurrenceOut | None = None
    timeline: TimelineOut | None = None
    importance: list[ImportanceOut] | None = None
    similar: SimilarOut | None = None


class SummaryIn(BaseModel):
    """`GET /v1/projects/{p}/summary`, or one chapter of `GET /v1/projects/{p}/periods` with `period`."""

    model_config = ConfigDict(extra="forbid")

    project_id: str = Field(min_length=1, max_length=200)
    period: str | None = Field(
        default=None,
        min_length=1,
        max_length=300,
        description=("A chapter's id or name; absent: the whole project's summary."),
    )


class SummaryToolOut(BaseModel):
    """The caller's summary (null when a visible chapter has none yet), and the chapter asked for."""

    project_id: str
    period: PeriodOut | None = None
    summary: SummaryOut | None = None


class AddEntryIn(EntryIn):
    """`POST /v1/entries?wait=`: the body plus the `wait` query parameter."""

    wait: bool = Field(default=False, description="Answer only once the entry is embedded.")


class ProjectsOut(BaseModel):
    """The `memora://projects` resource: the caller's projects and roles (`GET /v1/projects`)."""

    projects: list[MembershipOut]


class ProjectResourceOut(BaseModel):
    """A `memora://projects/{p}` resource: the project and the chapters with an entry the caller may see."""

    project: MembershipOut
    chapters: list[PeriodOut]
