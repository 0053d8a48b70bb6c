"""A served process is not ready until its warm start ends (api/warmup.py), and the warm start plans the read
statements on the real server without reading any data."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

import httpx
import pytest
from fastapi.testclient import TestClient

from api import warmup
from api.app import Services, create_app
from graph.db import Graph
from graph.plan_cache import prepare, rewritten
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from queries.search import keyword
from tests.plan_cache_count import cached_plans


def _ready_within(client: TestClient, seconds: float) -> httpx.Response:
    deadline = time.monotonic() + seconds
    while True:
        answer = client.get("/ready")
        if answer.status_code == 200 or time.monotonic() > deadline:
            return answer
        time.sleep(0.05)


def _app(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, monkeypatch: pytest.MonkeyPatch, warm: Callable
) -> TestClient:
    monkeypatch.setattr(warmup, "warm", warm)
    return TestClient(create_app(Services(settings, graph=graph, embedder=embedder), warm=True))


def test_ready_says_warming_until_the_warm_start_ends(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    release, started = threading.Event(), threading.Event()

    def slow_warm(svc: Services) -> warmup.Warmth:
        started.set()
        assert release.wait(60)
        return warmup.Warmth(planned=1, refused=0, model=True, seconds=0.0)

    with _app(graph, embedder, settings, monkeypatch, slow_warm) as client:
        assert started.wait(30)
        for _ in range(3):
            answer = client.get("/ready")
            assert answer.status_code == 503
            assert answer.json()["status"] == "warming" and answer.json()["neo4j"] == "up"
            assert answer.headers["Retry-After"] == "1"
        assert client.get("/health").json()["status"] == "ok"  # alive while warming
        release.set()
        assert _ready_within(client, 30).json() == {"status": "ready", "neo4j": "up", "detail": None}


def test_a_warm_start_that_fails_does_not_hold_readiness(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(svc: Services) -> warmup.Warmth:
        raise RuntimeError("the model server is gone")

    with _app(graph, embedder, settings, monkeypatch, broken) as client:
        assert _ready_within(client, 30).status_code == 200


def test_without_a_warm_start_the_service_is_ready_at_once(client: TestClient) -> None:
    assert client.get("/ready").json()["status"] == "ready"


def test_the_warm_start_plans_reads_only() -> None:
    statements = warmup.read_statements()
    assert any(key.startswith("queries.search.ranker.") for key in statements)
    assert all(key.startswith(("graph.", "queries.")) for key in statements)
    assert not any(re.search(r"\b(CREATE|MERGE|DELETE)\b", text) for text in statements.values())


COUNTS = "CALL () { MATCH (n) RETURN count(n) AS nodes } CALL () { MATCH ()-[r]->() RETURN count(r) AS edges } RETURN *"


@pytest.mark.serial  # counts the server's whole plan cache: no other test may run statements meanwhile
def test_the_warm_start_plans_every_read_statement_as_the_service_sends_it(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings
) -> None:
    statements = [form for text in warmup.read_statements().values() for form in keyword.forms(text)]
    assert len(statements) > len(warmup.read_statements())  # the keyword statements' scored forms too
    cached_plans(graph)
    with graph.session() as session:
        assert prepare(session, statements) == []
    assert cached_plans(graph) == len({rewritten(s)[0] for s in statements})
    before = graph.read(COUNTS)[0].data()
    done = warmup.warm(Services(settings, graph=graph, embedder=embedder))
    assert (done.planned, done.refused, done.model) == (len(statements), 0, True)
    assert graph.read(COUNTS)[0].data() == before, "the warm start wrote to the graph"
