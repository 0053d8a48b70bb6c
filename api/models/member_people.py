"""Request and response bodies of the members' persons: which person of a project a member is, declared by an owner
(`/v1/projects/{project_id}/member-persons`, graph/member_people.py)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from api.models.core import RelinkJobOut, Role


class MemberPersonIn(BaseModel):
    """A member is a person of the project: their entries count them as one of their persons."""

    model_config = ConfigDict(extra="forbid")

    user_id: str = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")
    person: str = Field(
        min_length=1,
        max_length=400,
        description="The person's name, an alias or its id; a person every member may know of (declared for the "
        "circle or public, or named by a circle or public entry).",
    )


class MemberPersonOut(BaseModel):
    user_id: str
    role: Role | None = Field(default=None, description="In a listing: the member's role.")
    person_id: str | None = Field(description="The person they are; null when none.")
    person: str | None = Field(description="That person's name, as every member may know it.")
    relink: RelinkJobOut | None = Field(
        default=None, description="After a change: the re-linking that gives (or takes) their entries the person."
    )
