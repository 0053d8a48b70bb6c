"""The entries that name one person, place or thing, as the viewer may see them, newest first, a page at a time: the
web's entity page lists them. One statement: the visibility predicate, then the order and the page limit, so an entry
hidden from the viewer never takes a place in the list or moves where a page ends. The cursor is the listing's
(`queries.listing`), bound to the project and the entity."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from graph.analytics import ENTITY_BY_ID
from graph.db import Graph
from graph.ids import sha256
from graph.visibility import CAN_SEE_IN_PROJECT, VIEWER_IN_PROJECT, Viewer, mention_seen, visibility_params
from queries.listing import MAX_LIMIT, decode_cursor, encode_cursor

EXCERPT_CHARS = 240
# Newest first by the entry's own date, undated ones last; ties by id, so each position is unique and a cursor never
# skips or repeats an entry.
ENTITY_ENTRIES = f"""
{VIEWER_IN_PROJECT}
{ENTITY_BY_ID}
MATCH (e:Entry)-[m:MENTIONS]->(x)
WHERE e.project_id = $project_id AND {CAN_SEE_IN_PROJECT} AND {mention_seen("m")}
WITH DISTINCT e
WHERE $after_id IS NULL
   OR ($after_start IS NULL AND e.occurred_start IS NULL AND e.id < $after_id)
   OR ($after_start IS NOT NULL AND (e.occurred_start IS NULL OR e.occurred_start < $after_start
                                     OR (e.occurred_start = $after_start AND e.id < $after_id)))
WITH e ORDER BY e.occurred_start IS NULL, e.occurred_start DESC, e.id DESC LIMIT $limit
RETURN e.id AS entry_id, e.title AS title, e.occurred_on AS occurred_on, e.occurred_start AS start,
       e.author_id AS author, e.intimacy AS intimacy, left(coalesce(e.body, ''), {EXCERPT_CHARS}) AS text
ORDER BY e.occurred_start IS NULL, e.occurred_start DESC, e.id DESC
"""


@dataclass(frozen=True)
class EntityEntry:
    entry_id: str
    title: str | None
    occurred_on: str | None
    author: str | None
    intimacy: str
    text: str


@dataclass(frozen=True)
class EntityEntries:
    entries: list[EntityEntry]
    next_cursor: str | None


def entity_entries(
    graph: Graph, viewer: Viewer, project_id: str, entity_id: str, limit: int = 20, cursor: str | None = None
) -> EntityEntries:
    """One page of the visible entries naming the entity (the caller checks membership and that the viewer may know
    the entity); a cursor from another listing raises `queries.listing.BadCursor`."""
    limit = max(1, min(limit, MAX_LIMIT))
    bound = sha256(project_id, "entity", entity_id)[:16]
    after_start, after_id = decode_cursor(cursor, bound) if cursor else (None, None)
    params: dict[str, Any] = {
        "project_id": project_id,
        "entity_id": entity_id,
        "after_start": after_start,
        "after_id": after_id,
        "limit": limit + 1,
        **visibility_params(viewer),
    }
    rows = graph.read(ENTITY_ENTRIES, params)
    shown = [
        EntityEntry(r["entry_id"], r["title"], r["occurred_on"], r["author"], r["intimacy"], r["text"])
        for r in rows[:limit]
    ]
    next_cursor = None
    if len(rows) > limit:
        start = rows[limit - 1]["start"]
        day: date | None = start.to_native() if hasattr(start, "to_native") else start
        next_cursor = encode_cursor(bound, day, rows[limit - 1]["entry_id"])
    return EntityEntries(shown, next_cursor)
