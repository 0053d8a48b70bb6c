"""A project's entries, filtered, sorted by date and paged by an opaque cursor (`GET /v1/projects/{p}/entries`,
`memora entries`).

Every filter, the order and the page limit are applied inside one Cypher statement after the visibility predicate,
so a hidden entry is never counted, ordered or paged over: adding, editing or deleting entries hidden from a viewer
changes nothing they list, not even where a page ends. No total is given (it would cost a count per page). Names in
filters resolve through the names the viewer may know (like search's filters): a name known only from hidden
entries answers exactly like a name nobody wrote.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from graph.clocks import told_within
from graph.db import Graph
from graph.entities import Entity, list_visible_entities
from graph.entries import entry_details
from graph.ids import sha256
from graph.periods import chapter_ids
from graph.textnorm import fold
from graph.visibility import CAN_SEE, Viewer, visibility_params

MAX_LIMIT = 100
# The date range meets an entry by either clock under `time = 'event'` (as a search's date: its own date overlaps
# the range, or a time its text tells lies within it), by its own date only under 'written'; the order is always by
# its own date. Undated entries come after dated ones in both orders; ties (same start date) are broken by id, in the
# same direction as the dates, so every position is unique and a cursor never skips or repeats an entry.
_LIST = """
MATCH (e:Entry {{project_id: $project_id}})
WHERE {can_see}
  AND ($kinds IS NULL OR e.kind IN $kinds)
  AND ($author_ids IS NULL OR e.author_id IN $author_ids)
  AND ((($date_from IS NULL OR e.occurred_end >= $date_from) AND ($date_to IS NULL OR e.occurred_start <= $date_to))
       OR ($time = 'event' AND {told_within}))
  AND ($period_ids IS NULL
       OR EXISTS {{ MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(per:Period) WHERE per.id IN $period_ids }})
  AND ($person_ids IS NULL OR EXISTS {{ MATCH (e)-[:MENTIONS]->(x:Person) WHERE x.id IN $person_ids }})
  AND ($place_ids IS NULL OR EXISTS {{ MATCH (e)-[:MENTIONS]->(x:Place) WHERE x.id IN $place_ids }})
  AND ($after_id IS NULL
       OR ($after_start IS NULL AND e.occurred_start IS NULL AND e.id {op} $after_id)
       OR ($after_start IS NOT NULL AND (e.occurred_start IS NULL OR e.occurred_start {op} $after_start
                                         OR (e.occurred_start = $after_start AND e.id {op} $after_id))))
WITH e ORDER BY e.occurred_start IS NULL, e.occurred_start {direction}, e.id {direction} LIMIT $limit
WITH collect(e) AS page
UNWIND range(0, size(page) - 1) AS ord
WITH page[ord] AS e, ord
{details}
ORDER BY ord
"""
_TOLD = told_within("e", "date_from", "date_to")
LIST_ENTRIES = {
    "asc": _LIST.format(can_see=CAN_SEE, told_within=_TOLD, op=">", direction="ASC", details=entry_details(", ord")),
    "desc": _LIST.format(can_see=CAN_SEE, told_within=_TOLD, op="<", direction="DESC", details=entry_details(", ord")),
}


class BadCursor(ValueError):
    """A cursor that is not one this listing gave (garbled, or from another sort or other filters)."""


@dataclass(frozen=True)
class EntryFilters:
    """List filters mean "any of"; None (or empty) means no filter."""

    periods: list[str] | None = None
    date_from: date | None = None
    date_to: date | None = None
    authors: list[str] | None = None
    persons: list[str] | None = None
    places: list[str] | None = None
    kinds: list[str] | None = None
    time: str = "event"

    def key(self, project_id: str, sort: str) -> str:
        """What a cursor is bound to: the same project, order and filters."""
        return sha256(
            project_id,
            sort,
            json.dumps(
                [
                    sorted(v) if isinstance(v, list) else (v.isoformat() if isinstance(v, date) else v)
                    for v in (
                        self.periods,
                        self.date_from,
                        self.date_to,
                        self.authors,
                        self.persons,
                        self.places,
                        self.kinds,
                        self.time,
                    )
                ]
            ),
        )[:16]


@dataclass
class EntryPage:
    rows: list[dict[str, Any]]
    next_cursor: str | None
    warnings: list[str] = field(default_factory=list)


def encode_cursor(bound: str, start: date | None, entry_id: str) -> str:
    raw = json.dumps({"k": bound, "d": start.isoformat() if start else None, "i": entry_id}, ensure_ascii=False)
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, bound: str) -> tuple[date | None, str]:
    try:
        data = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        start = date.fromisoformat(data["d"]) if data["d"] is not None else None
        entry_id = data["i"]
        matches = data["k"] == bound
    except (binascii.Error, ValueError, TypeError, KeyError, UnicodeDecodeError) as exc:
        raise BadCursor("not a cursor this listing gave") from exc
    if not isinstance(entry_id, str) or not matches:
        raise BadCursor("this cursor belongs to a listing with another sort or other filters")
    return start, entry_id


def _entity_ids(known: list[Entity], kind: str, names: list[str] | None, warnings: list[str]) -> list[str] | None:
    """Every entity of `kind` among those the viewer may know that answers to one of `names`; an unknown name
    matches nothing."""
    if not names:
        return None
    ids: list[str] = []
    for name in names:
        found = [e.id for e in known if e.kind == kind and fold(name) in e.answers_to()]
        if not found:
            warnings.append(f"no {kind} named {name!r} in the entries you can see; the filter matches nothing")
        ids.extend(found)
    return ids


def list_entries(
    graph: Graph,
    viewer: Viewer,
    project_id: str,
    filters: EntryFilters,
    sort: str = "desc",
    limit: int = 20,
    cursor: str | None = None,
) -> EntryPage:
    """One page of the visible entries of a project (the caller checks membership first)."""
    if sort not in LIST_ENTRIES:
        raise ValueError("sort is asc or desc")
    limit = max(1, min(limit, MAX_LIMIT))
    bound = filters.key(project_id, sort)
    after_start, after_id = decode_cursor(cursor, bound) if cursor else (None, None)
    warnings: list[str] = []
    known = list_visible_entities(graph, [project_id], viewer) if filters.persons or filters.places else []
    params = {
        "project_id": project_id,
        "limit": limit + 1,
        "after_start": after_start,
        "after_id": after_id,
        "kinds": filters.kinds or None,
        "author_ids": filters.authors or None,
        "date_from": filters.date_from,
        "date_to": filters.date_to,
        "time": filters.time,
        "period_ids": [i for p in filters.periods for i in chapter_ids(project_id, p)] if filters.periods else None,
        "person_ids": _entity_ids(known, "person", filters.persons, warnings),
        "place_ids": _entity_ids(known, "place", filters.places, warnings),
        **visibility_params(viewer),
    }
    rows = [dict(r) for r in graph.read(LIST_ENTRIES[sort], params)]
    more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = None
    if more:
        last = rows[-1]["entry"]
        start = last.get("occurred_start")
        next_cursor = encode_cursor(bound, start.to_native() if hasattr(start, "to_native") else start, last["id"])
    return EntryPage(rows, next_cursor, warnings)
