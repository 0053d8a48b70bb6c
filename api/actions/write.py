"""Writing one entry, as every door asks it: `POST/PUT/PATCH/DELETE /v1/entries` and the witness's account
(`POST /v1/w/{token}/entries`), the web's write, edit and delete forms and the witness page's form, the MCP
`add_entry` tool. One from the caller's write budget, then the same ingest pipeline as `memora ingest`.

A hidden entry is refused exactly like a missing one. The refusals are the action's own (api/actions/refusals.py),
which every door answers as the API does (404, 403, 409, 422 in the body's error shape).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from pydantic import ValidationError

from api.actions.budgets import Budgets, Who, given
from api.actions.refusals import AlreadyExists, Invalid, NotAllowed, NotFound
from api.actions.roles import WRITERS, must_write
from api.errors import NOT_FOUND
from api.models.core import EntryIn, EntryPatch, EntryPut, WitnessEntryIn, WriteOut
from api.ratelimit import Budget
from api.services import Services
from graph.entries import EntryExists, get_visible_entry
from graph.members import role_of
from graph.visibility import Viewer
from graph.witnesses import Grant
from ingest.pipeline import WITNESS_AUTHOR_PREFIX, Ingestor, stored_records
from ingest.records import EntryRecord

BUDGET: Budget = "write"
UNCHANGEABLE = ("entry_id", "project_id", "author")
R = TypeVar("R")


@dataclass(frozen=True)
class NewEntry:
    """An entry to create; `wait`: answer only once it is embedded."""

    entry: EntryIn
    wait: bool = False


@dataclass(frozen=True)
class Change:
    """A replacement (`EntryPut`) or a merge patch (`EntryPatch`) of one entry."""

    entry_id: str
    body: EntryPut | EntryPatch
    wait: bool = False


def create(svc: Services, budgets: Budgets, who: Who, new: NewEntry | Callable[[], NewEntry]) -> WriteOut:
    """A new entry by a writer of its project, authored by them, its id in the project's namespace."""
    budgets.spend(BUDGET, who.key)
    n = given(new)
    body, user = n.entry, who.viewer.user_id
    assert user is not None
    must_write(svc, body.project_id, who.viewer)
    entry_id = body.entry_id or f"{body.project_id}/{uuid.uuid4().hex[:12]}"
    if not entry_id.startswith(f"{body.project_id}/"):
        # Ids live in the project's namespace, so a writer can never probe another project's ids.
        raise Invalid([field_error("entry_id", f"entry_id must start with '{body.project_id}/'")])
    if body.author is not None and body.author != user:
        raise Invalid([field_error("author", "the author of an entry written through the API is the caller")])
    fields = body.model_dump(exclude={"entry_id", "author", "read_only"})
    record = record_or_422(lambda: EntryRecord.model_validate({**fields, "entry_id": entry_id, "author": user}))
    return write_record(svc, record, "created", wait=n.wait, writer=who.viewer)


def replace(svc: Services, budgets: Budgets, who: Who, change: Change | Callable[[], Change]) -> WriteOut:
    """A field absent from the body takes its default; an absent `intimacy` keeps the entry's level."""
    budgets.spend(BUDGET, who.key)
    c = given(change)
    row = editable(svc, who.viewer, c.entry_id)
    stored = stored_records(svc.graph, [c.entry_id])[0]
    _same_identity(c.body.model_dump(include=set(UNCHANGEABLE)), stored)
    fields = c.body.model_dump(exclude={*UNCHANGEABLE, "read_only"})
    if fields.get("intimacy") is None:
        fields["intimacy"] = stored["intimacy"]
    record = record_or_422(
        lambda: EntryRecord.model_validate(
            {**fields, "entry_id": c.entry_id, "project_id": row["entry"]["project_id"], "author": stored["author"]}
        )
    )
    return write_record(svc, record, "updated", wait=c.wait, writer=who.viewer)


def patch(svc: Services, budgets: Budgets, who: Who, change: Change | Callable[[], Change]) -> WriteOut:
    """JSON merge patch of the fields the body names (or sends as extra metadata)."""
    budgets.spend(BUDGET, who.key)
    c = given(change)
    editable(svc, who.viewer, c.entry_id)
    stored = stored_records(svc.graph, [c.entry_id])[0]
    body = c.body
    named = {k: v for k, v in body.model_dump().items() if k in body.model_fields_set or k in (body.model_extra or {})}
    _same_identity({k: named.pop(k) for k in UNCHANGEABLE if k in named}, stored)
    named.pop("read_only", None)
    record = record_or_422(lambda: EntryRecord.model_validate(merge_patch(stored, named)))
    return write_record(svc, record, "updated", wait=c.wait, writer=who.viewer)


def delete(svc: Services, budgets: Budgets, who: Who, entry_id: str) -> WriteOut:
    budgets.spend(BUDGET, who.key)
    editable(svc, who.viewer, entry_id)
    Ingestor(svc.graph, svc.embedder, embed=False, source="api", writer=who.viewer).delete(entry_id)
    return WriteOut(entry_id=entry_id, status="deleted")


def witness_account(
    svc: Services, budgets: Budgets, grant: Grant, body: WitnessEntryIn | Callable[[], WitnessEntryIn]
) -> WriteOut:
    """A witness's own account in the link's chapter: kind witness, intimacy circle, authored by the grant."""
    who = Who.witness(grant)
    budgets.spend(BUDGET, who.key)
    b = given(body)
    entry_id = f"{grant.project_id}/witness-{uuid.uuid4().hex[:12]}"
    record = record_or_422(
        lambda: EntryRecord.model_validate(
            {
                **b.model_dump(),
                "entry_id": entry_id,
                "project_id": grant.project_id,
                "author": f"{WITNESS_AUTHOR_PREFIX}{grant.id}",
                "kind": "witness",
                "intimacy": "circle",
                "period": grant.period_name,
            }
        )
    )
    return write_record(svc, record, "created", writer=who.viewer)


def field_error(name: str, msg: str, where: str = "body") -> dict[str, Any]:
    return {"loc": [where, name], "msg": msg, "type": "value_error"}


def _same_identity(sent: dict[str, Any], stored: dict[str, Any]) -> None:
    """`entry_id`, `project_id` and `author` may be sent back as GET gave them, never changed."""
    errors = [
        field_error(k, f"{k} cannot be changed (it is {stored[k]!r})")
        for k in UNCHANGEABLE
        if sent.get(k) is not None and sent[k] != stored[k]
    ]
    if errors:
        raise Invalid(errors)


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396: objects merge key by key, `null` removes a key, anything else replaces."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def editable(svc: Services, who: Viewer, entry_id: str) -> dict[str, Any]:
    """Hidden and missing entries are both 404. A visible entry may be changed by a writer of its project (owner or
    coauthor) who is its author, or by the owner: a reader cannot edit, not even what they once wrote."""
    row = get_visible_entry(svc.graph, who, entry_id)
    if row is None:
        raise NotFound(NOT_FOUND)
    entry = row["entry"]
    role = role_of(svc.graph, entry["project_id"], who.user_id or "")
    if role not in WRITERS:
        raise NotAllowed("only the project's owner and coauthors can change its entries", reason="reader")
    if entry.get("author_id") != who.user_id and role != "owner":
        raise NotAllowed("only the entry's author or the project's owner can change it", reason="not_author")
    return row


def record_or_422(build: Callable[[], EntryRecord]) -> EntryRecord:
    """The record ingest would store, or a 422 in the API's error shape (fields of the body, not of the record)."""
    try:
        return build()
    except ValidationError as exc:
        raise Invalid([{"loc": ["body", *e["loc"]], "msg": e["msg"], "type": e["type"]} for e in exc.errors()]) from exc


def write_record(
    svc: Services, record: EntryRecord, status: Literal["created", "updated"], wait: bool = False, *, writer: Viewer
) -> WriteOut:
    """Write through ingest (the same path as `memora ingest`). A create is atomic: of two concurrent creates of
    one id exactly one succeeds, the other gets 409. Without `wait` the answer comes once the entry is committed;
    its chunks are embedded by the worker and found by keyword meanwhile. `writer` is the caller: only vectors of
    entries they may see are reused, since `embedding` (and the time taken) would tell them one was."""
    try:
        report = Ingestor(svc.graph, svc.embedder, embed=wait, source="api", writer=writer).ingest(
            [(1, record)], create_only=status == "created"
        )
    except EntryExists as exc:
        raise AlreadyExists("an entry with this id already exists") from exc
    if report.errors:
        raise Invalid([{"loc": ["body"], "msg": report.errors[0].reason, "type": "value_error"}])
    if not report.written:
        return WriteOut(entry_id=record.entry_id, status="unchanged", embedding="done")
    # The entry's own chunks, not the report's count, which includes the thread neighbours the write re-derived (a
    # turn hidden from the writer among them); and nothing read after the commit, which an outage would turn into
    # a refusal of a stored write.
    return WriteOut(
        entry_id=record.entry_id,
        status=status,
        embedding="pending" if record.entry_id in report.pending_ids else "done",
    )


def paid_write(budgets: Budgets, who: Who, do: Callable[[], R]) -> R:
    """A write that is not an entry's (the web's decision on a recognised name, and the merge it may ask for): one
    from the write budget, as each of the API's entity routes costs, paid before `do` reads its input or the
    graph."""
    budgets.spend(BUDGET, who.key)
    return do()
