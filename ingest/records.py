"""The entry record: one shape for a line of `memora ingest` and the body of `POST/PUT /v1/entries` (docs/entries.md,
"The entry format"), validated at the boundary."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from graph.export import MARKER as EXPORT_MARKER
from graph.ids import sha256
from ingest.dates import DateRange, parse_occurred, parse_point

Intimacy = Literal["private", "intimate", "circle", "public"]
Kind = Literal["diary", "chronicle", "session", "witness"]
# A project id holds no "/", and an entry id starts with "<project_id>/": an id then names its project
# unambiguously, so no writer can probe or take the ids of a project they cannot see. Files and HTTP share the rule.
PROJECT_ID_PATTERN = r"^[^\s/][^\x00-\x1f/]{0,199}$"
ENTRY_ID_PATTERN = r"^[^\s/][^\x00-\x1f/]*/[^\x00-\x1f]+$"
ENTRY_ID_MAX = 200
ENTRY_ID_RULE = (
    "`<project_id>/<anything>`: the project's id, a slash, then at least one character; at most 200 "
    "characters, no control characters"
)
MAX_TEXT = 200_000
MAX_METADATA_FIELDS = 50
READ_ONLY_KEY = "read_only"
"""What GET answers about an entry but no writer sets (dates as ranges, links, embedding): ignored on input, so a
GET body can be PUT back, or saved as a line of a file, unchanged."""


class EntryRecord(BaseModel):
    """One entry as written by a person; unknown fields are kept as metadata."""

    model_config = ConfigDict(extra="allow", str_strip_whitespace=True)

    entry_id: str = Field(pattern=ENTRY_ID_PATTERN, max_length=ENTRY_ID_MAX)
    project_id: str = Field(pattern=PROJECT_ID_PATTERN)
    text: str = Field(min_length=1, max_length=MAX_TEXT)
    author: str | None = Field(default=None, max_length=200)
    occurred_on: str | None = Field(default=None, max_length=50)
    occurred_at: str | None = Field(default=None, max_length=50)
    title: str | None = Field(default=None, max_length=500)
    persons: list[str] = Field(default_factory=list, max_length=200)
    places: list[str] = Field(default_factory=list, max_length=200)
    tags: list[str] = Field(default_factory=list, max_length=200)
    intimacy: Intimacy = "circle"
    kind: Kind = "diary"
    period: str | None = Field(default=None, max_length=200)
    turn: int | None = Field(default=None, ge=0, le=10_000_000)

    @model_validator(mode="before")
    @classmethod
    def _drop_read_only(cls, data: Any) -> Any:
        if isinstance(data, dict) and READ_ONLY_KEY in data:
            data = {k: v for k, v in data.items() if k != READ_ONLY_KEY}
        return data

    @model_validator(mode="after")
    def _metadata_bounded(self) -> EntryRecord:
        extra = self.model_extra or {}
        if len(extra) > MAX_METADATA_FIELDS:
            raise ValueError(f"at most {MAX_METADATA_FIELDS} extra (metadata) fields")
        for key in extra:
            if not 1 <= len(key) <= 100 or any(ord(ch) < 32 for ch in key):
                raise ValueError("metadata field names must be 1..100 characters, no control characters")
        return self

    @field_validator("persons", "places", "tags")
    @classmethod
    def _clean_names(cls, values: list[str]) -> list[str]:
        out: list[str] = []
        for value in values:
            value = value.strip()
            if not value or len(value) > 200:
                raise ValueError("names must be 1..200 characters")
            if value not in out:
                out.append(value)
        return out

    @field_validator("text", "title", "author", "entry_id", "project_id", "period")
    @classmethod
    def _no_nul(cls, value: str | None) -> str | None:
        if value is not None and "\x00" in value:
            raise ValueError("NUL bytes are not allowed")
        return value

    @model_validator(mode="after")
    def _id_in_project(self) -> EntryRecord:
        if not self.entry_id.startswith(f"{self.project_id}/") or self.entry_id == f"{self.project_id}/":
            raise ValueError(f"entry_id must start with '{self.project_id}/' (the id of its project)")
        return self

    @model_validator(mode="after")
    def _dates_parse(self) -> EntryRecord:
        self.occurred()
        return self

    def occurred(self) -> DateRange | None:
        if self.occurred_on:
            return parse_occurred(self.occurred_on)
        if self.occurred_at:
            return parse_point(self.occurred_at)
        return None

    def metadata(self) -> dict[str, Any]:
        """Extra fields, and `turn` (stored with them, so stored entries keep one shape)."""
        extra = dict(self.model_extra or {})
        if self.turn is not None:
            extra["turn"] = self.turn
        return extra

    def fingerprint(self) -> str:
        """What was written, independent of how (file or API) and of what was derived from it (links, threads)."""
        return sha256(json.dumps(self.model_dump(mode="json"), ensure_ascii=False, sort_keys=True, default=str))


@dataclass
class LineError:
    line: int
    entry_id: str | None
    reason: str


def read_jsonl(path: Path) -> Iterator[tuple[int, EntryRecord | LineError]]:
    """Each line parsed on its own: a bad line becomes a LineError with its number and reason."""
    with path.open(encoding="utf-8", errors="replace") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            yield number, parse_line(number, line)


def parse_line(number: int, line: str) -> EntryRecord | LineError:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return LineError(number, None, f"invalid JSON: {exc.msg} at column {exc.colno}")
    if not isinstance(data, dict):
        return LineError(number, None, "a line must be a JSON object")
    if EXPORT_MARKER in data:
        return LineError(
            number,
            None,
            f"a {data[EXPORT_MARKER]!r} record of a memora export, not an entry: restore "
            "an export with `memora import FILE`",
        )
    try:
        return EntryRecord.model_validate(data)
    except ValidationError as exc:
        reason = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'entry'}: {err['msg']}" for err in exc.errors())
        return LineError(number, data.get("entry_id") if isinstance(data.get("entry_id"), str) else None, reason)
