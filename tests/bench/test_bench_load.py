"""The load test cannot silently rot: `bench/bench_load.py` run end to end at a tiny size (real Neo4j, the real HTTP
service in a subprocess) makes every search it was asked for, with no error, and deletes its project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import bench_load
from graph.db import Graph

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]


def test_the_load_test_runs_each_step_and_cleans_up(tmp_path: Path, graph: Graph) -> None:
    out, png = tmp_path / "load.json", tmp_path / "load.png"
    argv = ["--sizes", "40", "--clients", "1,2", "--calls", "6", "--json", str(out), "--plot", str(png)]
    assert bench_load.main([*argv, "--server-log", str(tmp_path / "server.log")]) == 0
    (size,) = json.loads(out.read_text())["sizes"]
    assert [s["clients"] for s in size["steps"]] == [1, 2]
    for step in size["steps"]:
        assert step["n"] == 6 and step["errors"] == 0 and step["unfinished"] == 0, step
        assert step["qps"] > 0 and 0 < step["p50_ms"] <= step["p95_ms"] <= step["p99_ms"]
        assert step["client_cpu_ms_per_call"] > 0  # the load generator's own share of the machine
    assert size["steps"][0]["vs_one_client"] == 1.0
    assert size["steps"][1]["vs_one_client"] == round(size["steps"][1]["qps"] / size["steps"][0]["qps"], 2)
    assert png.stat().st_size > 1000
    left = graph.read("MATCH (n) WHERE n.project_id = $p OR n.id = $p RETURN count(n) AS n", {"p": size["project"]})
    assert left[0]["n"] == 0, "the load test leaves nothing of its project behind"


def test_the_load_test_refuses_a_baseline_other_than_one_client(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_load.main(["--clients", "2,4"])
    assert exit_.value.code == 2 and "must start with 1" in capsys.readouterr().err
