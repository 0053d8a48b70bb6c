"""The thread channel: the visible turns just before and after the best dense hits in their conversation
(queries/search/channels.py: THREAD), for a question asked of more than one channel."""

from __future__ import annotations

import time

from graph.schema import vector_property
from queries.search import channels as ch
from queries.search import visible_view
from queries.search.channel import ChannelAsk, Found, Want
from queries.search.fusion import THREAD_WEIGHT, Cue

SEEDS = 5


class ThreadChannel:
    name = "thread"
    asked_as = "dense"
    seeds: tuple[str, ...] = ("dense",)
    by_default = True

    def wanted(self, ask: ChannelAsk) -> Want:
        return Want.NOW if ask.found.get("dense") and len(ask.asked) >= 2 else Want.NO

    def weight(self, cue: Cue) -> float:
        return THREAD_WEIGHT

    def run(self, ask: ChannelAsk) -> Found | None:
        """From the kept view the dense channel ranked from when there is one (no statement), else `THREAD`."""
        t = time.perf_counter()
        seeds = [h.id for h in ask.found["dense"][:SEEDS]]
        run = ask.run
        prop = vector_property(run.embedder.slug)
        hits = visible_view.thread_neighbours(run.graph, run.settings, ask.scope, prop, seeds, ask.limit)
        if hits is None:
            hits, _ = ch.run_channel(run.graph, ch.THREAD, {**ask.scope.params(), "seeds": seeds, "limit": ask.limit})
        run.took("thread", t)
        return Found(hits)
