"""Answers of the routes that forget: a person, place or thing (with its names redacted from entries), a member's
entries when they leave, a whole project."""

from __future__ import annotations

from pydantic import BaseModel, Field

from api.models.core import RelinkJobOut


class RedactedEntryOut(BaseModel):
    entry_id: str
    occurrences: int = Field(description="How many times the entry's texts named the entity (each now reads `[—]`).")


class ForgetOut(BaseModel):
    """What forgetting an entity changed (or, with `dry_run`, would change), as the caller may know it."""

    dry_run: bool
    kind: str
    name: str
    names: list[str] = Field(description="The names and aliases redacted, as the caller sees them.")
    entries: list[RedactedEntryOut] = Field(
        description="Entries the caller may edit whose texts name the entity: rewritten with each name replaced."
    )
    declarations: int = Field(description="Declarations of the entity the caller may see: deleted.")
    not_editable: int = Field(
        description="Entries the caller may see but not edit (another author's) that name it: left as they are."
    )
    relink: RelinkJobOut | None = Field(
        description="The re-linking that follows (none for a dry run); the rewritten entries are embedded again by "
        "the embedding worker and found by keyword meanwhile."
    )


class LeaveIn(BaseModel):
    model_config = {"extra": "forbid"}

    delete_entries: bool = Field(
        default=False,
        description="Also delete every entry the caller wrote in the project (export them first with "
        "`GET …/export?own=true`), and the names they declared or rejected.",
    )


class LeaveOut(BaseModel):
    """The caller is no longer a member; what of theirs was deleted with them."""

    project_id: str
    role: str = Field(description="The role the caller held.")
    entries_deleted: int
    declarations_deleted: int


class ProjectDeletedOut(BaseModel):
    """The project is gone, with everything in it and derived from it (every author's entries)."""

    project_id: str
    entries_deleted: int = Field(
        description="The entries the caller could see; entries hidden from them went too, uncounted here (how many "
        "there were is not theirs to learn; `memora project delete` tells the operator)."
    )
    members_removed: int
