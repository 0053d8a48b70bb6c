"""The entries just before and after one entry, among those the viewer may see: its neighbours in its conversation
(by position) when it has one, otherwise in the project's time line (by date, then id). The nearest visible entry is
chosen by position or date in the same statement as the visibility predicate, never by following `[:NEXT]`, which
would stop at a hidden turn and so tell that one is there: what a viewer gets is the same as if the entries hidden
from them had never been written."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from graph.db import Graph
from graph.visibility import CAN_SEE, Viewer, can_see, visibility_params

_SHOWN = "e {.id, .title, occurred_on: toString(e.occurred_start)}"

IN_THREAD = f"""
MATCH (s:Entry {{id: $id}}) WHERE {can_see("s")}
RETURN s.thread_id IS NOT NULL AS threaded,
  COLLECT {{
    MATCH (e:Entry {{thread_id: s.thread_id}})
    WHERE (e.thread_pos < s.thread_pos OR (e.thread_pos = s.thread_pos AND e.id < s.id)) AND {CAN_SEE}
    WITH e ORDER BY e.thread_pos DESC, e.id DESC LIMIT 1
    RETURN {_SHOWN}
  }} AS before,
  COLLECT {{
    MATCH (e:Entry {{thread_id: s.thread_id}})
    WHERE (e.thread_pos > s.thread_pos OR (e.thread_pos = s.thread_pos AND e.id > s.id)) AND {CAN_SEE}
    WITH e ORDER BY e.thread_pos, e.id LIMIT 1
    RETURN {_SHOWN}
  }} AS after
"""

# An undated entry sits after every dated one (as on the timeline), ordered among the undated by id. The candidates
# are sorted first and the visibility predicate runs on them in that order until one passes.
_KEY = (
    "[CASE WHEN {v}.occurred_start IS NULL THEN 1 ELSE 0 END, coalesce({v}.occurred_start, date('0001-01-01')), {v}.id]"
)

IN_TIME = f"""
MATCH (s:Entry {{id: $id}}) WHERE {can_see("s")}
WITH s, {_KEY.format(v="s")} AS at
RETURN
  COLLECT {{
    MATCH (e:Entry {{project_id: s.project_id}})
    WITH e, {_KEY.format(v="e")} AS key WHERE key < at
    WITH e, key ORDER BY key DESC WHERE {CAN_SEE}
    WITH e LIMIT 1
    RETURN {_SHOWN}
  }} AS before,
  COLLECT {{
    MATCH (e:Entry {{project_id: s.project_id}})
    WITH e, {_KEY.format(v="e")} AS key WHERE key > at
    WITH e, key ORDER BY key WHERE {CAN_SEE}
    WITH e LIMIT 1
    RETURN {_SHOWN}
  }} AS after
"""


@dataclass(frozen=True)
class Neighbour:
    entry_id: str
    title: str | None
    occurred_on: str | None


@dataclass(frozen=True)
class Neighbours:
    by: Literal["thread", "date"]
    before: Neighbour | None
    after: Neighbour | None


def entry_neighbours(graph: Graph, viewer: Viewer, entry_id: str) -> Neighbours | None:
    """The neighbours, or None when the viewer may not see the entry (or there is none)."""
    params = {"id": entry_id, **visibility_params(viewer)}
    rows = graph.read(IN_THREAD, params)
    if not rows:
        return None
    row = rows[0]
    if row["threaded"]:
        return Neighbours("thread", _one(row["before"]), _one(row["after"]))
    rows = graph.read(IN_TIME, params)  # none when the entry was deleted or re-levelled in between
    return Neighbours("date", _one(rows[0]["before"]), _one(rows[0]["after"])) if rows else None


def _one(found: list[dict[str, Any]]) -> Neighbour | None:
    if not found:
        return None
    e = found[0]
    return Neighbour(str(e["id"]), e.get("title"), e.get("occurred_on"))
