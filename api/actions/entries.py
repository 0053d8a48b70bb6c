"""Entries as every door shows them: one in the shape it is written (`GET /v1/entries/{id}`, a witness's, the web's
entry page, `memora entries`), the ones just before and after it (`GET /v1/neighbours/{id}`, the web's entry page),
and a page of a project's (`GET /v1/projects/{p}/entries`, the web's timeline)."""

from __future__ import annotations

import json
from typing import Any

from api.actions.refusals import Invalid, NotFound
from api.actions.roles import must_be_member
from api.actions.write import field_error
from api.errors import NOT_FOUND
from api.models.core import EntryListOut, EntryOut, EntryReadOnly, LinkedOut, OccurredOut, Sort
from api.models.neighbours import NeighbourOut, NeighboursOut
from api.services import Services
from graph.entries import get_visible_entry
from graph.visibility import Viewer
from queries.entry_neighbours import Neighbour, entry_neighbours
from queries.listing import BadCursor, EntryFilters, list_entries


def visible_entry(svc: Services, viewer: Viewer, entry_id: str) -> EntryOut:
    """The entry as it was written, plus `read_only`; a hidden one is refused exactly like a missing one."""
    row = get_visible_entry(svc.graph, viewer, entry_id)
    if row is None:
        raise NotFound(NOT_FOUND)
    return entry_out(row)


def neighbours(svc: Services, viewer: Viewer, entry_id: str) -> NeighboursOut:
    """The turns before and after in the entry's conversation, or the entries before and after it in time; each the
    nearest one the viewer may see. Unpaid: the door pays its read (the route's budget dependency)."""
    found = entry_neighbours(svc.graph, viewer, entry_id)
    if found is None:
        raise NotFound(NOT_FOUND)
    return NeighboursOut(entry_id=entry_id, by=found.by, before=_neighbour(found.before), after=_neighbour(found.after))


def project_entries(
    svc: Services,
    viewer: Viewer,
    project_id: str,
    filters: EntryFilters,
    sort: Sort = "desc",
    limit: int = 20,
    cursor: str | None = None,
) -> EntryListOut:
    """One page of the project's entries the viewer may see, for a member. Unpaid: the door has paid its read (the
    listing route's budget dependency, the timeline read). A bad range or cursor is refused as the query's field."""
    must_be_member(svc, project_id, viewer)
    if filters.date_from and filters.date_to and filters.date_to < filters.date_from:
        raise Invalid([field_error("date_to", "date_to is before date_from", where="query")])
    try:
        page = list_entries(svc.graph, viewer, project_id, filters, sort=sort, limit=limit, cursor=cursor)
    except BadCursor as exc:
        raise Invalid([field_error("cursor", str(exc), where="query")]) from exc
    return EntryListOut(entries=[entry_out(r) for r in page.rows], next_cursor=page.next_cursor, warnings=page.warnings)


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


def _neighbour(n: Neighbour | None) -> NeighbourOut | None:
    return None if n is None else NeighbourOut(entry_id=n.entry_id, title=n.title, occurred_on=n.occurred_on)
