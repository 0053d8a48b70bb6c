"""The structured channel: entries meeting the query's own constraints (dates, people, places, author), ranked by
how many of the named entities they mention, then by date (latest first; undated first, as Cypher sorts nulls in
descending order), then id. Only a selective result is used (at most `limit` entries, queries/search/door.py).

A member's one-project search ranks the kept view (queries/search/visible_view.py), whose entries were chosen by the
visibility predicate; otherwise `STRUCTURED` in Cypher (queries/search/channels.py) does.
tests/search/test_dense_matrix.py checks
that both give the same hits for every role.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from graph.db import Graph
from graph.embeddings import stores_key
from graph.schema import vector_property
from graph.settings import Settings
from graph.visibility import Viewer
from queries.search import channels as ch
from queries.search import view_filter, visible_view
from queries.search.channel import ChannelAsk, Found, Want
from queries.search.fusion import Hit


def structured(
    graph: Graph, settings: Settings, viewer: Viewer, params: dict[str, Any], stores_key: str
) -> tuple[list[Hit], int]:
    """Hits in rank order and how many entries met the constraints (counted up to `limit + 1`)."""
    if visible_view.usable(settings, viewer, params):
        view = visible_view.view_for(graph, settings, viewer, params, stores_key, 0)
        if view is not None:
            return rank(view, params)
    return ch.run_structured(graph, params)


def rank(view: visible_view.View, params: dict[str, Any]) -> tuple[list[Hit], int]:
    limit = int(params["limit"])
    mask = view_filter.meeting(view, params)
    meeting = np.arange(len(view.entry_ids)) if mask is None else np.flatnonzero(mask)
    if len(meeting) > limit:
        return [], limit + 1
    matched = np.zeros(len(view.entry_ids), dtype=np.int64)
    mentions = np.zeros(len(view.entry_ids), dtype=np.int64)
    for x in dict.fromkeys(params.get("rank_entity_ids") or []):
        if x in view.mentioned_by:
            entries, counts = view.mentioned_by[x]
            matched[entries] += 1
            mentions[entries] += counts
    score = {i: float(matched[i]) + 0.01 * float(mentions[i]) for i in meeting.tolist()}

    def key(i: int) -> tuple[float, int, float, str]:
        undated = bool(np.isnan(view.start[i]))
        return -score[i], 0 if undated else 1, 0.0 if undated else -float(view.start[i]), view.entry_ids[i]

    return [Hit(view.entry_ids[i], score[i]) for i in sorted(score, key=key)], len(meeting)


class StructuredChannel:
    name = "structured"
    asked_as = "structured"
    seeds: tuple[str, ...] = ()
    by_default = True

    @staticmethod
    def _ranked(ask: ChannelAsk) -> list[str]:
        return list(ask.parsed.rank_entity_ids) if ask.soft.entity_ids or ask.soft.dated else []

    def wanted(self, ask: ChannelAsk) -> Want:
        constrained = self._ranked(ask) or ask.soft.dated or ask.soft.author_keys
        return Want.NOW if "structured" in ask.asked and constrained else Want.NO

    def run(self, ask: ChannelAsk) -> Found | None:
        """None when more entries meet the constraints than the channel lists: then it says nothing selective."""
        t = time.perf_counter()
        run = ask.run
        params = {
            **ask.params,
            "rank_entity_ids": self._ranked(ask),
            "limit": ask.limit,
            "prop": vector_property(run.embedder.slug),
        }
        hits, total = structured(run.graph, run.settings, run.viewer, params, stores_key(run.embedder.slug))
        run.took("structured", t)
        return Found(hits) if total <= ask.limit else None
