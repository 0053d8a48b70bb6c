"""A served process is not ready until its warm start ends (api/warmup.py), and the warm start plans the read
statements on the real server without reading any data."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api import warmup
from api.app import Services, create_app
from graph.db import Graph
from graph.plan_cache import prepare, rewritten
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import keyword, visible_view
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions
from queries.telemetry import search_log
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


def _searched(graph: Graph, settings: Settings, embedder: CheckedEmbedder, user: str, project: str) -> None:
    """A search by `user` in `project`, written to the retrieval log."""
    viewer = Viewer(user_id=user)
    answer = hybrid_search(graph, embedder, settings, viewer, "Cádiz", Scope(project_id=project), SearchOptions())
    search_log.record(graph, settings, viewer, "Cádiz", [project], answer, "none", sample=1.0)


def test_the_latest_searchers_are_read_from_the_log_newest_first(
    graph: Graph, settings: Settings, embedder: CheckedEmbedder, family: dict[str, str]
) -> None:
    p = family["project"]
    for user in ("owner", "reader", "owner"):
        _searched(graph, settings, embedder, family[user], p)
        time.sleep(0.01)
    mine = [pair for pair in search_log.recent_searchers(graph, 16) if pair[1] == p]
    assert mine == [(family["owner"], p), (family["reader"], p)], "each once, by their latest search"
    assert search_log.recent_searchers(graph, 0) == []


def test_the_warm_start_lists_the_views_of_the_latest_searchers_still_members(
    graph: Graph,
    settings: Settings,
    embedder: CheckedEmbedder,
    family: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p, reader = family["project"], family["reader"]
    latest = [(reader, p), (family["outsider"], p), (family["owner"], p)]
    monkeypatch.setattr(warmup, "recent_searchers", lambda graph, limit: latest[:limit])
    visible_view.clear(graph)
    listed: list[str] = []
    real_list = visible_view._list

    def counting(where: Any, *args: Any, **kwargs: Any) -> Any:
        listed.append(where.user_id)
        return real_list(where, *args, **kwargs)

    monkeypatch.setattr(visible_view, "_list", counting)
    behind: list[str] = []
    monkeypatch.setattr(visible_view, "_behind", lambda where: behind.append(where.user_id))
    # Even where a large view's first listing would run behind the searches, the warm start waits for it.
    svc = Services(settings.model_copy(update={"dense_matrix_background_entries": 0}), graph=graph, embedder=embedder)
    assert warmup.warm_views(svc) == 2, "the outsider is no member: no search runs for them"
    assert listed == [reader, family["owner"]] and behind == []
    _searched(graph, settings, embedder, reader, p)
    assert listed == [reader, family["owner"]], "the reader's first search found their view listed"
    _searched(graph, settings, embedder, family["coauthor"], p)
    assert listed[-1] == family["coauthor"], "whoever did not search lately lists theirs on their first search"
    off = Services(settings.model_copy(update={"warm_views": 0}), graph=graph, embedder=embedder)
    assert warmup.warm_views(off) == 0
