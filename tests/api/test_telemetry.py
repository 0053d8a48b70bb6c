"""Telemetry on the real Neo4j: the sampled retrieval log (query hashed, never in clear), click feedback only on the
caller's own search, `memora stats` and `GET /metrics` (off by default, token-guarded, nothing per project)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api.app import Services, create_app
from api.cli import main
from graph.db import Graph
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from queries.search import result_cache
from queries.telemetry.search_log import query_hash
from queries.telemetry.search_stats import compute, percentile, search_stats

Q = "Zanahoria secreta en Cádiz"
LOGS = "MATCH (s:SearchLog) WHERE any(p IN s.project_ids WHERE p STARTS WITH $prefix) RETURN s"
DROP_LOGS = "MATCH (s:SearchLog) WHERE any(p IN s.project_ids WHERE p STARTS WITH $prefix) DELETE s"


def _client(graph: Graph, embedder: CheckedEmbedder, settings: Settings, **update: Any) -> TestClient:
    return TestClient(create_app(Services(settings.model_copy(update=update), graph=graph, embedder=embedder)))


@pytest.fixture()
def logged(graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str) -> Iterator[TestClient]:
    """Every search logged (sample 1), the result cache off."""
    with _client(graph, embedder, settings, search_log_sample=1.0, search_cache_seconds=0.0) as c:
        yield c
    graph.write(DROP_LOGS, {"prefix": prefix})


def _search(c: TestClient, headers: dict[str, str], project: str) -> dict[str, Any]:
    r = c.post("/v1/search", json={"q": Q, "project_id": project, "k": 5}, headers=headers)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_logged_search_keeps_a_salted_hash_never_the_query(
    logged: TestClient,
    graph: Graph,
    settings: Settings,
    family: dict[str, str],
    prefix: str,
    auth: Callable[[str], dict[str, str]],
) -> None:
    body = _search(logged, auth(family["owner"]), family["project"])
    rows = [dict(r["s"]) for r in graph.read(LOGS, {"prefix": prefix})]
    assert len(rows) == 1
    log = rows[0]
    assert log["id"] == body["search_id"] and log["user_id"] == family["owner"]
    assert log["query_hash"] == query_hash(settings, Q) == query_hash(settings, "  zanahoria SECRETA en cádiz")
    assert log["query_hash"] != query_hash(settings, "Zanahoria secreta")
    stored = json.dumps(log, default=str).casefold()
    assert "zanahoria" not in stored and "cádiz" not in stored
    assert log["result_ids"] == [r["entry_id"] for r in body["results"]]
    assert set(json.loads(log["candidates"])) >= {"fulltext"}
    assert set(json.loads(log["latency"])) >= {"parse", "total"}


def test_feedback_only_for_the_callers_own_search_and_an_entry_it_showed(
    logged: TestClient, graph: Graph, family: dict[str, str], prefix: str, auth: Callable[[str], dict[str, str]]
) -> None:
    owner, reader = auth(family["owner"]), auth(family["reader"])
    body = _search(logged, owner, family["project"])
    second = body["results"][1]["entry_id"]
    ok = logged.post(
        "/v1/feedback", headers=owner, json={"search_id": body["search_id"], "entry_id": second, "position": 2}
    )
    assert ok.status_code == 200 and ok.json()["recorded"] is True, ok.text

    # another user's search answers exactly like a search that never existed
    theirs = logged.post(
        "/v1/feedback", headers=reader, json={"search_id": body["search_id"], "entry_id": second, "position": 2}
    )
    nothing = logged.post(
        "/v1/feedback", headers=reader, json={"search_id": "no-such-search", "entry_id": second, "position": 2}
    )
    assert theirs.status_code == nothing.status_code == 404 and theirs.json() == nothing.json()
    hidden = f"{family['project']}/other-private"
    assert hidden not in {r["entry_id"] for r in body["results"]}
    not_shown = logged.post(
        "/v1/feedback", headers=owner, json={"search_id": body["search_id"], "entry_id": hidden, "position": 1}
    )
    assert not_shown.status_code == 422
    moved = logged.post(
        "/v1/feedback", headers=owner, json={"search_id": body["search_id"], "entry_id": second, "position": 1}
    )
    assert moved.status_code == 422 and "position 2" in moved.text
    assert logged.post("/v1/feedback", headers=owner, json={"search_id": body["search_id"]}).status_code == 422

    clicks = graph.read("MATCH (s:SearchLog {id: $id}) RETURN s.clicks AS c", {"id": body["search_id"]})
    assert clicks[0]["c"] == [2]


def test_an_unsampled_search_takes_a_click_without_keeping_it(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    family: dict[str, str],
    prefix: str,
    auth: Callable[[str], dict[str, str]],
) -> None:
    with _client(graph, embedder, settings, search_log_sample=0.0) as c:
        body = _search(c, auth(family["owner"]), family["project"])
        first = body["results"][0]["entry_id"]
        r = c.post(
            "/v1/feedback",
            headers=auth(family["owner"]),
            json={"search_id": body["search_id"], "entry_id": first, "position": 1},
        )
    assert r.status_code == 200 and r.json()["recorded"] is False
    assert not graph.read(LOGS, {"prefix": prefix})


def test_stats_report_stage_latency_channel_shares_and_click_through(
    logged: TestClient,
    graph: Graph,
    family: dict[str, str],
    auth: Callable[[str], dict[str, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    owner, p = auth(family["owner"]), family["project"]
    for _ in range(3):
        body = _search(logged, owner, p)
    first = body["results"][0]["entry_id"]
    assert (
        logged.post(
            "/v1/feedback", headers=owner, json={"search_id": body["search_id"], "entry_id": first, "position": 1}
        ).status_code
        == 200
    )
    stats = search_stats(graph, project_id=p)
    assert stats.searches == 3
    assert stats.click_through[1] == {"shown": 3, "clicks": 1, "rate": round(1 / 3, 4)}
    assert stats.click_through[2]["clicks"] == 0
    assert stats.latency_ms["total"]["n"] == 3
    assert stats.latency_ms["total"]["p50"] <= stats.latency_ms["total"]["p95"]
    assert 0 < stats.channel_share_top10["fulltext"] <= 1

    assert main(["stats", "--json", "--project", p]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["searches"] == 3 and printed["click_through"]["1"]["clicks"] == 1


def test_stats_arithmetic() -> None:
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0 and percentile([1.0, 2.0], 95) == 2.0
    rows = [
        {
            "latency": json.dumps({"total": 10.0, "dense": 4.0}),
            "cached": False,
            "channels": ["dense,fulltext", "fulltext"],
            "clicks": [2],
            "rerank": "none",
            "candidates": json.dumps({"dense": 8}),
        },
        {
            "latency": json.dumps({"cache": 0.5, "total": 0.5}),
            "cached": True,
            "channels": ["dense"],
            "clicks": [],
            "rerank": None,
            "candidates": "{}",
        },
    ]
    s = compute(rows)
    assert s.cache_hits == 1 and s.latency_ms["total"]["n"] == 1 and s.latency_ms["cache"]["n"] == 1
    assert s.channel_share_top10 == {"dense": round(2 / 3, 4), "fulltext": round(2 / 3, 4)}
    assert s.click_through[2] == {"shown": 1, "clicks": 1, "rate": 1.0}


def test_metrics_are_off_by_default_and_guarded_by_their_token(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    family: dict[str, str],
    auth: Callable[[str], dict[str, str]],
) -> None:
    with _client(graph, embedder, settings, metrics_token=None, metrics_open=False) as c:
        assert c.get("/metrics").status_code == 404
    result_cache.clear(graph)
    token = "scrape-" + "x" * 30
    with _client(graph, embedder, settings, metrics_token=SecretStr(token), search_log_sample=0.0) as c:
        _search(c, auth(family["owner"]), family["project"])
        c.get(f"/v1/entries/{family['project']}/owner-public", headers=auth(family["owner"]))
        assert c.get("/metrics").status_code == 401
        assert c.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
        r = c.get("/metrics", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    text = r.text
    assert 'memora_http_requests_total{method="POST",route="/v1/search",status="200"}' in text
    assert 'route="/v1/entries/{entry_id:path}"' in text  # the template, never the id
    assert 'memora_search_stage_duration_seconds_bucket{le="0.001",stage="total"}' in text
    assert "memora_embedding_queue_depth " in text
    assert 'memora_search_cache_total{outcome="miss"}' in text
    assert family["project"] not in text and family["owner"] not in text
