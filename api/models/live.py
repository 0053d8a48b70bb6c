"""Bodies of `POST /v1/context/live` (queries/context/live.py): the interviewer's live context."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from api.models.core import Intimacy, Kind


class LiveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    project_id: str = Field(min_length=1, max_length=200)
    transcript: str = Field(
        min_length=1,
        max_length=200_000,
        description=("The running transcript (or its end); only its last ~500 tokens (2,000 characters) are read."),
    )


class LiveEntryOut(BaseModel):
    entry_id: str
    score: float = Field(description="Cosine similarity of the entry's best chunk to the transcript window.")
    title: str | None
    occurred_on: str | None
    author_id: str | None
    intimacy_level: Intimacy
    kind: Kind
    snippet_md: str
    persons: list[str]
    places: list[str]


class AskAboutOut(BaseModel):
    kind: str = Field(description="`person` or `place`.")
    name: str
    entity_id: str
    entries: int = Field(description="Entries the caller may see that mention it (at most 2 are listed).")
    mentions: int = Field(description="Times the transcript window names it.")


class LiveContextOut(BaseModel):
    entries: list[LiveEntryOut] = Field(description="The 5 entries most related to the window, best first.")
    ask_about: list[AskAboutOut] = Field(
        description=(
            "Persons and places named in the window that few entries the caller may see mention: fewest first."
        )
    )
    window_tokens: int = Field(description="Tokens read from the transcript's end (~4 characters a token).")
    latency_ms: dict[str, float]
    warnings: list[str] = []
