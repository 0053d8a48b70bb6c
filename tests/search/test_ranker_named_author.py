"""The learned ranker's evidence of who tells it (queries/search/ranker.py, `by_named`): an entry written by a person
the question names. Read end to end (the question understood against the viewer's lexicon, the facts read under the
visibility predicate), set aside with that person's chip, and weighed by the shipped weights."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import ranker_features as rf
from queries.search.door import hybrid_search
from queries.search.fusion import Fused
from queries.search.ranker import load_ranker, order
from queries.search.request import Scope, SearchOptions

TURNS = [
    ("lucia-flat", "Lucía", "circle", "Vendimos el piso de la calle Sierpes por fin, y yo lloré al dar las llaves."),
    ("pep-flat", "Pep", "circle", "Lo del piso de Sierpes fue duro para todos, Lucía lloró al dar las llaves."),
    ("pep-intimate", "Pep", "intimate", "El piso de Sierpes: nunca le dije a Lucía lo que de verdad costó."),
]


@pytest.fixture()
def talk(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    project, owner, reader = f"{prefix}talk", f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    report = ingest(
        [
            {
                "entry_id": f"{project}/{key}",
                "project_id": project,
                "author": author,
                "intimacy": level,
                "occurred_on": "2024-03-02",
                "persons": ["Lucía", "Pep"],
                "text": text,
            }
            for key, author, level, text in TURNS
        ]
    )
    assert not report.errors
    return {"project": project, "owner": owner, "reader": reader}


def _facts(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, talk: dict[str, str], user: str, query: str, **kw: Any
) -> dict[str, dict[str, float]]:
    sink: list[dict[str, Any]] = []
    hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=talk[user]),
        query,
        Scope(project_id=talk["project"]),
        SearchOptions(k=10, diversify=False, capture=sink, **kw),
    )
    assert len(sink) == 1
    return {i.rsplit("/", 1)[1]: f for i, f in sink[0]["facts"].items()}


def test_an_entry_by_the_person_the_question_names_is_told_apart(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, talk: dict[str, str]
) -> None:
    by_lucia = _facts(graph, embedder, settings, talk, "owner", "¿Qué contó Lucia del piso de Sierpes?")
    assert {k: f["by_named"] for k, f in by_lucia.items()} == {
        "lucia-flat": 1.0,
        "pep-flat": 0.0,
        "pep-intimate": 0.0,
    }, "the name in the question folds to the author's (Lucia, Lucía); being mentioned is not having told it"
    by_pep = _facts(graph, embedder, settings, talk, "reader", "¿Qué dijo Pep del piso de Sierpes?")
    assert {k: f["by_named"] for k, f in by_pep.items()} == {"lucia-flat": 0.0, "pep-flat": 1.0}, (
        "the intimate entry gives a reader no fact"
    )
    assert (
        _facts(graph, embedder, settings, talk, "owner", "¿Qué dijo Pep del piso de Sierpes?")["pep-intimate"][
            "by_named"
        ]
        == 1.0
    )
    unnamed = _facts(graph, embedder, settings, talk, "owner", "¿Qué pasó con el piso de Sierpes?")
    assert {f["by_named"] for f in unnamed.values()} == {0.0}


def test_setting_the_person_aside_drops_the_evidence(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, talk: dict[str, str]
) -> None:
    named = _facts(graph, embedder, settings, talk, "owner", "¿Qué dijo Pep del piso de Sierpes?")
    assert named["pep-flat"]["by_named"] == 1.0
    pep = graph.read(
        "MATCH (p:Person {project_id: $project}) WHERE p.name = 'Pep' RETURN p.id AS id", {"project": talk["project"]}
    )
    assert len(pep) == 1
    aside = _facts(
        graph, embedder, settings, talk, "owner", "¿Qué dijo Pep del piso de Sierpes?", ignore=(pep[0]["id"],)
    )
    assert {f["by_named"] for f in aside.values()} == {0.0}


def test_the_shipped_weights_put_the_named_teller_first_when_all_else_is_equal() -> None:
    ranker = load_ranker()
    facts = {"cov": 0.5, "ent": 1.0, "recency": 0.5, "tells": 0.0}
    record = {
        "query": {"n_words": 7, "named": 1, "author": False, "dated": False, "asks_time": False},
        "channels": {"dense": [["other", 0.9], ["teller", 0.9]], "fulltext": [["teller", 3.0], ["other", 3.0]]},
        "facts": {"other": {**facts, "by_named": 0.0}, "teller": {**facts, "by_named": 1.0}},
    }
    assert "by_named" in rf.feature_names(list(ranker.channels))
    fused = [Fused("other", 0.5, {}), Fused("teller", 0.5, {})]
    assert [f.id for f in order(record, ranker, fused, 10)] == ["teller", "other"]
