"""Learned fusion on the real Neo4j: the fused order is the one the weights say, a channel's best hit is kept on the
page when the file asks for it, a weights file that does not fit is refused, and MMR separates near-duplicates."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graph.db import Graph
from graph.members import set_member
from graph.schema import vector_property
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import ranker_features as rf
from queries.search.door import hybrid_search
from queries.search.fusion import Fused
from queries.search.mmr import entry_vectors, mmr
from queries.search.ranker import FORMAT, RankerWeightsError, load_ranker, parse_weights, probability
from queries.search.request import Scope, SearchOptions, SearchResponse

CHANNELS = ["dense", "fulltext", "structured", "thread"]
QUERY = "¿cuándo se perdió nuestra mascota en el jardín?"
TEXTS = {
    "pet": "La tortuga Manolita se escapó y no la encontramos en toda la tarde; apareció bajo las hortensias.",
    "garden": "Jardín, jardín y más jardín: regamos el jardín entero con la manguera nueva.",
    "kitchen": "Cocinamos lentejas con chorizo para toda la familia el domingo.",
    "beach": "Paseo por la playa al atardecer con los primos, el jardín de la casa quedó atrás.",
    "work": "Reunión larguísima en la oficina sobre el presupuesto del año que viene.",
}


def weights_file(tmp_path: Path, name: str, weights: dict[str, float], protect: bool = False) -> str:
    data = {
        "format": FORMAT,
        "channels": CHANNELS,
        "protect_top": protect,
        "weights": {n: float(weights.get(n, 0.0)) for n in rf.feature_names(CHANNELS)},
    }
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture()
def garden(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> tuple[str, str]:
    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    rows = [{"entry_id": f"{project}/{k}", "project_id": project, "author": owner, "text": t} for k, t in TEXTS.items()]
    assert not ingest(rows).errors
    return project, owner


def search(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    project: str,
    owner: str,
    k: int = 5,
    fusion: str | None = None,
    capture: list[dict[str, Any]] | None = None,
    **env: Any,
) -> SearchResponse:
    return hybrid_search(
        graph,
        embedder,
        settings.model_copy(update=env),
        Viewer(user_id=owner),
        QUERY,
        Scope(project_id=project),
        SearchOptions(k=k, diversify=False, fusion=fusion, capture=capture),
    )


def top_of(resp: SearchResponse, channel: str) -> str:
    return next(r.entry_id for r in resp.results if r.score_breakdown.get(channel, {}).get("rank") == 1)


def test_fused_order_follows_the_weights(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, garden: tuple[str, str], tmp_path: Path
) -> None:
    project, owner = garden
    sink: list[dict[str, Any]] = []
    base = search(graph, embedder, settings, project, owner, k=10, fusion="rrf", capture=sink)
    dense_top, keyword_top = top_of(base, "dense"), top_of(base, "fulltext")
    assert dense_top != keyword_top  # the two channels disagree on what is first: the weights must decide

    trust_dense = weights_file(tmp_path, "dense", {"dense:rr": 1.0, "fulltext:rr": 0.1})
    trust_keywords = weights_file(tmp_path, "kw", {"dense:rr": 0.1, "fulltext:rr": 1.0})
    by_dense = search(graph, embedder, settings, project, owner, k=10, fusion="learned", ranker_weights=trust_dense)
    by_keywords = search(
        graph, embedder, settings, project, owner, k=10, fusion="learned", ranker_weights=trust_keywords
    )
    assert by_dense.results[0].entry_id == dense_top
    assert by_keywords.results[0].entry_id == keyword_top

    # Every score is the ranker's score of that candidate, computed here from the captured record, in order.
    ids, scores = load_ranker(trust_keywords).score(sink[0])
    by_id = dict(zip(ids, scores.tolist(), strict=True))
    assert all(abs(r.score - probability(by_id[r.entry_id])) < 1e-5 for r in by_keywords.results)
    assert all(0 < r.score < 1 for r in by_keywords.results)
    assert [r.score for r in by_keywords.results] == sorted((r.score for r in by_keywords.results), reverse=True)


def test_a_channels_best_hit_stays_on_the_page_when_protected(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, garden: tuple[str, str], tmp_path: Path
) -> None:
    project, owner = garden
    base = search(graph, embedder, settings, project, owner, k=10, fusion="rrf")
    keyword_top = top_of(base, "fulltext")
    hostile = {"dense:rr": 1.0, "dense:lr": 1.0, "fulltext:top": -100.0}
    unprotected = search(
        graph,
        embedder,
        settings,
        project,
        owner,
        k=2,
        fusion="learned",
        ranker_weights=weights_file(tmp_path, "off", hostile, protect=False),
    )
    protected = search(
        graph,
        embedder,
        settings,
        project,
        owner,
        k=2,
        fusion="learned",
        ranker_weights=weights_file(tmp_path, "on", hostile, protect=True),
    )
    assert keyword_top not in [r.entry_id for r in unprotected.results]  # the weights alone would push it off
    assert keyword_top in [r.entry_id for r in protected.results]
    assert top_of(base, "dense") in [r.entry_id for r in protected.results]
    assert len(protected.results) == 2


def test_weights_files_that_do_not_fit_are_refused(tmp_path: Path) -> None:
    good = {"format": FORMAT, "channels": CHANNELS, "weights": {n: 0.5 for n in rf.feature_names(CHANNELS)}}
    assert parse_weights(good, "x").channels == tuple(CHANNELS)
    broken: list[tuple[Any, str]] = [
        ([], "not a"),
        ({**good, "format": "other/1"}, "not a"),
        ({**good, "channels": []}, "distinct channel names"),
        ({**good, "channels": ["dense", "dense"]}, "distinct"),
        ({**good, "weights": {**good["weights"], "mystery": 1.0}}, "unknown ['mystery']"),
        ({**good, "weights": {k: v for k, v in good["weights"].items() if k != "cov"}}, "missing ['cov']"),
        ({**good, "weights": {**good["weights"], "cov": float("nan")}}, "finite"),
        ({**good, "weights": {**good["weights"], "cov": True}}, "finite"),
        ({**good, "weights": {**good["weights"], "cov": "1"}}, "finite"),
    ]
    for data, reason in broken:
        with pytest.raises(RankerWeightsError, match=reason.replace("[", r"\[").replace("]", r"\]")):
            parse_weights(data, "x")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(RankerWeightsError, match="cannot read"):
        load_ranker(str(bad))
    with pytest.raises(RankerWeightsError, match="cannot read"):
        load_ranker(str(tmp_path / "absent.json"))
    shipped = load_ranker()  # the file in the package fits this code
    assert {"dense", "fulltext"} <= set(shipped.channels)
    assert np.isfinite(shipped.weights).all() and np.abs(shipped.weights).sum() > 0


def test_unusable_weights_fall_back_to_rrf_and_say_so(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, garden: tuple[str, str], tmp_path: Path
) -> None:
    project, owner = garden
    bad = tmp_path / "stale.json"
    bad.write_text(json.dumps({"format": FORMAT, "channels": ["dense"], "weights": {"rrf_all": 1.0}}))
    rrf_order = search(graph, embedder, settings, project, owner, fusion="rrf")
    fallback = search(graph, embedder, settings, project, owner, fusion="learned", ranker_weights=str(bad))
    assert [r.entry_id for r in fallback.results] == [r.entry_id for r in rrf_order.results]
    assert any("learned fusion unavailable" in w for w in fallback.warnings)
    assert not any(str(tmp_path) in w for w in fallback.warnings)  # a server path is not the caller's business
    assert not any("learned fusion" in w for w in rrf_order.warnings)


def test_unknown_and_missing_channels_are_neutral() -> None:
    record = {
        "query": {"n_words": 5, "named": 0, "author": False, "dated": False},
        "channels": {"dense": [["a", 0.9], ["b", 0.8]], "graph": [["c", 3.0], ["a", 1.0]]},
        "facts": {},
    }
    ids, x = rf.build(record, CHANNELS)
    names = rf.feature_names(CHANNELS)
    assert ids == ["a", "b", "c"]
    assert not x[:, [n for n, f in enumerate(names) if f.startswith(("fulltext:", "structured:"))]].any()
    other, known = x[:, names.index("rrf_other")], x[:, names.index("rrf_all")]
    assert other[2] > other[0] > 0 == other[1]  # the unknown `graph` channel votes, on its own feature
    assert known[2] == 0 and known[0] > known[1] > 0
    assert x[2, names.index("n_channels")] == 0  # and never counts as a known channel


def test_mmr_separates_near_duplicates() -> None:
    a, b = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    cands = [Fused("a", 1.0), Fused("a2", 0.9), Fused("b", 0.8), Fused("novec", 0.7)]
    vectors = {"a": a, "a2": a, "b": b}
    assert [f.id for f in mmr(cands, vectors, 1.0)] == ["a", "a2", "b", "novec"]
    assert [f.id for f in mmr(cands, vectors, 0.5)] == ["a", "b", "novec", "a2"]
    with pytest.raises(ValueError):
        mmr(cands, vectors, 1.5)


def test_search_with_mmr_diversifies_by_stored_vectors(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    same = "Hoy en la playa de Tarifa con mucho viento de levante y las cometas de kitesurf."
    rows = [
        {"entry_id": f"{project}/dup{i}", "project_id": project, "author": owner, "text": same + " " * i}
        for i in range(5)
    ]
    rows.append(
        {
            "entry_id": f"{project}/other",
            "project_id": project,
            "author": owner,
            "text": "Surf en Bolonia al atardecer, con viento suave y muchas olas.",
        }
    )
    assert not ingest(rows).errors
    vectors = entry_vectors(graph, [r["entry_id"] for r in rows], vector_property(embedder.slug))
    assert set(vectors) == {r["entry_id"] for r in rows}
    assert all(abs(float(np.linalg.norm(v)) - 1.0) < 1e-6 for v in vectors.values())

    def top3(method: str, lam: float) -> list[str]:
        s = settings.model_copy(update={"diversify": method, "mmr_lambda": lam})
        resp = hybrid_search(
            graph,
            embedder,
            s,
            Viewer(user_id=owner),
            "playa con viento y cometas",
            Scope(project_id=project),
            SearchOptions(k=3, diversify=True),
        )
        return [r.entry_id.rsplit("/", 1)[1] for r in resp.results]

    assert "other" not in top3("mmr", 1.0)  # relevance alone: the duplicates fill the page
    diverse = top3("mmr", 0.3)
    assert "other" in diverse and diverse[0] == top3("mmr", 1.0)[0]


def test_eval_passes_rerank_and_fusion_through(
    graph: Graph, tmp_path: Path, prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from api.cli import main
    from api.evaluation import namespace
    from tests.conftest import CLEANUP

    folder = tmp_path / f"{prefix}set"
    folder.mkdir()
    entries, queries = folder / "entries.jsonl", folder / "queries.jsonl"
    entries.write_text(
        "".join(json.dumps({"entry_id": f"p/{k}", "project_id": "p", "text": t}) + "\n" for k, t in TEXTS.items()),
        encoding="utf-8",
    )
    queries.write_text(
        json.dumps({"query_id": "q1", "project_id": "p", "question": QUERY, "relevant_entry_ids": ["p/pet"]}) + "\n",
        encoding="utf-8",
    )
    try:
        for fusion, rerank in (("rrf", "fast"), ("learned", "none")):
            code = main(
                [
                    "eval",
                    "--entries",
                    str(entries),
                    "--queries",
                    str(queries),
                    "--json",
                    "--rerank",
                    rerank,
                    "--fusion",
                    fusion,
                ]
            )
            out = json.loads(capsys.readouterr().out)
            assert code == 0 and out["n_queries"] == 1
            assert (out["rerank"], out["fusion"]) == (rerank, fusion)
        with pytest.raises(SystemExit) as exc:
            main(["eval", "--entries", str(entries), "--queries", str(queries), "--rerank", "slow"])
        assert exc.value.code == 2 and "invalid choice: 'slow'" in capsys.readouterr().err
    finally:
        graph.write(CLEANUP, {"prefix": namespace(entries)})
