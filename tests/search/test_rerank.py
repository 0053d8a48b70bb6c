"""Rerank tiers on the real Neo4j: `fast` with a tiny cross-encoder built here (loading through sentence-transformers
and FlagEmbedding, batching, truncation, ordering, only visible candidates reach it), `premium` against a local fake
chat server (order, unknown ids ignored, timeout), and the fused order kept with a warning whenever a tier cannot run.
The tiny model's scores are random-weight scores: they say nothing about ranking quality."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from api.cli import main
from graph.db import Graph
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import rerank as rr
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions, SearchResponse
from tests.fake_llm import fake_llm
from tests.tiny_models import build_tiny_cross_encoder

QUERY = "zanahoria: la abuela en la playa de cádiz"
TOPICS = [
    "la abuela en la playa de cádiz",
    "el perro en el jardín de la casa",
    "cena con mi hermano en madrid",
    "el tren a sevilla en invierno",
    "la boda de mi hermana en barcelona",
    "paella y tortilla un domingo",
    "el gato y la noche en el pueblo",
    "viaje en coche al mar con mi padre",
]
LEVELS = ["public", "circle", "intimate", "private"]


@pytest.fixture()
def family(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    """Eight entries sharing the word "zanahoria", each on a topic the tiny model's vocabulary knows (so their
    scores differ), two per intimacy level, all by the owner; the level is written in each text."""
    from graph.members import set_member

    project = f"{prefix}rr"
    users = {r: f"{prefix}{r}" for r in ("owner", "reader")}
    set_member(graph, project, users["owner"], "owner")
    set_member(graph, project, users["reader"], "reader")
    report = ingest(
        [
            {
                "entry_id": f"{project}/e{i}",
                "project_id": project,
                "author": users["owner"],
                "intimacy": LEVELS[i % 4],
                "occurred_on": "2008-07-12",
                "text": f"Zanahoria {LEVELS[i % 4]}: {topic}.",
            }
            for i, topic in enumerate(TOPICS)
        ]
    )
    assert not report.errors
    return {"project": project, **users}


@pytest.fixture(scope="module")
def tiny_reranker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_cross_encoder(tmp_path_factory.mktemp("tiny-reranker") / "model")


def _with(settings: Settings, **changes: Any) -> Settings:
    return settings.model_copy(update=changes)


def _search(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, user: str, project: str, tier: str
) -> SearchResponse:
    return hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=user),
        QUERY,
        Scope(project_id=project),
        SearchOptions(k=10, rerank=tier, diversify=False),
    )


def _bodies(graph: Graph, ids: list[str]) -> dict[str, str]:
    return {
        r["id"]: r["body"]
        for r in graph.read(
            "UNWIND $ids AS id MATCH (e:Entry {id: id}) RETURN e.id AS id, e.body AS body", {"ids": ids}
        )
    }


class Spy:
    """The real tiny cross-encoder, recording every pair it is shown."""

    def __init__(self, inner: rr.PairScorer) -> None:
        self.inner, self.pairs = inner, []  # type: list[tuple[str, str]]

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        self.pairs.extend(pairs)
        return self.inner.score(pairs)


def test_fast_orders_the_candidates_by_the_cross_encoders_scores(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str], tiny_reranker: Path
) -> None:
    configured = _with(settings, reranker="cross-encoder", reranker_model=str(tiny_reranker))
    fused = _search(graph, embedder, configured, family["owner"], family["project"], "none")
    ranked = _search(graph, embedder, configured, family["owner"], family["project"], "fast")
    assert not ranked.warnings and "rerank" in ranked.latency_ms
    assert sorted(r.entry_id for r in ranked.results) == sorted(r.entry_id for r in fused.results)
    scores = [r.score_breakdown["rerank"]["score"] for r in ranked.results]
    assert [r.score_breakdown["rerank"]["rank"] for r in ranked.results] == list(range(1, len(scores) + 1))
    # The scores are the model's own: scored again, outside the search, they give the same order.
    from sentence_transformers import CrossEncoder

    bodies = _bodies(graph, [r.entry_id for r in ranked.results])
    direct = CrossEncoder(str(tiny_reranker), max_length=512).predict(
        [[QUERY, bodies[r.entry_id]] for r in ranked.results]
    )
    assert [round(float(s), 6) for s in direct] == scores
    assert scores == sorted(scores, reverse=True) and len(set(scores)) > 1


def test_flag_reranker_loads_the_same_checkpoint_and_agrees_on_the_order(tiny_reranker: Path) -> None:
    pairs = [
        (QUERY, t)
        for t in (
            "fuimos a la playa con la abuela",
            "el perro y el gato en casa",
            "cena de verano en sevilla",
            "el tren de la noche a madrid",
        )
    ]
    base = dict(reranker_model=str(tiny_reranker), reranker_max_length=64)
    flag = rr.scorer_for(Settings(reranker="flag", **base))  # type: ignore[arg-type]
    st = rr.scorer_for(Settings(reranker="cross-encoder", **base))  # type: ignore[arg-type]
    assert isinstance(flag, rr.FlagScorer) and isinstance(st, rr.SentenceTransformersScorer)
    order = [sorted(range(4), key=lambda i, s=s: -s[i]) for s in (flag.score(pairs), st.score(pairs))]
    assert order[0] == order[1]


def test_batches_and_truncation(tiny_reranker: Path) -> None:
    pairs = [(QUERY, f"fuimos a la playa {i} con la abuela y el perro") for i in range(5)]
    one = rr.SentenceTransformersScorer(str(tiny_reranker), max_length=128, batch_size=16)
    two = rr.SentenceTransformersScorer(str(tiny_reranker), max_length=128, batch_size=2)
    calls: list[int] = []
    predict = two._model.predict

    def counted(batch: list[list[str]], **kwargs: Any) -> Any:
        calls.append(len(batch))
        return predict(batch, **kwargs)

    two._model.predict = counted  # type: ignore[method-assign]
    assert two.score(pairs) == pytest.approx(one.score(pairs), abs=1e-5)
    assert calls == [2, 2, 1]  # 5 pairs in forward passes of at most 2

    text = "la abuela y el perro en la playa de cádiz " * 3
    longer = text + "madrid tren noche " * 200
    short = rr.SentenceTransformersScorer(str(tiny_reranker), max_length=16, batch_size=4)
    assert short.score([(QUERY, text)]) == pytest.approx(short.score([(QUERY, longer)]), abs=1e-6)
    assert one.score([(QUERY, text)]) != pytest.approx(one.score([(QUERY, longer)]), abs=1e-6)


def test_only_candidates_the_viewer_may_see_reach_the_cross_encoder(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    family: dict[str, str],
    tiny_reranker: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    configured = _with(settings, reranker="cross-encoder", reranker_model=str(tiny_reranker))
    spy = Spy(rr.SentenceTransformersScorer(str(tiny_reranker), 512, 16))
    monkeypatch.setattr(rr, "scorer_for", lambda s: spy)
    resp = _search(graph, embedder, configured, family["reader"], family["project"], "fast")
    assert len(spy.pairs) == len(resp.results) == 4
    for _, text in spy.pairs:
        assert ("circle" in text or "public" in text) and "private" not in text and "intimate" not in text


def test_without_a_usable_reranker_fast_keeps_the_fused_order_and_says_why(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    fused = [r.entry_id for r in _search(graph, embedder, settings, family["owner"], family["project"], "none").results]
    plain = _search(graph, embedder, _with(settings, reranker=None), family["owner"], family["project"], "fast")
    assert [r.entry_id for r in plain.results] == fused
    assert any("no reranker is configured" in w for w in plain.warnings)
    broken = _search(
        graph,
        embedder,
        _with(settings, reranker="cross-encoder", reranker_model="/nonexistent/x"),
        family["owner"],
        family["project"],
        "fast",
    )
    assert [r.entry_id for r in broken.results] == fused
    assert any("could not be loaded" in w for w in broken.warnings)
    odd = _search(graph, embedder, _with(settings, reranker="colbert"), family["owner"], family["project"], "fast")
    assert [r.entry_id for r in odd.results] == fused and any("is not one of" in w for w in odd.warnings)


@pytest.fixture()
def llm() -> Iterator[Any]:
    with fake_llm() as fake:
        yield fake


def _premium_settings(settings: Settings, fake: Any, timeout: float = 5.0) -> Settings:
    return _with(settings, llm_base_url=fake.url, llm_model="tiny-chat", rerank_premium_timeout_seconds=timeout)


def test_premium_follows_the_models_order_and_ignores_ids_it_invented(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str], llm: Any
) -> None:
    fused = [
        r.entry_id for r in _search(graph, embedder, settings, family["reader"], family["project"], "none").results
    ]
    assert len(fused) == 4
    llm.reply = lambda messages: "4, 99, 2, 2, 0"  # 99 and 0 name no candidate; 2 once is enough
    resp = _search(graph, embedder, _premium_settings(settings, llm), family["reader"], family["project"], "premium")
    assert not resp.warnings
    assert [r.entry_id for r in resp.results] == [fused[3], fused[1], fused[0], fused[2]]
    assert [r.score_breakdown["rerank"]["rank"] for r in resp.results[:2]] == [1, 2]
    assert "rerank" not in resp.results[2].score_breakdown
    prompt = llm.last_prompt()
    assert QUERY in prompt and "[4]" in prompt and "[5]" not in prompt
    assert "private" not in prompt and "intimate" not in prompt  # only what the reader may see is sent


@pytest.mark.parametrize("fault", ["slow", "refused", "babble"])
def test_premium_keeps_the_previous_order_when_the_model_fails(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str], llm: Any, fault: str
) -> None:
    fused = [r.entry_id for r in _search(graph, embedder, settings, family["owner"], family["project"], "none").results]
    if fault == "slow":
        llm.delay_seconds = 1.5
    elif fault == "refused":
        llm.status = 503
    else:
        llm.reply = lambda messages: "I think the first one is best."
    resp = _search(
        graph, embedder, _premium_settings(settings, llm, timeout=0.5), family["owner"], family["project"], "premium"
    )
    assert [r.entry_id for r in resp.results] == fused
    expected = {"slow": "did not answer in time", "refused": "HTTP 503", "babble": "named no candidate"}[fault]
    assert any(expected in w and "fused order is kept" in w for w in resp.warnings), resp.warnings
    unset = _search(graph, embedder, _with(settings, llm_base_url=None), family["owner"], family["project"], "premium")
    assert [r.entry_id for r in unset.results] == fused
    assert any("no language model is configured" in w for w in unset.warnings)


def test_the_api_and_the_command_take_the_tier(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    family: dict[str, str],
    llm: Any,
    auth: Callable[[str], dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fastapi.testclient import TestClient

    from api.app import Services, create_app

    configured = _premium_settings(settings, llm)
    fused = [
        r.entry_id for r in _search(graph, embedder, settings, family["reader"], family["project"], "none").results
    ]
    llm.reply = lambda messages: "3, 1"
    with TestClient(create_app(Services(configured, graph=graph, embedder=embedder))) as client:
        body = client.post(
            "/v1/search",
            headers=auth(family["reader"]),
            json={"q": QUERY, "project_id": family["project"], "rerank": "premium", "diversify": False},
        ).json()
    assert [r["entry_id"] for r in body["results"]] == [fused[2], fused[0], fused[1], fused[3]]
    assert not body["warnings"]

    monkeypatch.setattr("api.cli.get_settings", lambda: configured)
    assert (
        main(
            [
                "search",
                QUERY,
                "--project",
                family["project"],
                "--as",
                family["reader"],
                "--rerank",
                "premium",
                "--no-diversify",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert [r["entry_id"] for r in out["results"]] == [fused[2], fused[0], fused[1], fused[3]]
    with pytest.raises(SystemExit) as exit_:
        main(["search", QUERY, "--as", family["reader"], "--rerank", "ultra"])
    assert exit_.value.code == 2
