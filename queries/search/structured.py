"""The structured channel: entries meeting the query's own constraints (dates, people, places, author), ranked by
how many of the named entities they mention, then by date (latest first; undated first, as Cypher sorts nulls in
descending order), then id. Only a selective result is used (at most `limit` entries: `StructuredChannel.run`).

A member's one-project search ranks the kept view (queries/search/visible_view.py), whose entries were chosen by the
visibility predicate; otherwise `STRUCTURED` in Cypher (queries/search/channels.py) does.
tests/search/test_dense_matrix.py checks
that both give the same hits for every role.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from graph.db import Graph
from graph.embeddings import stores_key
from graph.schema import vector_property
from graph.settings import Settings
from queries.search import channels as ch
from queries.search import view_filter, visible_view
from queries.search.channel import ChannelAsk, Found, Want
from queries.search.fusion import Cue, Hit, structured_weight
from queries.search.query_constraints import SoftConstraints
from queries.search.scope import SearchScope


def structured(
    graph: Graph, settings: Settings, scope: SearchScope, ranked: Sequence[str], limit: int, prop: str, stores_key: str
) -> tuple[list[Hit], int]:
    """Hits in rank order (by how many of the `ranked` entities they mention) and how many entries met the
    constraints (counted up to `limit + 1`); `prop` names the view's vectors."""
    params = {**scope.params(), "rank_entity_ids": list(ranked), "limit": limit, "prop": prop}
    if visible_view.usable(settings, scope):
        view = visible_view.view_for(graph, settings, scope.viewer, params, stores_key, 0)
        if view is not None:
            return rank(view, scope.soft, ranked, limit)
    return ch.run_structured(graph, params)


def rank(view: visible_view.View, soft: SoftConstraints, ranked: Sequence[str], limit: int) -> tuple[list[Hit], int]:
    mask = view_filter.meeting(view, soft)
    meeting = np.arange(len(view.entry_ids)) if mask is None else np.flatnonzero(mask)
    if len(meeting) > limit:
        return [], limit + 1
    matched = np.zeros(len(view.entry_ids), dtype=np.int64)
    mentions = np.zeros(len(view.entry_ids), dtype=np.int64)
    for x in dict.fromkeys(ranked):
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

    def weight(self, cue: Cue) -> float:
        return structured_weight(cue)

    def run(self, ask: ChannelAsk) -> Found | None:
        """None when more entries meet the constraints than the channel lists: then it says nothing selective."""
        t = time.perf_counter()
        run = ask.run
        slug = run.embedder.slug
        hits, total = structured(
            run.graph, run.settings, ask.scope, self._ranked(ask), ask.limit, vector_property(slug), stores_key(slug)
        )
        run.took("structured", t)
        return Found(hits) if total <= ask.limit else None
