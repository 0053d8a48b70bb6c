"""`bench/bench_sessions.py` on the real Neo4j: it measures both ways of knowing the viewer and leaves no session."""

from __future__ import annotations

import json

import pytest

from bench import bench_sessions
from graph.db import Graph

LEFT = "MATCH (s:WebSession) WHERE s.user_id STARTS WITH 'bench-sessions-' RETURN count(s) AS n"


def test_the_session_benchmark_measures_each_way_and_cleans_up(
    graph: Graph, capsys: pytest.CaptureFixture[str]
) -> None:
    before = int(graph.read(LEFT)[0]["n"])
    assert bench_sessions.main(["--rounds", "5"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rounds"] == 5
    for way in ("token", "session", "session, renewed"):
        assert 0 < report[way]["p50_ms"] <= report[way]["p95_ms"]
    assert int(graph.read(LEFT)[0]["n"]) == before
