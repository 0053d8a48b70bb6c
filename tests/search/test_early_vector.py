"""The query embedded before the search has read anything (queries/search/early_vector.py): with a lexicon kept from an
earlier search, the text is guessed and embedded at once, and used only when it is the text the search embeds. A
guess made stale by a write is embedded again, so the results are those of a search that guessed nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import numpy as np
import pytest

from graph.db import Graph
from graph.entities import upsert_entity
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.entities.entity_question_words import classify
from queries.search import door as search_module
from queries.search import early_vector, kept_lexicons, result_cache
from queries.search.channel_set import asked
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions, SearchResponse

NOW = date(2026, 11, 30)
QUESTION = "¿qué me contó Itziar sobre el piso de Bilbao que queríamos alquilar?"


class Counting:
    """The real provider, noting every query text it embeds."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.slug, self.dimensions = inner, inner.model_id, inner.slug, inner.dimensions
        self.queries: list[str] = []

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self.inner.embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self.inner.embed_query(text)


@pytest.fixture(autouse=True)
def keep_lexicons(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    """Lexicons are kept here, as served (the suite turns the analytics cache off elsewhere)."""
    from graph import analytics_cache

    monkeypatch.setattr(analytics_cache, "get_settings", lambda: settings)


@pytest.fixture()
def flat(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    project, owner = f"{prefix}flat", f"{prefix}jon"
    set_member(graph, project, owner, "owner")
    assert not ingest(
        [
            {"entry_id": f"{project}/{i}", "project_id": project, "author": owner, "text": text}
            for i, text in enumerate(
                [
                    "Itziar dice que el piso de Bilbao tiene humedades y que el casero no contesta.",
                    "Fuimos al mercado de la Ribera a comprar bacalao para la cena de Nochebuena.",
                    "El piso de Deusto era más caro pero tenía terraza y mucha luz.",
                    "Mi hermano arregló la bici vieja y ahora va al trabajo pedaleando.",
                ]
            )
        ]
    ).errors
    return {"project": project, "owner": owner}


def _search(graph: Graph, embedder: CheckedEmbedder, settings: Settings, flat: dict[str, str]) -> SearchResponse:
    result_cache.clear(graph)
    return hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=flat["owner"]),
        QUESTION,
        Scope(project_id=flat["project"]),
        SearchOptions(k=4, now=NOW, explain=True),
    )


def _answers(r: SearchResponse) -> list[tuple[str, float]]:
    return [(x.entry_id, x.score) for x in r.results]


def test_a_right_guess_embeds_once_and_a_stale_one_again(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, flat: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = settings.model_copy(update={"query_embed_cache_size": 0})
    counting = Counting(embedder.inner)
    checked = CheckedEmbedder(counting)
    viewer = Viewer(user_id=flat["owner"])
    assert kept_lexicons.kept_lexicon(graph, flat["project"], viewer) is None
    first = _search(graph, checked, cold, flat)  # no lexicon kept yet: nothing guessed, one embedding
    assert counting.queries == [QUESTION] and kept_lexicons.kept_lexicon(graph, flat["project"], viewer) is not None
    counting.queries.clear()
    parses: list[str] = []
    parse = search_module.parse_query
    monkeypatch.setattr(search_module, "parse_query", lambda *a, **k: parses.append(a[1]) or parse(*a, **k))
    again = _search(graph, checked, cold, flat)  # guessed from the kept lexicon, right: still one embedding
    assert counting.queries == [QUESTION] and _answers(again) == _answers(first)
    assert parses == [], "the lexicon had not changed: the guess's understanding is the search's"

    # A visible write makes Itziar a known person: the kept lexicon does not know her, so the guess embeds the
    # whole question, the search understands her name and embeds the rest.
    upsert_entity(graph, flat["project"], "person", "Itziar", [])
    counting.queries.clear()
    stale = _search(graph, checked, cold, flat)
    understood = [p["name"] for p in (stale.query_understanding or {}).get("persons", [])]
    assert understood == ["Itziar"]
    # The guess embeds on its own thread, so the two texts may be embedded in either order.
    assert counting.queries.count(QUESTION) == 1, counting.queries
    embedded = [t for t in counting.queries if t != QUESTION]
    assert embedded and all("Itziar" not in t for t in embedded)
    assert parses == [QUESTION], "the lexicon changed: the search understands the query again"
    monkeypatch.setattr(search_module, "start_early_vector", lambda *a, **k: None)
    counting.queries.clear()
    unguessed = _search(graph, checked, cold, flat)
    assert counting.queries == embedded, "the search embedded other texts than one that guessed nothing"
    assert _answers(stale) == _answers(unguessed), "a stale guess changed the results"


def test_no_guess_without_a_dense_channel_or_for_a_keyword_query(
    graph: Graph, embedder: CheckedEmbedder, flat: dict[str, str]
) -> None:
    viewer = Viewer(user_id=flat["owner"])
    kept_lexicons.lexicon(graph, flat["project"], viewer)  # kept
    start = early_vector.start
    assert (
        start(graph, embedder, viewer, [flat["project"]], QUESTION, SearchOptions(channels=("fulltext",), now=NOW), 0)
        is None
    )
    assert (
        start(graph, embedder, viewer, [flat["project"]], "Bilbao", SearchOptions(channels=asked(None), now=NOW), 0)
        is None
    )  # one word: the keyword layer, the dense channel is skipped
    assert (
        start(
            graph,
            embedder,
            viewer,
            [flat["project"]],
            "¿con quién aparece Itziar?",
            SearchOptions(channels=asked(None), now=NOW),
            0,
            entity_question=classify("¿con quién aparece Itziar?") is not None,
        )
        is None
    )  # an entity question's shape (the door classifies it once): answered without a vector
    guess = start(graph, embedder, viewer, [flat["project"]], QUESTION, SearchOptions(channels=asked(None), now=NOW), 0)
    assert guess is not None and guess.text == QUESTION
    assert np.allclose(guess.vector.result(), embedder.embed_query(QUESTION))
    assert (
        start(
            graph,
            embedder,
            Viewer(user_id="someone-else"),
            [flat["project"]],
            QUESTION,
            SearchOptions(channels=asked(None), now=NOW),
            0,
        )
        is None
    )  # another viewer's lexicon is never theirs to guess with
