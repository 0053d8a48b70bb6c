"""Bodies of the summary and chapter-context routes (`api/routes/summaries.py`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from graph.members import PROJECT_ID_PATTERN

MAX_THEME = 500
MAX_BUDGET = 100_000


class SummaryOut(BaseModel):
    """One level-1 (period) or level-2 (project) summary, as the caller's audience variant. `audience` is `circle`
    (circle and public entries), `inner` (and every intimate entry), optionally `+own:<you>` (and your own entries
    the base leaves out). `producer` is `extractive` or `llm:<model>`; `fallback_reason` says why a configured model
    was not used. `stale` is true only if an entry changed while it was being served. An extractive `text` is a list
    of events, one per line; `cites` holds the entry each line was taken from, and `ranks` its rank (0: the most
    telling, so a reader short of room keeps the lowest), both in the order of the lines (empty for a model's
    text)."""

    id: str
    scope: str
    level: int
    period_id: str | None = None
    audience: str
    text: str
    producer: str
    fallback_reason: str | None = None
    stale: bool
    entry_count: int
    words: int
    cites: list[str] = Field(default_factory=list)
    ranks: list[int] = Field(default_factory=list)
    generated_at: str | None = None


class PeriodOut(BaseModel):
    """A period with at least one entry the caller may see; `start`/`end` span those entries, `people` and `places`
    name the three that most of them mention; `automatic` when the entries declared none and it was cut from their
    sessions or dates."""

    id: str
    name: str
    start: str | None = None
    end: str | None = None
    entries: int
    automatic: bool = False
    people: list[str] = Field(default_factory=list)
    places: list[str] = Field(default_factory=list)
    summary: SummaryOut | None = None


class ChapterRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    project_id: str = Field(pattern=PROJECT_ID_PATTERN, max_length=200)
    theme: str = Field(
        min_length=1, max_length=MAX_THEME, description='Free text ("los veranos en Cádiz") or a period id.'
    )
    budget_tokens: int = Field(default=4000, ge=1, le=MAX_BUDGET)


class ProjectSummaryOut(BaseModel):
    summary: str
    producer: str


class ChapterEventOut(BaseModel):
    """One line of a period's summary: the entry it was taken from, and that entry's `[E<n>]` marker when the
    bundle's entries carry it."""

    text: str
    entry_id: str
    citation: str | None = None


class ChapterPeriodOut(BaseModel):
    """A period the theme matched, in date order: its summary cut to its share of the budget, and the events of
    that summary (an extractive one: a model's text lists none)."""

    id: str
    name: str
    start: str | None = None
    end: str | None = None
    summary: str
    events: list[ChapterEventOut] = Field(default_factory=list)


class ChapterEntryOut(BaseModel):
    entry_id: str
    occurred_on: str | None = None
    author_id: str | None = None
    text: str
    citation: str


class ChapterContextOut(BaseModel):
    """What a chapter generator reads: `used_tokens <= budget_tokens`, counted with `tokenizer`."""

    project: ProjectSummaryOut
    periods: list[ChapterPeriodOut]
    entries: list[ChapterEntryOut]
    used_tokens: int
    budget_tokens: int
    tokenizer: str
    warnings: list[str] = []


class DraftOut(BaseModel):
    """A first-person draft (`producer` `llm:<model>`) or a dated outline (`outline`); `citations` maps each
    `[E<n>]` marker the text uses to its entry id, all in `context.entries`."""

    text: str
    producer: str
    citations: dict[str, str]
    fallback_reason: str | None = None
    context: ChapterContextOut
