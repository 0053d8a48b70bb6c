"""`/v1/entries`: read, write, replace, patch and delete one entry; `/v1/projects/{p}/entries`: list them.

GET answers an entry in the shape it is written (the record format of `memora ingest`, metadata included) plus
`read_only`, so what GET gives can be PUT back unchanged.

A hidden entry answers exactly like a missing one (404, same body). Writes are the write action's
(`api.actions.write`), which goes through the same ingest pipeline as `memora ingest`.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query

from api.actions import write as writing
from api.actions.budgets import Who
from api.actions.entries import project_entries, visible_entry
from api.deps import ReadBudget, ServicesDep, ViewerDep, WriteBudgets
from api.models.core import (
    EntryIn,
    EntryListOut,
    EntryOut,
    EntryPatch,
    EntryPut,
    Kind,
    Sort,
    WriteOut,
)
from api.ratelimit import READ_LIMITED, rate_limited
from api.responses import errors
from ingest.records import ENTRY_ID_MAX, ENTRY_ID_PATTERN, ENTRY_ID_RULE
from queries.listing import MAX_LIMIT, EntryFilters

router = APIRouter(prefix="/v1/entries", tags=["entries"])
list_router = APIRouter(tags=["entries"])
WRITE_LIMITED = rate_limited("the caller's write budget is spent")
EDIT_ERRORS = {**errors(403, 404), **WRITE_LIMITED}
EntryIdPath = Annotated[str, Path(pattern=ENTRY_ID_PATTERN, max_length=ENTRY_ID_MAX, description=ENTRY_ID_RULE)]


@router.get("/{entry_id:path}", response_model=EntryOut, responses=errors(404))
def get_entry(entry_id: EntryIdPath, who: ViewerDep, svc: ServicesDep) -> EntryOut:
    """The entry as it was written (PUT it back unchanged: 200, `unchanged`), plus `read_only`."""
    return visible_entry(svc, who, entry_id)


WaitDep = Annotated[
    bool,
    Query(
        description="Answer only once the entry is embedded. By default a write is "
        "acknowledged when committed and embedded by the worker."
    ),
]


@router.post("", response_model=WriteOut, status_code=201, responses={**errors(403, 409), **WRITE_LIMITED})
def create_entry(
    body: EntryIn, who: ViewerDep, svc: ServicesDep, budgets: WriteBudgets, wait: WaitDep = False
) -> WriteOut:
    return writing.create(svc, budgets, Who.user(who), writing.NewEntry(body, wait))


@router.put("/{entry_id:path}", response_model=WriteOut, responses=EDIT_ERRORS)
def update_entry(
    entry_id: EntryIdPath,
    body: EntryPut,
    who: ViewerDep,
    svc: ServicesDep,
    budgets: WriteBudgets,
    wait: WaitDep = False,
) -> WriteOut:
    """Replace the entry: a field absent from the body takes its default (a metadata field absent is removed);
    an absent `intimacy` keeps the entry's level, so a correction never opens it. `PATCH` changes only what it
    names."""
    return writing.replace(svc, budgets, Who.user(who), writing.Change(entry_id, body, wait))


@router.patch(
    "/{entry_id:path}",
    response_model=WriteOut,
    responses=EDIT_ERRORS,
    openapi_extra={
        "requestBody": {
            "content": {"application/merge-patch+json": {"schema": {"$ref": "#/components/schemas/EntryPatch"}}}
        }
    },
)
def patch_entry(
    entry_id: EntryIdPath,
    body: EntryPatch,
    who: ViewerDep,
    svc: ServicesDep,
    budgets: WriteBudgets,
    wait: WaitDep = False,
) -> WriteOut:
    """JSON merge patch: absent fields are kept, `null` clears (`persons`, `places`, `tags` become empty; a metadata
    field is removed); `text`, `intimacy` and `kind` cannot be cleared."""
    return writing.patch(svc, budgets, Who.user(who), writing.Change(entry_id, body, wait))


@router.delete("/{entry_id:path}", response_model=WriteOut, responses=EDIT_ERRORS)
def remove_entry(entry_id: EntryIdPath, who: ViewerDep, svc: ServicesDep, budgets: WriteBudgets) -> WriteOut:
    return writing.delete(svc, budgets, Who.user(who), entry_id)


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
    return project_entries(svc, who, project_id, filters, sort, limit, cursor)
