"""The keyword channel's candidates for a constrained question, from the viewer's kept view.

A question with a date, a person or an author phrase is mostly made of words the index matches everywhere (a name every
entry about that person contains): the index yields tens of thousands of hits, and the statement tests each against the
scope and the constraints until it has `RESCORED` visible ones. The kept view (queries/search/visible_view.py) already
knows which of the viewer's entries meet the constraints; when they are at most `RESCORED`, the statement starts from
them instead (`FULLTEXT_AMONG`), and still tests the scope and the viewer's right on each. Up to `RESCORED` the index
path returns every matching entry too, so both rank the same candidates (tests/search/test_keyword_view.py). Either way
their number is BM25's N, counted on the view rather than over the project; for a question with no constraint N is the
view's size (the count statement would scan the project again after every visible write)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graph.db import Graph
from graph.settings import Settings
from queries.search import view_filter, visible_view
from queries.search.keyword import RESCORED
from queries.search.scope import SearchScope

counters = {"among": 0}


@dataclass(frozen=True)
class Meeting:
    """The viewer's entries in scope that meet a constrained question: how many (BM25's N, which `FULLTEXT_VISIBLE`
    would otherwise count over the whole project on the first search of each question), and their ids when they are
    at most `RESCORED` (the keyword candidates then come from them)."""

    count: int
    ids: list[str] | None


def meeting(graph: Graph, settings: Settings, scope: SearchScope, prop: str, stores_key: str) -> Meeting | None:
    """None when the view cannot answer: the index and the Cypher count are asked. No constraint: every entry of
    the view, by count only. `prop` names the view's vectors."""
    if not visible_view.usable(settings, scope):
        return None
    params = {**scope.params(), "prop": prop}
    view = visible_view.view_for(graph, settings, scope.viewer, params, stores_key, 0)
    if view is None:
        return None
    mask = view_filter.meeting(view, scope.soft)
    if mask is None:
        return Meeting(len(view.entry_ids), None)
    chosen = np.flatnonzero(mask)
    if len(chosen) > RESCORED:
        return Meeting(len(chosen), None)
    counters["among"] += 1
    return Meeting(len(chosen), [view.entry_ids[i] for i in chosen.tolist()])
