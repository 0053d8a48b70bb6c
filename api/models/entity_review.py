"""Models of the entity review routes (api/routes/entity_review.py): candidates found by recognition at ingest,
confirmed, rejected, and entities merged or unmerged."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from api.models.core import RelinkJobOut

NAME = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")


class CandidateOut(BaseModel):
    """A name found in entries that is not a known entity, counted over the entries the caller may see."""

    name: str
    kind: Literal["person", "place", "thing"]
    mentions: int = Field(description="Times the name occurs in the entries the caller may see.")
    examples: list[str] = Field(description="Ids of up to three of those entries, latest first.")


class CandidateDecisionIn(BaseModel):
    """What a decision may say besides its path: the kind a confirmed name is declared as, when recognition guessed
    another ("Cádiz" found as a person is a place)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    as_: Literal["person", "place", "thing"] | None = Field(
        default=None,
        alias="as",
        description="Confirm only: declare the name as this kind instead of the path's `{kind}`.",
    )


class CandidateDecisionOut(BaseModel):
    """A confirmed candidate is declared (audience: the most open level the caller saw it at) and entries are
    re-linked to it; a rejected one stops being a candidate for whoever may see the rejection."""

    name: str
    kind: Literal["person", "place", "thing"]
    status: Literal["confirmed", "rejected"]
    id: str | None = Field(default=None, description="The entity's id (confirmed only).")
    relink: RelinkJobOut | None = None


class CalledDecisionOut(BaseModel):
    """A name messages gave a person, rejected for them: every spelling of it the caller saw, at the most open level
    they saw it at; whoever may see the rejection no longer finds the person by it."""

    id: str
    entity: str
    names: list[str]
    status: Literal["rejected"]


class MergeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    into: str = NAME
    from_: str = Field(alias="from", min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
    kind: Literal["person", "place", "thing"] | None = None


class UnmergeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = NAME
    kind: Literal["person", "place", "thing"] | None = None


class MergeOut(BaseModel):
    id: str = Field(description="The entity kept (merge) or restored (unmerge).")
    kind: Literal["person", "place", "thing"]
    name: str
    merged: str = Field(description="The entity merged into it (merge) or out of which it was restored (unmerge).")
    aliases_added: list[str] = Field(default_factory=list, description="Names that became aliases (merge).")
    relink: RelinkJobOut
