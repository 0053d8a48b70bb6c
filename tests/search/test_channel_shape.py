"""A channel is one module of the `Channel` shape and one entry in queries/search/channel_set.py: a channel added here,
in a test, is asked for by name, runs in its phase, is fused, explained and validated like the built-in ones."""

from __future__ import annotations

from typing import Any

import pytest

from graph.db import Graph
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import channel_set
from queries.search import channels as ch
from queries.search.channel import ChannelAsk, Found, Want
from queries.search.door import hybrid_search
from queries.search.fusion import Cue
from queries.search.request import Scope, SearchOptions


class RecentChannel:
    """The viewer's most recent visible entries in scope: a channel of one statement, carrying ENTRY_SCOPE."""

    name = "recent_test"
    asked_as = "recent_test"
    seeds: tuple[str, ...] = ()
    by_default = False

    def wanted(self, ask: ChannelAsk) -> Want:
        return Want.NOW if self.asked_as in ask.asked else Want.NO

    def weight(self, cue: Cue) -> float:
        return 0.25 if cue.words < 3 else 4.0

    def run(self, ask: ChannelAsk) -> Found | None:
        hits, _ = ch.run_channel(ask.run.graph, ch.RECENT, {**ask.scope.params(), "limit": ask.limit})
        return Found(hits)


class SeenSeeds:
    """A seeded channel that says what it was seeded with: the hits of the question's channels, by channel."""

    name = "seeds_test"
    asked_as = "recent_test"
    seeds: tuple[str, ...] = ("fulltext", "recent_test")
    by_default = False

    def __init__(self) -> None:
        self.seen: dict[str, list[str]] = {}

    def wanted(self, ask: ChannelAsk) -> Want:
        return Want.NOW if self.asked_as in ask.asked else Want.NO

    def weight(self, cue: Cue) -> float:
        return 1.0

    def run(self, ask: ChannelAsk) -> Found | None:
        self.seen = {name: [h.id for h in hits] for name, hits in ask.found.items()}
        return None  # nothing to say: no list at all, unlike an empty one


def _search(graph: Graph, embedder: CheckedEmbedder, settings: Settings, user: str, project: str, **kw: Any) -> Any:
    return hybrid_search(
        graph, embedder, settings, Viewer(user_id=user), "zanahoria", Scope(project_id=project), SearchOptions(**kw)
    )


def test_a_channel_added_to_the_enumeration_is_asked_run_fused_and_explained(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    family: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = family["project"]
    with pytest.raises(ValueError, match="recent_test"):  # not in the enumeration: refused, never silently dropped
        _search(graph, embedder, settings, family["reader"], project, channels=("fulltext", "recent_test"))

    seeds = SeenSeeds()
    monkeypatch.setattr(channel_set, "CHANNELS", [*channel_set.CHANNELS, RecentChannel(), seeds])
    assert "recent_test" in channel_set.askable() and "recent_test" not in channel_set.asked_by_default()

    resp = _search(
        graph,
        embedder,
        settings,
        family["reader"],
        project,
        channels=("fulltext", "recent_test"),
        explain=True,
        diversify=False,
        k=20,
    )
    visible_to_reader = {f"{project}/owner-circle", f"{project}/owner-public"}
    visible_to_reader |= {f"{project}/other-circle", f"{project}/other-public"}
    assert {r.entry_id for r in resp.results} == visible_to_reader  # its statement carries the scope: no hidden entry
    assert all("recent_test" in r.score_breakdown for r in resp.results)
    assert resp.query_understanding is not None
    assert resp.query_understanding["channels"]["recent_test"] == len(visible_to_reader)
    assert resp.query_understanding["weights"]["recent_test"] == 0.25  # its own weight, for a one-word question
    assert resp.channel_candidates["recent_test"] == len(visible_to_reader)
    # The seeded channel ran after the question's channels and was handed their hits; saying nothing, it is absent.
    assert set(seeds.seen) == {"fulltext", "recent_test"}
    assert set(seeds.seen["recent_test"]) == visible_to_reader
    assert "seeds_test" not in resp.channel_candidates

    default = _search(graph, embedder, settings, family["reader"], project, explain=True)
    assert default.query_understanding is not None
    assert "recent_test" not in default.query_understanding["channels"]  # not a default channel
