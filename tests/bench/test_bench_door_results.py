"""`bench/door_results.py` cannot silently rot: on a tiny set it writes every question's ranked answers under both
fusions, two runs of the same code compare equal, and a changed score is reported as a difference (exit 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from api.evaluation import namespace
from graph.db import Graph
from tests.bench.test_bench_peers import QUESTIONS, _write_set
from tests.conftest import CLEANUP

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

REPO = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench.door_results", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "MEMORA_BENCH_DATA": ""},
    )


def test_door_results_dumps_both_fusions_and_compares(tmp_path: Path, graph: Graph) -> None:
    entries = _write_set(tmp_path / "data", uuid.uuid4().hex[:10])
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    try:
        for out in (first, second):
            proc = _run(str(out), "--data", str(tmp_path / "data"), "--only", "locomo")
            assert proc.returncode == 0, proc.stderr[-3000:]
    finally:
        graph.write(CLEANUP, {"prefix": namespace(entries)})
    found = json.loads(first.read_text())
    assert len(found) == 2 * len(QUESTIONS)
    for fusion, depth in (("learned", 1), ("rrf", 3)):  # plain RRF on six turns: the thread's votes weigh much
        for n, (_, turn) in enumerate(QUESTIONS):
            ranked = next(v for k, v in found.items() if k.startswith(f"locomo|{fusion}|") and k.endswith(f"/q{n}"))
            assert f"D1:{turn + 1}" in [entry.rsplit("/", 1)[1] for entry, _ in ranked[:depth]], (fusion, n, ranked)
    same = _run("--compare", str(first), str(second))
    assert same.returncode == 0 and f"{len(found)} searches, 0 differ" in same.stdout, same.stdout
    key = sorted(found)[0]
    found[key][0][1] += 1e-9
    second.write_text(json.dumps(found))
    changed = _run("--compare", str(first), str(second))
    assert changed.returncode == 1 and "1 differ" in changed.stdout and key in changed.stdout, changed.stdout
