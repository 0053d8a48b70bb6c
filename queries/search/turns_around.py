"""The turns around a conversation turn, for the ranker's `alike_after` and `alike_before` facts
(queries/search/ranker.py): the cosine of the query vector with each chunk of the next `AFTER_REACH` and the previous
`BEFORE_REACH` turns of the candidate's conversation within the search's scope that the viewer may see. In a chat what
a message is about is often said by the replies that follow it, within a burst or two, and by the message it answers.

Turns are counted by position among the scope's visible ones (`THREAD`'s order: place, then id), so a hidden turn is
neither read nor a gap that shifts which turns count. Read from the viewer's kept view when one is current (numpy over
the vectors it holds, no statement: queries/search/visible_view.py), else by `TURNS_AROUND`; both give the same turns
and Neo4j's cosine, (1 + cos) / 2 (tests/search/test_alike_around.py checks both on the real Neo4j).
"""

from __future__ import annotations

import numpy as np

from graph.db import Graph
from graph.settings import Settings
from graph.visibility import can_see
from queries.search import visible_view
from queries.search.channels import ENTRY_SCOPE
from queries.search.scope import SearchScope

AFTER_REACH = 2
BEFORE_REACH = 1
WINDOW = 4
"""Positions looked at first on each side; past them only when too few turns there were visible."""

Around = dict[str, tuple[list[float], list[float]]]

# One side of the candidate `s`, nearest first: the turns within `$window` positions (an index range of a few turns,
# sorted, the scope checked until enough pass), and past them only when too few were there (the end of a thread, or
# turns out of scope): the same turns as one unbounded look. The turn is bound to `e`, which `ENTRY_SCOPE` reads.
_SIDE = """
CALL (s) {{
  MATCH (e:Entry)
  WHERE e.thread_id = s.thread_id
    AND e.thread_pos {cmp}= s.thread_pos AND e.thread_pos {back}= s.thread_pos {sign} $window
    AND (e.thread_pos {cmp} s.thread_pos OR e.id {cmp} s.id)
  WITH e ORDER BY e.thread_pos {order}, e.id {order}
  WHERE {scope}
  WITH e LIMIT ${reach}
  RETURN collect(e) AS {name}_near
}}
CALL (s, {name}_near) {{
  UNWIND CASE WHEN size({name}_near) < ${reach} THEN [s] ELSE [] END AS t
  MATCH (e:Entry)
  WHERE e.thread_id = t.thread_id AND e.thread_pos {cmp} t.thread_pos {sign} $window
  WITH e ORDER BY e.thread_pos {order}, e.id {order}
  WHERE {scope}
  WITH e LIMIT ${reach}
  RETURN collect(e) AS {name}_far
}}
CALL (s, {name}_near, {name}_far) {{
  UNWIND ({name}_near + {name}_far)[0..${reach}] AS e
  MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
  RETURN collect(vector.similarity.cosine(c[$prop], $alike)) AS {name}
}}"""
TURNS_AROUND = f"""
UNWIND $ids AS id
MATCH (s:Entry {{id: id}}) WHERE s.thread_id IS NOT NULL AND {can_see("s")}
{_SIDE.format(cmp=">", back="<", sign="+", order="ASC", scope=ENTRY_SCOPE, reach="after_reach", name="after")}
{_SIDE.format(cmp="<", back=">", sign="-", order="DESC", scope=ENTRY_SCOPE, reach="before_reach", name="before")}
RETURN s.id AS id, after, before
"""


def from_view(
    graph: Graph, settings: Settings, scope: SearchScope, prop: str, ids: list[str], vector: list[float]
) -> Around | None:
    """The turns around each candidate from the scope's kept view; None when no view is current (`TURNS_AROUND`
    answers)."""
    view = visible_view.current(graph, settings, scope, prop)
    if view is None:
        return None
    q = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(q))
    q = q / norm if norm else q
    ends = np.append(view.starts[1:], len(view.rows))

    def cosines(entries: list[int]) -> list[float]:
        out: list[float] = []
        for i in entries:
            j = int(np.searchsorted(view.embedded, i))
            if j < len(view.embedded) and int(view.embedded[j]) == i:
                cos = view.matrix[view.rows[int(view.starts[j]) : int(ends[j])]] @ q
                out += [(1.0 + float(c)) / 2.0 for c in cos]
        return out

    around: Around = {}
    for x in ids:
        if (placed := view.place(x)) is None:
            continue
        turns, here = placed
        after = [t[2] for t in turns[here + 1 : here + 1 + AFTER_REACH]]
        before = [t[2] for t in reversed(turns[max(0, here - BEFORE_REACH) : here])]
        around[x] = (cosines(after), cosines(before))
    return around


def by_statement(graph: Graph, scope: SearchScope, prop: str, ids: list[str], vector: list[float]) -> Around:
    params = {
        **scope.params(),
        "ids": ids,
        "alike": vector,
        "prop": prop,
        "after_reach": AFTER_REACH,
        "before_reach": BEFORE_REACH,
        "window": WINDOW,
    }
    return {r["id"]: (r["after"], r["before"]) for r in graph.read(TURNS_AROUND, params)}
