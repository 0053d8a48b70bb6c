"""Search admits when nothing matched: each result carries a calibrated relevance, and a question nothing reaches
the threshold for is answered `matched = False` with the closest (or latest) entries, on the real Neo4j with the
default model. What a viewer cannot see never moves a relevance or the verdict."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from queries.search import relevance
from queries.search.door import hybrid_search
from queries.search.fusion import name_terms
from queries.search.request import Scope, SearchOptions, SearchResponse

Ingest = Callable[..., IngestReport]
neo4j = pytest.mark.neo4j

DIARY = [
    ("flat", "2019-03-02", "Papá dice que el piso de la calle Sol hay que pintarlo antes de venderlo."),
    ("berlin", "2018-08-14", "En Berlín lloramos las dos en el tren, al despedirnos de la tía Carmen."),
    ("headache", "2021-11-05", "Me dolía mucho la cabeza; tomé un paracetamol y me acosté temprano."),
    ("garden", "2020-05-20", "Plantamos tomates y albahaca en el huerto de la abuela."),
    ("roof", "2022-01-10", "Una gotera en el tejado del desván; vino el fontanero por la tarde."),
]


@pytest.fixture()
def diary(graph: Graph, prefix: str, ingest: Ingest) -> dict[str, str]:
    project, ana, lola = f"{prefix}diary", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, lola, "reader")
    rows = [
        {"entry_id": f"{project}/{key}", "project_id": project, "author": ana, "occurred_on": day, "text": text}
        for key, day, text in DIARY
    ]
    assert ingest(rows).written == len(rows)
    return {"project": project, "ana": ana, "lola": lola}


def ask(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, user: str, project: str, q: str, **options: Any
) -> SearchResponse:
    return hybrid_search(
        graph, embedder, settings, Viewer(user_id=user), q, Scope(project_id=project), SearchOptions(k=5, **options)
    )


@neo4j
def test_a_question_about_the_diary_matches_and_its_answer_is_most_relevant(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    p = diary["project"]
    resp = ask(graph, embedder, settings, diary["lola"], p, "¿qué dijo papá del piso?")
    assert resp.matched
    assert resp.results[0].entry_id == f"{p}/flat"
    scores = [r.relevance for r in resp.results]
    assert all(s is not None and 0.0 <= s <= 1.0 for s in scores)
    assert scores[0] == max(scores) and scores[0] >= relevance.load().threshold  # type: ignore[type-var,operator]


@neo4j
@pytest.mark.parametrize("nonsense", ["qwertyuiop", "fnorblazik trumpel", "Xk29dLq0pz"])
def test_nonsense_is_answered_nothing_matched_with_the_closest_entries(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str], nonsense: str
) -> None:
    resp = ask(graph, embedder, settings, diary["lola"], diary["project"], nonsense)
    assert not resp.matched
    assert resp.results and resp.source != "recency", "the closest entries are still offered, under the label"
    assert all((r.relevance or 0.0) < relevance.load().threshold for r in resp.results)


@neo4j
def test_a_question_about_someone_the_project_never_names_does_not_match(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    resp = ask(graph, embedder, settings, diary["lola"], diary["project"], "What sports does Kevin play with Paola?")
    assert not resp.matched


@neo4j
def test_when_no_channel_finds_anything_the_latest_entries_are_labelled(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    resp = ask(graph, embedder, settings, diary["lola"], diary["project"], "zzxqv", channels=("fulltext",))
    assert resp.source == "recency" and not resp.matched
    assert resp.results[0].entry_id == f"{diary['project']}/roof", "the latest entry first"


@neo4j
def test_hidden_entries_change_neither_relevance_nor_verdict(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str], ingest: Ingest
) -> None:
    p, lola = diary["project"], diary["lola"]
    questions = ["qwertyuiop", "¿qué dijo papá del piso?", "medicina para el dolor de cabeza"]
    before = [ask(graph, embedder, settings, lola, p, q) for q in questions]
    hidden = [
        {
            "entry_id": f"{p}/secret-{n}",
            "project_id": p,
            "author": diary["ana"],
            "occurred_on": "2023-02-02",
            "intimacy": "private",
            "text": text,
        }
        for n, text in enumerate(["qwertyuiop qwertyuiop", "Papá, el piso y la pintura otra vez.", "Medicina: dolor."])
    ]
    assert ingest(hidden).written == len(hidden)
    after = [ask(graph, embedder, settings, lola, p, q) for q in questions]
    for b, a in zip(before, after, strict=True):
        assert a.matched == b.matched
        assert [(r.entry_id, r.relevance) for r in a.results] == [(r.entry_id, r.relevance) for r in b.results]
    owner = ask(graph, embedder, settings, diary["ana"], p, "qwertyuiop")
    assert owner.results[0].entry_id == f"{p}/secret-0" and owner.matched, "the one who may see it is answered"


def test_names_asked_about_are_capitalised_words_past_the_first() -> None:
    assert name_terms("What sports does Kevin play?") == ["kevin"]
    assert name_terms("¿Qué edad tenía Manning en la Super Bowl?") == ["manning", "super", "bowl"]
    assert name_terms("Marta en el verano de 2006") == [], "a sentence's first word says nothing by its capital"
    assert name_terms("qwertyuiop") == []


def test_features_read_prose_lift_and_strangers() -> None:
    record = {
        "query": {"named": 0, "dated": False},
        "channels": {"dense": [["a", 0.92], ["b", 0.90], ["c", 0.89]]},
        "facts": {"a": {"cov": 0.5, "names_cov": 0.0}, "b": {"cov": 0.0, "names_cov": 1.0}, "d": {"cov": 1.0}},
    }
    x = relevance.features(record, "What does Kevin play?")
    assert x["a"]["prose"] == 1.0 and x["a"]["dense_terse"] == 0.0
    assert x["a"]["lift"] == pytest.approx(2.0) and x["b"]["lift"] == pytest.approx(0.0)
    assert x["d"]["dense_prose"] == pytest.approx(0.885), "a candidate no dense hit named sits just under the last"
    assert x["a"]["stranger"] == 1.0 and x["b"]["stranger"] == 0.0
    terse = relevance.features(record, "qwertyuiop")
    assert terse["a"]["prose"] == 0.0 and terse["a"]["dense_terse"] == pytest.approx(0.92)


def test_a_date_is_met_by_the_questions_own_days_or_a_time_told_not_by_the_reach_past_a_day() -> None:
    facts = {
        "day": {"date_in": 1.0},
        "reach": {"date_in": 0.5},
        "told": {"date_in": 0.5, "told_in": 1.0},
        "none": {"date_in": 0.0},
    }
    record = {"query": {"named": 0, "dated": True}, "channels": {}, "facts": facts}
    dated = {i: x["dated"] for i, x in relevance.features(record, "¿Qué cenamos el 9 de junio de 2024?").items()}
    assert dated == {"day": 1.0, "reach": 0.0, "told": 1.0, "none": 0.0}
    undated = relevance.features({**record, "query": {"named": 0, "dated": False}}, "¿Qué cenamos?")
    assert {x["dated"] for x in undated.values()} == {0.0}


def test_a_calibration_file_that_does_not_fit_is_refused(tmp_path: Path) -> None:
    good = json.loads(relevance.WEIGHTS_FILE.read_text(encoding="utf-8"))
    relevance.parse(good, "shipped")
    for broken in (
        {**good, "format": "other"},
        {**good, "weights": {k: v for k, v in good["weights"].items() if k != "cov"}},
        {**good, "threshold": 1.5},
        {**good, "intercept": "high"},
    ):
        with pytest.raises(relevance.RelevanceWeightsError):
            relevance.parse(broken, "broken")


@neo4j
def test_an_unreadable_calibration_keeps_search_answering(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str], tmp_path: Path
) -> None:
    bad = tmp_path / "relevance.json"
    bad.write_text("{", encoding="utf-8")
    resp = ask(
        graph,
        embedder,
        settings.model_copy(update={"relevance_weights": str(bad)}),
        diary["lola"],
        diary["project"],
        "qwertyuiop",
    )
    assert resp.results and resp.matched and all(r.relevance is None for r in resp.results)
    assert any("relevance unavailable" in w for w in resp.warnings)
