"""The ingest record: the JSON Lines entry format (README, "The entry format"), validated at the boundary."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ingest.dates import DateRange, parse_occurred, parse_point

Intimacy = Literal["private", "intimate", "circle", "public"]
Kind = Literal["diary", "chronicle", "session", "witness"]
_ID = r"^[^\s/][^\x00-\x1f]{0,199}$"
# A project id holds no "/", and an entry id starts with "<project_id>/": an id then names its project
# unambiguously, so no writer can probe or take the ids of a project they cannot see.
_PROJECT_ID = r"^[^\s/][^\x00-\x1f/]{0,199}$"
MAX_TEXT = 200_000


class EntryRecord(BaseModel):
    """One entry as written by a person; unknown fields are kept as metadata."""

    model_config = ConfigDict(extra="allow", str_strip_whitespace=True)

    entry_id: str = Field(pattern=_ID)
    project_id: str = Field(pattern=_PROJECT_ID)
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
        return dict(self.model_extra or {})


