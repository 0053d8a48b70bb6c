"""Request and response bodies of the core resources (entries, projects and members, entities and their analytics,
witnesses, export, health), and the vocabulary the other modules of api/models/ share (`Intimacy`, `Kind`,
`Channel`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema, model_validator

from api.models.analytics import MonthOut
from graph.members import PROJECT_ID_PATTERN
from ingest.records import ENTRY_ID_MAX, ENTRY_ID_PATTERN, ENTRY_ID_RULE, MAX_TEXT
from queries.search import channel_set

Intimacy = Literal["private", "intimate", "circle", "public"]
Kind = Literal["diary", "chronicle", "session", "witness"]
EntityKind = Literal["person", "place", "thing"]


def _known_channel(name: str) -> str:
    channel_set.asked((name,))  # a ValueError naming the choices: a 422 with its reason
    return name


# The names of queries/search/channel_set.py, checked when a request arrives.
Channel = Annotated[
    str,
    AfterValidator(_known_channel),
    WithJsonSchema({"type": "string", "enum": list(channel_set.askable())}),
]
Role = Literal["owner", "coauthor", "reader"]


# --- entries: one record shape for files and HTTP (docs/entries.md, "The entry format") -----------------------------

_ENTRY_ID = Field(
    pattern=ENTRY_ID_PATTERN,
    max_length=ENTRY_ID_MAX,
    description=f"{ENTRY_ID_RULE}; must start with this entry's own `project_id` and a slash.",
)
_OCCURRED_ON = Field(
    default=None,
    max_length=50,
    description="When it happened, as vague as known: `YYYY-MM-DD`, "
    "`YYYY-MM`, `YYYY`, or a range `START/END`. Returned exactly as written.",
)
_OCCURRED_AT = Field(
    default=None,
    max_length=50,
    description="ISO date-time of a recorded conversation: entries of "
    "one project sharing it are one session, ordered by `turn`.",
)
_TURN = Field(
    default=None,
    ge=0,
    le=10_000_000,
    description="Position in its session (`occurred_at`); by default the order of writing.",
)
_NAMES: list[str] = Field(default_factory=list, max_length=200)
_READ_ONLY = Field(
    default=None,
    description="Ignored on input: what GET answers and no writer sets (so a GET body can be sent back unchanged).",
)


class EntryBody(BaseModel):
    """The fields a person writes, shared by POST and PUT. Any other field (e.g. `mood`, `session`) is kept as
    metadata and returned by GET as written; at most 50, names of 1 to 100 characters."""

    model_config = ConfigDict(extra="allow")

    text: str = Field(min_length=1, max_length=MAX_TEXT)
    title: str | None = Field(default=None, max_length=500)
    occurred_on: str | None = _OCCURRED_ON
    occurred_at: str | None = _OCCURRED_AT
    persons: list[str] = _NAMES
    places: list[str] = _NAMES
    tags: list[str] = _NAMES
    kind: Kind = "diary"
    period: str | None = Field(default=None, max_length=200, description="The chapter's name.")
    turn: int | None = _TURN
    read_only: dict[str, Any] | None = _READ_ONLY


class EntryIn(EntryBody):
    """An entry written through the API, in the record format of `memora ingest`; its author is the caller. Any
    other field (e.g. `mood`, `session`) is kept as metadata; at most 50, names of 1 to 100 characters."""

    entry_id: str | None = Field(
        default=None,
        pattern=ENTRY_ID_PATTERN,
        max_length=ENTRY_ID_MAX,
        description=f"{ENTRY_ID_RULE}; must start with `project_id` and a slash; generated when absent.",
    )
    project_id: str = Field(max_length=200)
    author: str | None = Field(default=None, max_length=200, description="The caller (the only value accepted).")
    intimacy: Intimacy = "circle"


class EntryPut(EntryBody):
    """A full replace: every field absent from the body takes its default (metadata absent is removed), except an
    absent `intimacy`, which keeps the entry's level (a correction never opens an entry). `entry_id`, `project_id`
    and `author` may be sent but not changed. Any other field is metadata, as in POST."""

    entry_id: str | None = Field(default=None, max_length=ENTRY_ID_MAX, description="This entry's id (unchangeable).")
    project_id: str | None = Field(default=None, max_length=200, description="Its project (unchangeable).")
    author: str | None = Field(default=None, max_length=200, description="Its author (unchangeable).")
    intimacy: Intimacy | None = Field(default=None, description="Absent: the entry's level is kept.")


class EntryPatch(BaseModel):
    """JSON merge patch (RFC 7396): an absent field is kept, `null` clears it (an empty list for `persons`, `places`,
    `tags`; a metadata field is removed, a metadata object is merged key by key). `text`, `intimacy` and `kind`
    cannot be cleared. Any other field is metadata, as in POST."""

    model_config = ConfigDict(extra="allow")

    text: str | None = Field(default=None, min_length=1, max_length=MAX_TEXT)
    title: str | None = Field(default=None, max_length=500)
    occurred_on: str | None = _OCCURRED_ON
    occurred_at: str | None = _OCCURRED_AT
    persons: list[str] | None = Field(default=None, max_length=200)
    places: list[str] | None = Field(default=None, max_length=200)
    tags: list[str] | None = Field(default=None, max_length=200)
    intimacy: Intimacy | None = None
    kind: Kind | None = None
    period: str | None = Field(default=None, max_length=200)
    turn: int | None = _TURN
    entry_id: str | None = Field(default=None, max_length=ENTRY_ID_MAX, description="This entry's id (unchangeable).")
    project_id: str | None = Field(default=None, max_length=200, description="Its project (unchangeable).")
    author: str | None = Field(default=None, max_length=200, description="Its author (unchangeable).")
    read_only: dict[str, Any] | None = _READ_ONLY

    @model_validator(mode="after")
    def _not_cleared(self) -> EntryPatch:
        for name in ("text", "intimacy", "kind"):
            if name in self.model_fields_set and getattr(self, name) is None:
                raise ValueError(f"{name} cannot be cleared (null)")
        return self


class OccurredOut(BaseModel):
    """A vague date as the inclusive range searches use: "2019-08" is 2019-08-01..2019-08-31, precision month."""

    start: str
    end: str
    precision: str


class LinkedOut(BaseModel):
    """Who and what the entry is linked to: the names listed, and declared names or aliases found in its text."""

    persons: list[str]
    places: list[str]
    things: list[str]


class EntryReadOnly(BaseModel):
    created_at: str | None
    updated_at: str | None
    occurred: OccurredOut | None
    linked: LinkedOut
    period_id: str | None
    embedding: Literal["done", "pending"] = Field(
        description="pending: some chunks await the embedding worker (keyword and structured search find it meanwhile)."
    )
    written_by: Literal["file", "api"] | None = Field(
        description="file: what a file last wrote; api: written or changed through the API since (re-ingesting "
        "that file skips it unless --overwrite); null: written before this was recorded."
    )


class EntryOut(BaseModel):
    """An entry in the shape it is written (every field can be PUT back as is), plus `read_only`; metadata fields
    (any other field) are returned as written, next to the others."""

    model_config = ConfigDict(extra="allow")

    entry_id: str = Field(description=ENTRY_ID_RULE)
    project_id: str
    text: str
    author: str | None
    title: str | None
    occurred_on: str | None = _OCCURRED_ON
    occurred_at: str | None = _OCCURRED_AT
    persons: list[str] = Field(description="The names listed when it was written (see `read_only.linked`).")
    places: list[str]
    tags: list[str]
    intimacy: Intimacy
    kind: Kind
    period: str | None
    turn: int | None = _TURN
    read_only: EntryReadOnly


Sort = Literal["asc", "desc"]


class EntryListOut(BaseModel):
    """One page of a project's visible entries; `next_cursor` (opaque) asks for the next page, null on the last."""

    entries: list[EntryOut]
    next_cursor: str | None
    warnings: list[str] = Field(
        default_factory=list,
        description="e.g. a person filter naming nobody you can see (a hidden name gets the same answer).",
    )


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


class RateLimitedOut(BaseModel):
    """A 429: which budget ran out (searches, writes, failed authentications) and when to retry."""

    detail: str


ENTITY_NAME_MAX = 200  # a declared name's characters, and each alias's
ALIASES_MAX = 50


def _not_blank(name: str) -> str:
    if not name.strip():
        raise ValueError("a name needs more than spaces")
    return name


class EntityIn(BaseModel):
    """A person, place or thing of a project; aliases are the words people use for it ("papá", "dad")."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["person", "place", "thing"]
    name: Annotated[str, AfterValidator(_not_blank)] = Field(
        min_length=1, max_length=ENTITY_NAME_MAX, pattern=r"^[^\x00-\x1f]+$"
    )
    aliases: list[Annotated[str, Field(max_length=ENTITY_NAME_MAX, pattern=r"^[^\x00-\x1f]*$")]] = Field(
        default_factory=list, max_length=ALIASES_MAX
    )
    audience: Intimacy = Field(
        default="circle",
        description="Who may learn this name and its aliases, read like an entry's intimacy level (private: only you).",
    )


class RelinkJobOut(BaseModel):
    """Re-linking a project's entries after its names changed, running in the background; poll
    `GET /v1/projects/{project_id}/relink/{job_id}` until `status` is `done` (or `failed`)."""

    job_id: str
    project_id: str
    status: Literal["queued", "running", "done", "failed"]
    done: int = Field(description="Entries examined so far, among those the caller may see.")
    total: int | None = Field(description="Entries of the project the caller may see (known once the job runs).")
    relinked: int = Field(
        description="Entries the caller may see whose links changed and were rewritten (the others are untouched)."
    )
    error: str | None = None


class EntityOut(BaseModel):
    id: str
    kind: Literal["person", "place", "thing"]
    name: str
    aliases: list[str]
    called: list[str] = Field(
        default_factory=list,
        description='Other names the conversations the caller may see give this person ("I\'m Kate", "Hey Kate!"); '
        "a question using one finds them. Not declared aliases: declare one to make it an alias.",
    )
    relink: RelinkJobOut | None = Field(
        default=None, description="The job re-linking existing entries to the changed names (writes only)."
    )


class EntityPatch(BaseModel):
    """Rename an entity and/or replace its aliases, in every source the caller may see (docs/SECURITY.md)."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
    aliases: list[str] | None = Field(
        default=None, max_length=50, description="The complete new list of aliases (replaces the old one)."
    )

    @model_validator(mode="after")
    def _something(self) -> EntityPatch:
        if self.name is None and self.aliases is None:
            raise ValueError("give a new name, new aliases or both")
        return self


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


class ProjectIn(BaseModel):
    """A new project; the caller becomes its owner."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(
        default=None,
        pattern=PROJECT_ID_PATTERN,
        description="1-100 letters, digits, '.', '_', ':' or '-', no '/' (entry ids are "
        "'<project_id>/…'). Omitted: the name's slug plus 6 random hex digits.",
    )
    name: str = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
    hemisphere: Literal["north", "south"] = Field(
        default="north", description="Decides which months a season means in this project's queries."
    )


class ProjectPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
    hemisphere: Literal["north", "south"] | None = Field(
        default=None, description="Decides which months a season means in this project's queries."
    )


class ProjectOut(BaseModel):
    project_id: str
    name: str
    hemisphere: Literal["north", "south"]


class HealthOut(BaseModel):
    """Liveness (always 200 while the process serves): `degraded` when Neo4j does not answer."""

    status: Literal["ok", "degraded"]
    neo4j: Literal["up", "down"]


class ReadyOut(BaseModel):
    """Readiness: 200 `ready` when Neo4j answers and the warm start (if any) is done; 503 `unavailable` or `warming`
    (with a reason and Retry-After) otherwise."""

    status: Literal["ready", "unavailable", "warming"]
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
    kind: EntityKind


class CompanionOut(BaseModel):
    """An entity named together with another, in `together` visible entries, between `first` and `last`."""

    id: str
    name: str
    kind: EntityKind
    together: int
    entries: int = Field(description="Visible entries (in the date range) naming the companion.")
    score: float = Field(description="The chosen `measure`: jaccard, pmi (log2) or count (= together).")
    first: str | None
    last: str | None


class CooccurrenceOut(BaseModel):
    # `with` is a Python keyword: the field is `with_`, the JSON key stays "with".
    model_config = ConfigDict(populate_by_name=True)

    entity: EntityRef
    measure: Literal["jaccard", "pmi", "count"]
    with_: list[CompanionOut] = Field(alias="with")


class YearOut(BaseModel):
    year: int
    entries: int
    mentions: int


class TimelineOut(BaseModel):
    entity: EntityRef
    years: list[YearOut]
    months: list[MonthOut] | None = Field(
        None, description="With resolution=month; `vaguer` times (a year, a season) are in `years` only."
    )
    vaguer: int | None = None


class ImportanceOut(BaseModel):
    """Visible entries × (1 + chapters + years) that mention the entity."""

    id: str
    name: str
    kind: EntityKind
    entries: int
    mentions: int
    periods: int
    years: int
    importance: int


class WitnessGrantOut(BaseModel):
    """A witness link as its project's owners see it (the link itself is shown once, when it is made)."""

    grant_id: str
    period_id: str
    label: str | None
    revoked: bool
    expires_at: str | None
    created_by: str | None
    created_at: str | None


class ExportLineOut(BaseModel):
    """One line of `GET /v1/projects/{p}/export` (graph/export.py): a record named by `memora_record`, or (without it)
    an entry in the ingest format (`entry_id`, `project_id`, `text`, `author`, `occurred_on` as written, `occurred_at`,
    `title`, `persons`, `places`, `tags`, `intimacy`, `kind`, `period`, and metadata fields such as `turn`)."""

    model_config = ConfigDict(extra="allow")

    memora_record: Literal["project", "member", "entity", "declaration", "dismissal", "witness_grant", "end"] | None = (
        None
    )
    project_id: str | None = None
    entry_id: str | None = None
