"""A viewer's entity aggregates are reused until a write they may see, and only ever for them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graph import analytics, analytics_cache, generations
from graph.db import Graph
from graph.entity_vectors import refresh_project
from graph.members import set_member
from graph.settings import Settings
from graph.textnorm import fold
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.entities.similar import similar, visible_names
from queries.search import channels as ch
from queries.search.keyword import run_keyword, visible_count
from queries.search.scope import SearchScope
from tests.entities.test_entity_vectors import CIRCLE, PRIVATE, _records

# A write no write path makes (it bumps no generation): only a statement that really runs can see it.
UNBUMPED_RELEVEL = "MATCH (e:Entry {id: $id}) SET e.intimacy = $intimacy"


def _weights(rows: list[dict[str, Any]]) -> dict[str, int]:
    return {r["name"]: r["entries"] for r in rows}


def _cache_on(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, graph: Graph, prefix: str, per_viewer: int
) -> tuple[str, str, str]:
    """The cache on with `per_viewer` slots, emptied; a project with Ana as owner and Lola as reader."""
    on = settings.model_copy(update={"analytics_cache_seconds": 600.0, "analytics_cache_size": per_viewer})
    monkeypatch.setattr(analytics_cache, "get_settings", lambda: on)
    analytics_cache.clear(graph)
    project, ana, lola = f"{prefix}fam", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, lola, "reader")
    return project, ana, lola


def test_entity_aggregates_are_kept_per_viewer_until_a_write_they_may_see(
    graph: Graph, settings: Settings, prefix: str, ingest: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    project, ana, lola = _cache_on(settings, monkeypatch, graph, prefix, 64)

    def write(key: str, intimacy: str, persons: list[str]) -> None:
        assert not ingest(
            [
                {
                    "entry_id": f"{project}/{key}",
                    "project_id": project,
                    "author": ana,
                    "occurred_on": "2010-05",
                    "intimacy": intimacy,
                    "persons": persons,
                    "text": " y ".join(persons) + ".",
                }
            ]
        ).errors

    write("e1", "circle", ["Pep", "Marta"])
    write("e2", "circle", ["Pep"])
    write("e3", "intimate", ["Pep", "Secretina"])
    reader, owner = Viewer(user_id=lola), Viewer(user_id=ana)
    assert _weights(analytics.importance(graph, reader, project)) == {"Pep": 2, "Marta": 1}
    assert _weights(analytics.importance(graph, owner, project)) == {"Pep": 3, "Marta": 1, "Secretina": 1}
    pep = next(r["id"] for r in analytics.importance(graph, reader, project) if r["name"] == "Pep")
    assert [(r["name"], r["together"]) for r in analytics.co_occurrence(graph, reader, project, pep)] == [("Marta", 1)]

    # Kept: an unbumped re-level is not seen by the reader's next questions (the aggregates were not recomputed) ...
    graph.write(UNBUMPED_RELEVEL, {"id": f"{project}/e2", "intimacy": "private"})
    assert _weights(analytics.importance(graph, reader, project)) == {"Pep": 2, "Marta": 1}
    assert analytics.entity_counts(graph, reader, project)[0] == 2
    graph.write(UNBUMPED_RELEVEL, {"id": f"{project}/e2", "intimacy": "circle"})

    # ... a write the reader may see is seen at once, by both aggregates ...
    write("e4", "circle", ["Marta", "Lola"])
    assert _weights(analytics.importance(graph, reader, project)) == {"Pep": 2, "Marta": 2, "Lola": 1}
    assert analytics.entity_counts(graph, reader, project)[0] == 3
    assert [(r["name"], r["entries"]) for r in analytics.co_occurrence(graph, reader, project, pep)] == [("Marta", 2)]

    # ... one hidden from them changes nothing they get, and is seen by the owner it is not hidden from ...
    write("e5", "intimate", ["Secretina", "Marta"])
    assert _weights(analytics.importance(graph, reader, project)) == {"Pep": 2, "Marta": 2, "Lola": 1}
    assert _weights(analytics.importance(graph, owner, project))["Secretina"] == 2

    # ... and a role change is a new key: the reader made coauthor sees the intimate entries at once.
    set_member(graph, project, lola, "coauthor")
    assert _weights(analytics.importance(graph, reader, project))["Secretina"] == 2
    set_member(graph, project, lola, "reader")
    assert "Secretina" not in _weights(analytics.importance(graph, reader, project))


def test_another_viewers_misses_never_evict_mine(
    graph: Graph, settings: Settings, prefix: str, ingest: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader who fills the cache with their own aggregates must not learn, by one of them being recomputed, that
    the owner missed (after a private write hidden from the reader): each viewer's entries are evicted only by their
    own inserts."""
    project, ana, lola = _cache_on(settings, monkeypatch, graph, prefix, 2)
    assert not ingest(
        [
            {
                "entry_id": f"{project}/e1",
                "project_id": project,
                "author": ana,
                "intimacy": "circle",
                "persons": ["Pep", "Marta"],
                "text": "Pep y Marta.",
            }
        ]
    ).errors
    reader, owner = Viewer(user_id=lola), Viewer(user_id=ana)
    computed: list[str] = []

    def ask(viewer: Viewer, name: str) -> None:
        analytics_cache.cached(graph, viewer, project, name, {}, lambda: computed.append(name) or name)

    ask(reader, "a")
    ask(reader, "b")  # the reader's two slots are full
    ask(owner, "x")
    assert not ingest(
        [
            {
                "entry_id": f"{project}/p1",
                "project_id": project,
                "author": ana,
                "intimacy": "private",
                "persons": ["Secretina"],
                "text": "Secretina.",
            }
        ]
    ).errors
    ask(owner, "x")  # the owner's private write: their key moved, this is a miss and an insert
    ask(owner, "y")
    computed.clear()
    ask(reader, "a")
    ask(reader, "b")
    assert computed == [], "another viewer's inserts evicted the reader's aggregates"
    ask(reader, "c")  # the reader's own insert evicts their least recent one
    ask(reader, "a")
    assert computed == ["c", "a"]


def test_a_refresh_moves_only_the_audiences_whose_vectors_it_changed(
    graph: Graph,
    settings: Settings,
    prefix: str,
    ingest: Callable[..., Any],
    embedder: CheckedEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`similar` and the name lookup are kept per viewer like the aggregates; entity vectors change only when the
    refresh rebuilds them, so the refresh bumps the generations of the audiences whose variant it changed: a reader's
    kept answers follow a rebuild of what they may see, and the reader's key does not move for the owner's private
    entries (a move would tell them by a miss that something hidden was written)."""
    project, ana, lola = _cache_on(settings, monkeypatch, graph, prefix, 64)
    assert not ingest(_records(project, ana, CIRCLE, "circle")).errors
    refresh_project(graph, project, embedder.slug)
    reader = Viewer(user_id=lola)
    pep = f"{project}/person/pep"

    def companions() -> list[str]:
        return [s.name for s in similar(graph, reader, project, pep, embedder.slug, "person")]

    def knows(name: str) -> bool:
        return any(n.name == name for n in visible_names(graph, reader, project, embedder.slug, [fold(name)]))

    # A circle entry names a new person: the write moves the reader's key, but vectors are built later, so the
    # reader's next answers are computed (and kept) without Nico ...
    assert not ingest(
        _records(
            project,
            ana,
            [("m4", "2010-01", ["Pep", "Nico"], ["Berlín"], "Pep y Nico grabaron el disco de rock en Berlín.")],
            "circle",
        )
    ).errors
    assert "Nico" not in companions() and not knows("Nico")
    # ... and the rebuild that adds him to the reader's variants moves the reader's key: no stale answer is served.
    refresh_project(graph, project, embedder.slug)
    assert "Nico" in companions() and knows("Nico")

    # The owner's private entry about Pep: only the owner's own variant changes, so only the owner's key moves.
    assert not ingest(_records(project, ana, PRIVATE, "private")).errors
    before = {u: generations.read(graph, [project], u) for u in (ana, lola)}
    stats = refresh_project(graph, project, embedder.slug)
    assert stats.rebuilt > 0 and set(stats.bumped) == {generations.own_key(ana)}
    assert generations.read(graph, [project], lola) == before[lola]
    assert generations.read(graph, [project], ana) != before[ana]
    assert refresh_project(graph, project, embedder.slug).bumped == {}  # nothing changed: nothing moves


def test_one_request_reads_generations_once(graph: Graph, prefix: str) -> None:
    """Inside `read_once` a request keeps the generations it first read (one round trip for all its cache keys);
    `fresh` and a new request see a write made meanwhile."""
    project, ana = f"{prefix}fam", f"{prefix}ana"
    set_member(graph, project, ana, "owner")
    with generations.read_once():
        first = generations.read(graph, [project], ana)
        generations.bump(graph, [project])
        assert generations.read(graph, [project], ana) == first
        assert generations.read(graph, [project], ana, fresh=True) != first
    assert generations.read(graph, [project], ana) != first


def test_a_viewers_stale_aggregates_are_dropped_when_their_generations_move(
    graph: Graph, settings: Settings, prefix: str, ingest: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys made under old generations can never be asked for again: the first store under new ones empties the
    viewer's partition, so live answers are not crowded out by dead ones; another viewer's partition is untouched."""
    project, ana, lola = _cache_on(settings, monkeypatch, graph, prefix, 8)
    reader, owner = Viewer(user_id=lola), Viewer(user_id=ana)
    for name in ("a", "b", "c"):
        analytics_cache.cached(graph, reader, project, name, {}, lambda n=name: n)
    analytics_cache.cached(graph, owner, project, "x", {}, lambda: "x")
    assert analytics_cache.size(graph) == 4
    assert not ingest(
        [
            {
                "entry_id": f"{project}/p1",
                "project_id": project,
                "author": ana,
                "intimacy": "private",
                "persons": ["Secretina"],
                "text": "Secretina.",
            }
        ]
    ).errors  # moves the owner's key only
    analytics_cache.cached(graph, owner, project, "y", {}, lambda: "y")
    assert analytics_cache.size(graph) == 4  # the owner's dead "x" went, the reader's three stay
    computed: list[str] = []
    for name in ("a", "b", "c"):
        analytics_cache.cached(graph, reader, project, name, {}, lambda n=name: computed.append(n) or n)
    assert computed == []


def test_keyword_ranking_keeps_its_visible_count_until_a_write_the_viewer_may_see(
    graph: Graph, settings: Settings, prefix: str, ingest: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """BM25's N (the viewer's visible entries in scope) is kept per viewer: a write they may see recounts it (the
    scores move at once), a hidden one leaves it, and what it counts is what the viewer may see."""
    project, ana, lola = _cache_on(settings, monkeypatch, graph, prefix, 64)

    def write(key: str, intimacy: str, text: str) -> None:
        assert not ingest(
            [{"entry_id": f"{project}/{key}", "project_id": project, "author": ana, "intimacy": intimacy, "text": text}]
        ).errors

    write("e1", "circle", "La barca azul en el puerto.")
    write("e2", "circle", "Comimos arroz en casa.")
    params = SearchScope(Viewer(user_id=lola), (project,))

    def scores() -> list[float]:
        return [h.score for h in run_keyword(graph, ch.FULLTEXT, ch.FULLTEXT_VISIBLE, params, "barca", 10)]

    first = scores()
    assert len(first) == 1 and visible_count(graph, ch.FULLTEXT_VISIBLE, params) == 2
    write("p1", "private", "Un secreto sin barcos.")  # hidden from the reader: nothing of theirs moves
    assert scores() == first and visible_count(graph, ch.FULLTEXT_VISIBLE, params) == 2
    write("e3", "circle", "Paseo por el monte.")  # visible: N grows, the word is rarer, the score higher
    assert visible_count(graph, ch.FULLTEXT_VISIBLE, params) == 3
    assert scores()[0] > first[0]


def test_a_demoted_readers_key_does_not_move_with_hidden_intimate_entries(
    graph: Graph,
    settings: Settings,
    prefix: str,
    ingest: Callable[..., Any],
    embedder: CheckedEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A coauthor who wrote privately about Pep keeps a `writer` variant (their private entries + every intimate
    one) after being made a reader, but reads their `reader` variant: an intimate entry about Pep, hidden from them
    now, rebuilds that writer variant, and the refresh must not bump their key for it (a miss would tell them)."""
    project, ana, lola = _cache_on(settings, monkeypatch, graph, prefix, 64)
    set_member(graph, project, lola, "coauthor")
    assert not ingest(_records(project, ana, CIRCLE, "circle")).errors
    assert not ingest(_records(project, lola, PRIVATE[:1], "private")).errors
    set_member(graph, project, lola, "reader")
    refresh_project(graph, project, embedder.slug)
    before = generations.read(graph, [project], lola)
    assert not ingest(
        _records(project, ana, [("i1", "2016-01", ["Pep"], ["Viena"], "Pep lloró en Viena.")], "intimate")
    ).errors
    stats = refresh_project(graph, project, embedder.slug)
    assert stats.rebuilt > 0 and generations.INNER in stats.bumped
    assert generations.own_key(lola) not in stats.bumped
    assert generations.read(graph, [project], lola) == before


def test_a_members_lexicon_is_kept_until_a_declaration_they_may_learn(
    graph: Graph, settings: Settings, prefix: str, ingest: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The names the search understands are listed once per viewer: a private alias another member declares leaves
    the reader's kept lexicon as it was (the very same object), one they may learn is understood at once."""
    from graph.entities import upsert_entity
    from queries.search.door import _lexicons

    project, ana, lola = _cache_on(settings, monkeypatch, graph, prefix, 64)
    assert not ingest(
        [
            {
                "entry_id": f"{project}/e1",
                "project_id": project,
                "author": ana,
                "intimacy": "circle",
                "persons": ["Pep"],
                "text": "Pep vino a comer.",
            }
        ]
    ).errors

    def keys(user: str) -> set[str]:
        return {k for (_, k) in _lexicons(graph, [project], Viewer(user_id=user))[project].by_key}

    first = _lexicons(graph, [project], Viewer(user_id=lola))[project]
    assert "pep" in keys(lola) and "pepito" not in keys(lola)
    upsert_entity(graph, project, "person", "Pep", ["Pepito"], audience="private", author_id=ana)
    assert _lexicons(graph, [project], Viewer(user_id=lola))[project] is first
    assert "pepito" in keys(ana) and "pepito" not in keys(lola)
    upsert_entity(graph, project, "person", "Pep", ["Josep"], audience="circle", author_id=ana)
    assert "josep" in keys(lola) and "pepito" not in keys(lola)
