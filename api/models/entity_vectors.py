"""API shapes of entity vectors: "similar to X" and the answer an entity question gets in a search response."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

TargetKind = Literal["person", "place", "thing", "period"]


class SimilarRef(BaseModel):
    id: str
    name: str
    kind: TargetKind


class SimilarItemOut(BaseModel):
    """An entity or chapter, its cosine similarity to the one asked about, and how many visible entries its vector
    is built from."""

    id: str
    name: str
    kind: TargetKind
    score: float
    entries: int


class SimilarOut(BaseModel):
    entity: SimilarRef
    similar: list[SimilarItemOut]


class AnswerEntity(BaseModel):
    id: str
    name: str


class AnswerItem(BaseModel):
    """One answer, best first; kind is person, place, thing, period, or year (timelines). Extra fields depend on the
    question: together/first/last (co-occurrence), year/entries/mentions (timeline), entries/mentions/periods/years
    (importance), entries (similar)."""

    model_config = ConfigDict(extra="allow")

    id: str
    name: str
    kind: str
    score: float


class EntityAnswer(BaseModel):
    """What an entity question ("¿con quién aparece Pep?") answers, over what the viewer may see."""

    kind: Literal["cooccurrence", "timeline", "importance", "similar"]
    entity: AnswerEntity | None
    items: list[AnswerItem]
