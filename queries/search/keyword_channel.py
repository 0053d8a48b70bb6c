"""The keyword channel (`fulltext`): the fulltext index over the question's words, escaped for Lucene
(queries/search/keyword.py, queries/search/lucene.py)."""

from __future__ import annotations

import time

from graph.embeddings import stores_key
from graph.schema import vector_property
from queries.search import channels as ch
from queries.search.channel import ChannelAsk, Found, Want
from queries.search.fusion import Cue, keyword_weight
from queries.search.keyword import run_keyword, run_keyword_among
from queries.search.keyword_view import meeting as keyword_meeting
from queries.search.lucene import to_lucene


class KeywordChannel:
    name = "fulltext"
    asked_as = "fulltext"
    seeds: tuple[str, ...] = ()
    by_default = True

    def wanted(self, ask: ChannelAsk) -> Want:
        return Want.NOW if "fulltext" in ask.asked and to_lucene(ask.text) else Want.NO

    def weight(self, cue: Cue) -> float:
        return keyword_weight(cue)

    def run(self, ask: ChannelAsk) -> Found | None:
        """One project: the viewer is resolved once in the statement, not once per candidate (channels.py); a
        constrained question starts from the entries of the kept view that meet it (queries/search/keyword_view.py)."""
        t = time.perf_counter()
        run = ask.run
        graph, slug = run.graph, run.embedder.slug
        scope, text, limit = ask.scope, ask.text, ask.limit
        counted = ch.fulltext_visible(scope.params())
        if scope.one_project is not None:
            met = keyword_meeting(graph, run.settings, scope, vector_property(slug), stores_key(slug))
            if met is not None and met.ids is not None:
                hits = run_keyword_among(graph, ch.FULLTEXT_AMONG, counted, scope, text, limit, met.ids, met.count)
            else:
                count = met.count if met is not None else None
                hits = run_keyword(graph, ch.FULLTEXT_IN_PROJECT, counted, scope, text, limit, count)
        else:
            hits = run_keyword(graph, ch.FULLTEXT, counted, scope, text, limit)
        run.took("fulltext", t)
        return Found(hits)
