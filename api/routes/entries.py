"""`/v1/entries`: read, write, replace, patch and delete one entry; `/v1/projects/{p}/entries`: list them.

GET answers an entry in the shape it is written (the record format of `memora ingest`, metadata included) plus
`read_only`, so what GET gives can be PUT back unchanged.

A hidden entry answers exactly like a missing one (404, same body). Writes go through the same ingest pipeline as
`memora ingest`; the helpers at the bottom are shared with the witness routes, whose accounts are entries too.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Path, Query
from pydantic import ValidationError

from api.deps import ReadBudget, ServicesDep, ViewerDep, WriteBudget, require_member, require_writer
from api.errors import NOT_FOUND
from api.models import (
    EntryIn,
    EntryListOut,
    EntryOut,
    EntryPatch,
    EntryPut,
    EntryReadOnly,
    Kind,
    LinkedOut,
    OccurredOut,
    Sort,
    WriteOut,
)
from api.ratelimit import READ_LIMITED, rate_limited
from api.responses import errors
from api.services import Services
from graph.entries import EntryExists, get_visible_entry
from graph.members import role_of
from graph.visibility import Viewer, visibility_params
from ingest.pipeline import Ingestor, stored_records
from ingest.records import ENTRY_ID_MAX, ENTRY_ID_PATTERN, ENTRY_ID_RULE, EntryRecord
from queries.listing import MAX_LIMIT, BadCursor, EntryFilters, list_entries

router = APIRouter(prefix="/v1/entries", tags=["entries"])
list_router = APIRouter(tags=["entries"])
WRITE_LIMITED = rate_limited("the caller's write budget is spent")
EDIT_ERRORS = {**errors(403, 404), **WRITE_LIMITED}
EntryIdPath = Annotated[str, Path(pattern=ENTRY_ID_PATTERN, max_length=ENTRY_ID_MAX, description=ENTRY_ID_RULE)]
UNCHANGEABLE = ("entry_id", "project_id", "author")


@router.get("/{entry_id:path}", response_model=EntryOut, responses=errors(404))
def get_entry(entry_id: EntryIdPath, who: ViewerDep, svc: ServicesDep) -> EntryOut:
    """The entry as it was written (PUT it back unchanged: 200, `unchanged`), plus `read_only`."""
    row = get_visible_entry(svc.graph, visibility_params(who), entry_id)
    if row is None:
        raise HTTPException(404, NOT_FOUND)
    return entry_out(row)


WaitDep = Annotated[
    bool,
    Query(
        description="Answer only once the entry is embedded. By default a write is "
        "acknowledged when committed and embedded by the worker."
    ),
]


@router.post(
    "",
    response_model=WriteOut,
    status_code=201,
    dependencies=[WriteBudget],
    responses={**errors(403, 409), **WRITE_LIMITED},
)
def create_entry(body: EntryIn, who: ViewerDep, svc: ServicesDep, wait: WaitDep = False) -> WriteOut:
    assert who.user_id is not None
    require_writer(svc, body.project_id, who)
    entry_id = body.entry_id or f"{body.project_id}/{uuid.uuid4().hex[:12]}"
    if not entry_id.startswith(f"{body.project_id}/"):
        # Ids live in the project's namespace, so a writer can never probe another project's ids.
        raise HTTPException(422, [_field_error("entry_id", f"entry_id must start with '{body.project_id}/'")])
    if body.author is not None and body.author != who.user_id:
        raise HTTPException(
            422, [_field_error("author", "the author of an entry written through the API is the caller")]
        )
    fields = body.model_dump(exclude={"entry_id", "author", "read_only"})
    record = record_or_422(lambda: EntryRecord.model_validate({**fields, "entry_id": entry_id, "author": who.user_id}))
    return write_record(svc, record, "created", wait=wait, writer=who)


@router.put("/{entry_id:path}", response_model=WriteOut, dependencies=[WriteBudget], responses=EDIT_ERRORS)
def update_entry(
    entry_id: EntryIdPath, body: EntryPut, who: ViewerDep, svc: ServicesDep, wait: WaitDep = False
) -> WriteOut:
    """Replace the entry: a field absent from the body takes its default (a metadata field absent is removed);
    an absent `intimacy` keeps the entry's level, so a correction never opens it. `PATCH` changes only what it
    names."""
    row = editable(svc, who, entry_id)
    stored = stored_records(svc.graph, [entry_id])[0]
    _same_identity(body.model_dump(include=set(UNCHANGEABLE)), stored)
    fields = body.model_dump(exclude={*UNCHANGEABLE, "read_only"})
    if fields.get("intimacy") is None:
        fields["intimacy"] = stored["intimacy"]
    record = record_or_422(
        lambda: EntryRecord.model_validate(
            {**fields, "entry_id": entry_id, "project_id": row["entry"]["project_id"], "author": stored["author"]}
        )
    )
    return write_record(svc, record, "updated", wait=wait, writer=who)


@router.patch(
    "/{entry_id:path}",
    response_model=WriteOut,
    dependencies=[WriteBudget],
    responses=EDIT_ERRORS,
    openapi_extra={
        "requestBody": {
            "content": {"application/merge-patch+json": {"schema": {"$ref": "#/components/schemas/EntryPatch"}}}
        }
    },
)
def patch_entry(
    entry_id: EntryIdPath, body: EntryPatch, who: ViewerDep, svc: ServicesDep, wait: WaitDep = False
) -> WriteOut:
    """JSON merge patch: absent fields are kept, `null` clears (`persons`, `places`, `tags` become empty; a metadata
    field is removed); `text`, `intimacy` and `kind` cannot be cleared."""
    editable(svc, who, entry_id)
    stored = stored_records(svc.graph, [entry_id])[0]
    patch = {k: v for k, v in body.model_dump().items() if k in body.model_fields_set or k in (body.model_extra or {})}
    _same_identity({k: patch.pop(k) for k in UNCHANGEABLE if k in patch}, stored)
    patch.pop("read_only", None)
    record = record_or_422(lambda: EntryRecord.model_validate(merge_patch(stored, patch)))
    return write_record(svc, record, "updated", wait=wait, writer=who)


@router.delete("/{entry_id:path}", response_model=WriteOut, dependencies=[WriteBudget], responses=EDIT_ERRORS)
def remove_entry(entry_id: EntryIdPath, who: ViewerDep, svc: ServicesDep) -> WriteOut:
    editable(svc, who, entry_id)
    Ingestor(svc.graph, svc.embedder, embed=False, source="api", writer=who).delete(entry_id)
    return WriteOut(entry_id=entry_id, status="deleted")


@list_router.get(
    "/v1/projects/{project_id}/entries",
    response_model=EntryListOut,
    dependencies=[ReadBudget],
    responses={**errors(403), **READ_LIMITED},
)
def list_project_entries(
    project_id: str,
    who: ViewerDep,
    svc: ServicesDep,
    period: Annotated[list[str] | None, Query(description="Chapter name; repeat for any of several.")] = None,
    date_from: Annotated[date | None, Query(description="Entries whose date (range) ends on or after it.")] = None,
    date_to: Annotated[date | None, Query(description="Entries whose date (range) starts on or before it.")] = None,
    author: Annotated[list[str] | None, Query(description="Author user id; repeat for any of several.")] = None,
    person: Annotated[list[str] | None, Query(description="Person name or alias; repeat for any of several.")] = None,
    place: Annotated[list[str] | None, Query(description="Place name or alias; repeat for any of several.")] = None,
    kind: Annotated[list[Kind] | None, Query(description="Kind; repeat for any of several.")] = None,
    time: Annotated[
        Literal["event", "written"],
        Query(
            description="Which clock `date_from`/`date_to` read: `event` (default), the entry's date or a time its "
            "text tells (within the range); `written`, the entry's date only. The order is by the entry's date."
        ),
    ] = "event",
    sort: Annotated[
        Sort,
        Query(
            description="By date: `desc` newest first (default), `asc` oldest first; undated entries last; ties by id."
        ),
    ] = "desc",
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 20,
    cursor: Annotated[
        str | None,
        Query(max_length=2000, description="`next_cursor` of the previous page, with the same filters and sort."),
    ] = None,
) -> EntryListOut:
    """The project's entries the caller may see, filtered (list filters mean "any of"), sorted by date and paged.
    No total is given; `next_cursor` is null on the last page."""
    require_member(svc, project_id, who)
    if date_from and date_to and date_to < date_from:
        raise HTTPException(422, [_field_error("date_to", "date_to is before date_from", where="query")])
    filters = EntryFilters(
        periods=period,
        date_from=date_from,
        date_to=date_to,
        authors=author,
        persons=person,
        places=place,
        kinds=list(kind) if kind else None,
        time=time,
    )
    try:
        page = list_entries(svc.graph, who, project_id, filters, sort=sort, limit=limit, cursor=cursor)
    except BadCursor as exc:
        raise HTTPException(422, [_field_error("cursor", str(exc), where="query")]) from exc
    return EntryListOut(entries=[entry_out(r) for r in page.rows], next_cursor=page.next_cursor, warnings=page.warnings)


def _field_error(name: str, msg: str, where: str = "body") -> dict[str, Any]:
    return {"loc": [where, name], "msg": msg, "type": "value_error"}


def _same_identity(given: dict[str, Any], stored: dict[str, Any]) -> None:
    """`entry_id`, `project_id` and `author` may be sent back as GET gave them, never changed."""
    errors = [
        _field_error(k, f"{k} cannot be changed (it is {stored[k]!r})")
        for k in UNCHANGEABLE
        if given.get(k) is not None and given[k] != stored[k]
    ]
    if errors:
        raise HTTPException(422, errors)


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
        raise HTTPException(
            422, [{"loc": ["body", *e["loc"]], "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        ) from exc


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
        raise HTTPException(409, "an entry with this id already exists") from exc
    if report.errors:
        raise HTTPException(422, [{"loc": ["body"], "msg": report.errors[0].reason, "type": "value_error"}])
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


def entry_out(row: dict[str, Any]) -> EntryOut:
    """A stored entry in the shape it is written, metadata next to the other fields, and what is derived from it
    in `read_only`."""
    e = row["entry"]

    def iso(v: Any) -> str | None:
        return v.to_native().isoformat() if v is not None else None

    record = {
        "entry_id": e["id"],
        "project_id": e["project_id"],
        "text": e.get("body", ""),
        "author": e.get("author_id"),
        "title": e.get("title"),
        "occurred_on": e.get("occurred_on"),
        "occurred_at": e.get("occurred_at"),
        "persons": list(e.get("listed_persons") or []),
        "places": list(e.get("listed_places") or []),
        "tags": list(e.get("tags") or []),
        "intimacy": e["intimacy"],
        "kind": e["kind"],
        "period": e.get("period_name"),
    }
    metadata = json.loads(e.get("metadata") or "{}")
    turn = metadata.pop("turn", None)
    record["turn"] = turn if isinstance(turn, int) and not isinstance(turn, bool) and turn >= 0 else None
    start, end = iso(e.get("occurred_start")), iso(e.get("occurred_end"))
    hashes = (e.get("record_hash"), e.get("file_hash"))
    read_only = EntryReadOnly(
        created_at=iso(e.get("created_at")),
        updated_at=iso(e.get("updated_at")),
        occurred=OccurredOut(start=start, end=end, precision=e.get("occurred_precision") or "day")
        if start and end
        else None,
        linked=LinkedOut(persons=sorted(row["persons"]), places=sorted(row["places"]), things=sorted(row["things"])),
        period_id=row["periods"][0]["id"] if row["periods"] else None,
        embedding="pending" if row["pending"] else "done",
        written_by=None if hashes[0] is None else ("file" if hashes[0] == hashes[1] else "api"),
    )
    extra = {k: v for k, v in metadata.items() if k not in EntryOut.model_fields}
    return EntryOut.model_validate({**extra, **record, "read_only": read_only})
