"""`/v1/entries`: read, write, replace and delete one entry.

A hidden entry answers exactly like a missing one (404, same body). Writes go through the same ingest pipeline as
`memora ingest`; the helpers at the bottom are shared with the witness routes, whose accounts are entries too.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query
from pydantic import ValidationError

from api.deps import ServicesDep, ViewerDep, WriteBudget, require_writer
from api.errors import NOT_FOUND
from api.models import EntryIn, EntryOut, EntryUpdate, WriteOut
from api.ratelimit import rate_limited
from api.services import Services
from graph.entries import EntryExists, get_visible_entry
from graph.members import role_of
from graph.visibility import Viewer, visibility_params
from ingest.pipeline import Ingestor, stored_records
from ingest.records import EntryRecord

router = APIRouter(prefix="/v1/entries", tags=["entries"])
WRITE_LIMITED = rate_limited("the caller's write budget is spent")


@router.get("/{entry_id:path}", response_model=EntryOut)
def get_entry(entry_id: str, who: ViewerDep, svc: ServicesDep) -> EntryOut:
    row = get_visible_entry(svc.graph, visibility_params(who), entry_id)
    if row is None:
        raise HTTPException(404, NOT_FOUND)
    return entry_out(row)


WaitDep = Annotated[bool, Query(description="Answer only once the entry is embedded. By default a write is "
                                            "acknowledged when committed and embedded by the worker.")]


@router.post("", response_model=WriteOut, status_code=201, dependencies=[WriteBudget], responses=WRITE_LIMITED)
def create_entry(body: EntryIn, who: ViewerDep, svc: ServicesDep, wait: WaitDep = False) -> WriteOut:
    assert who.user_id is not None
    require_writer(svc, body.project_id, who)
    entry_id = body.entry_id or f"{body.project_id}/{uuid.uuid4().hex[:12]}"
    if not entry_id.startswith(f"{body.project_id}/"):
        # Ids live in the project's namespace, so a writer can never probe another project's ids.
        raise HTTPException(422, [{"loc": ["body", "entry_id"], "type": "value_error",
                                   "msg": f"entry_id must start with '{body.project_id}/'"}])
    record = record_or_422(lambda: body.to_record(entry_id, who.user_id or ""))
    return write_record(svc, record, "created", wait=wait)


@router.put("/{entry_id:path}", response_model=WriteOut, dependencies=[WriteBudget], responses=WRITE_LIMITED)
def update_entry(entry_id: str, body: EntryUpdate, who: ViewerDep, svc: ServicesDep, wait: WaitDep = False
                 ) -> WriteOut:
    """Replace what a person writes. An omitted `intimacy` keeps the entry's level: a correction never opens it."""
    row = _editable(svc, who, entry_id)
    stored = stored_records(svc.graph, [entry_id])[0]
    fields = body.model_dump()
    if "intimacy" not in body.model_fields_set:
        fields.pop("intimacy")
    record = record_or_422(lambda: EntryRecord.model_validate({
        **stored, **fields, "entry_id": entry_id,
        "project_id": row["entry"]["project_id"], "author": row["entry"]["author_id"]}))
    return write_record(svc, record, "updated", wait=wait)


@router.delete("/{entry_id:path}", response_model=WriteOut, dependencies=[WriteBudget], responses=WRITE_LIMITED)
def remove_entry(entry_id: str, who: ViewerDep, svc: ServicesDep) -> WriteOut:
    _editable(svc, who, entry_id)
    Ingestor(svc.graph, svc.embedder, embed=False).delete(entry_id)
    return WriteOut(entry_id=entry_id, status="deleted")


def _editable(svc: Services, who: Viewer, entry_id: str) -> dict[str, Any]:
    """Hidden and missing entries are both 404. A visible entry may be changed by a writer of its project (owner or
    coauthor) who is its author, or by the owner: a reader cannot edit, not even what they once wrote."""
    row = get_visible_entry(svc.graph, visibility_params(who), entry_id)
    if row is None:
        raise HTTPException(404, NOT_FOUND)
    entry = row["entry"]
    role = role_of(svc.graph, entry["project_id"], who.user_id or "")
    if role not in ("owner", "coauthor"):
        raise HTTPException(403, "only the project's owner and coauthors can change its entries")
    if entry.get("author_id") != who.user_id and role != "owner":
        raise HTTPException(403, "only the entry's author or the project's owner can change it")
    return row


def record_or_422(build: Callable[[], EntryRecord]) -> EntryRecord:
    """The record ingest would store, or a 422 in the API's error shape (fields of the body, not of the record)."""
    try:
        return build()
    except ValidationError as exc:
        raise HTTPException(422, [{"loc": ["body", *e["loc"]], "msg": e["msg"], "type": e["type"]}
                                  for e in exc.errors()]) from exc


def write_record(svc: Services, record: EntryRecord, status: Literal["created", "updated"],
                 wait: bool = False) -> WriteOut:
    """Write through ingest (the same path as `memora ingest`). A create is atomic: of two concurrent creates of
    one id exactly one succeeds, the other gets 409. Without `wait` the answer comes once the entry is committed;
    its chunks are embedded by the worker and found by keyword meanwhile."""
    try:
        report = Ingestor(svc.graph, svc.embedder, embed=wait).ingest([(1, record)], create_only=status == "created")
    except EntryExists as exc:
        raise HTTPException(409, "an entry with this id already exists") from exc
    if report.errors:
        raise HTTPException(422, [{"loc": ["body"], "msg": report.errors[0].reason, "type": "value_error"}])
    if not report.written:
        return WriteOut(entry_id=record.entry_id, status="unchanged", embedding="done")
    return WriteOut(entry_id=record.entry_id, status=status,
                    embedding="pending" if report.chunks_pending else "done")


def entry_out(row: dict[str, Any]) -> EntryOut:
    e = row["entry"]

    def iso(v: Any) -> str | None:
        return v.iso_format() if v is not None else None

    return EntryOut(entry_id=e["id"], project_id=e["project_id"], author_id=e.get("author_id"), title=e.get("title"),
                    text=e.get("body", ""), occurred_on=iso(e.get("occurred_start")),
                    occurred_end=iso(e.get("occurred_end")), occurred_precision=e.get("occurred_precision"),
                    intimacy_level=e["intimacy"], kind=e["kind"], tags=list(e.get("tags") or []),
                    persons=sorted(row["persons"]), places=sorted(row["places"]), things=sorted(row["things"]),
                    periods=row["periods"], embedding_pending=bool(row["pending"]))
