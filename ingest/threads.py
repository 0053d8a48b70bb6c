"""Conversation threads: entries of one project naming one `session` (a chat's messages, each with its own time) or,
without one, sharing an `occurred_at` (a recorded session's turns), ordered by `turn` (or line order).

A reply borrows the words of the closest earlier turn that may lend them (`may_lend_context`): that turn is at least
as open as the reply, so every viewer of the reply may see it, and a turn hidden from them can neither lend nor
stand in the way. After every write or delete the touched threads are reconciled in memory, and each turn whose
borrowed words or predecessor are no longer what the thread says is re-derived; that also covers a reply written
before its lender in the same file and a turn that moved to another session.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from graph.db import Graph
from graph.ids import sha256
from ingest.context import may_lend_context, previous_turn

THREAD_RULE = 2
"""The version of the rules above (what makes a conversation, what a turn borrows): entries placed by an older one
are placed again by `memora migrate` (ingest/relink.py `refresh_conversations`)."""

THREAD_TURNS = """
UNWIND $tids AS tid
MATCH (e:Entry {thread_id: tid})
RETURN tid, e.id AS id, e.thread_pos AS pos, e.author_id AS author, e.body AS text, e.intimacy AS intimacy,
       e.period_name AS period, e.context AS context, e.prev_id AS prev_id
"""


@dataclass(frozen=True)
class Turn:
    """One entry of a thread, as stored (or as just prepared for writing)."""

    pos: int
    entry_id: str
    author: str | None
    text: str
    intimacy: str
    period: str | None = None
    context: str | None = None
    prev_id: str | None = None

    @property
    def key(self) -> tuple[int, str]:
        return (self.pos, self.entry_id)


@dataclass(frozen=True)
class Placement:
    """Where a record sits in its thread: the turn it borrows from (`prev_id`, linked by [:NEXT]) and its words.

    Only a turn that may lend counts, so a turn hidden from the reply's viewers never changes the reply."""

    thread_id: str | None = None
    pos: int | None = None
    prev_id: str | None = None
    lent_text: str | None = None


def conversation_of(rec: Any) -> str | None:
    """What makes entries one conversation: the `session` their metadata names (a chat's messages each carry their
    own time), else the `occurred_at` they share (a recorded session's turns)."""
    session = rec.metadata().get("session")
    if isinstance(session, (str, int)) and not isinstance(session, bool) and str(session).strip():
        return f"session:{str(session).strip()}"
    return rec.occurred_at or None


def thread_id(project_id: str, conversation: str | None) -> str | None:
    return sha256(project_id, conversation)[:24] if conversation else None


def place(turns: list[Turn], me: Turn) -> Placement:
    """The closest earlier turn that may lend to `me`, among `turns` (any order). One turn, not the whole burst it
    closes: several turns of context make neighbouring messages' vectors alike (docs/BENCHMARKS.md)."""
    earlier = sorted((t for t in turns if t.key < me.key and t.entry_id != me.entry_id), key=lambda t: t.key)
    lender = next(
        (
            t
            for t in reversed(earlier)
            if may_lend_context(t.intimacy, t.author, me.intimacy, me.author, t.period, me.period)
        ),
        None,
    )
    return Placement(
        None, me.pos, lender.entry_id if lender else None, previous_turn(lender.author, lender.text) if lender else None
    )


class Threads:
    """The turns of the threads an ingest run touches, loaded once per thread and kept current as it writes."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self._turns: dict[str, dict[str, Turn]] = {}
        self.touched: set[str] = set()

    def load(self, tids: set[str]) -> None:
        missing = [t for t in tids if t not in self._turns]
        if not missing:
            return
        for tid in missing:
            self._turns[tid] = {}
        for r in self.graph.read(THREAD_TURNS, {"tids": missing}):
            self._turns[r["tid"]][r["id"]] = Turn(
                int(r["pos"] or 0),
                r["id"],
                r["author"],
                r["text"] or "",
                r["intimacy"],
                r["period"],
                r["context"],
                r["prev_id"],
            )

    def reload(self, tid: str) -> None:
        """Read a thread again from the graph (after a delete the graph is the truth) and mark it touched."""
        self._turns.pop(tid, None)
        self.load({tid})
        self.touched.add(tid)

    def prepare(self, rec: Any, pos: int, old_tid: str | None) -> Placement:
        """Place a record about to be written; it leaves the thread it was in when its session changed."""
        tid = thread_id(rec.project_id, conversation_of(rec))
        self.load({t for t in (tid, old_tid) if t})
        if old_tid and old_tid != tid:
            self._turns[old_tid].pop(rec.entry_id, None)
            self.touched.add(old_tid)
        if tid is None:
            return Placement()
        me = Turn(pos, rec.entry_id, rec.author, rec.text, rec.intimacy, rec.period)
        placed = place(list(self._turns[tid].values()), me)
        self._turns[tid][rec.entry_id] = replace(me, context=placed.lent_text, prev_id=placed.prev_id)
        self.touched.add(tid)
        return replace(placed, thread_id=tid)

    def stale(self) -> list[tuple[str, int]]:
        """Turns of touched threads whose stored lender or borrowed words are not what the thread says now,
        with their position (a refresh re-derives them)."""
        out = []
        for tid in sorted(self.touched):
            turns = list(self._turns.get(tid, {}).values())
            for t in sorted(turns, key=lambda t: t.key):
                placed = place(turns, t)
                if t.prev_id != placed.prev_id or (t.context or None) != placed.lent_text:
                    out.append((t.entry_id, t.pos))
        self.touched.clear()
        return out
