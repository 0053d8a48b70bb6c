"""Response body of `GET /v1/neighbours/{entry_id}`: the entries just before and after one, as its reader sees them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class NeighbourOut(BaseModel):
    entry_id: str
    title: str | None
    occurred_on: str | None = Field(description="The first day of the neighbour's date, when it has one.")


class NeighboursOut(BaseModel):
    entry_id: str
    by: Literal["thread", "date"] = Field(
        description="`thread`: the turns before and after in the entry's conversation; `date`: the entries before and "
        "after in the project's time line (undated entries last)."
    )
    before: NeighbourOut | None
    after: NeighbourOut | None
