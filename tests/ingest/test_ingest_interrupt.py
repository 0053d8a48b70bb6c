"""An interrupted `memora ingest` says what it committed: a real `memora ingest` process on a file of a few hundred
entries gets SIGINT (or SIGTERM) once the first batch is in Neo4j; it must exit 130 (143), report exactly as many
written entries as the graph holds for the project, and a second run of the same command must finish the file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from api.commands.ingest import RESUME
from graph.db import Graph

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

REPO = Path(__file__).resolve().parents[2]
ENTRIES = 320  # five batches of 64
STARTUP_TIMEOUT = 180  # importing the stack without bytecode caches takes several seconds on a busy machine
RUN_TIMEOUT = 600


def entries_in(graph: Graph, project: str) -> int:
    return int(graph.read("MATCH (e:Entry {project_id: $p}) RETURN count(e) AS n", {"p": project})[0]["n"])


def memora(*args: str) -> list[str]:
    """The command line as an operator runs it, from this checkout, with the parent's MEMORA_HOME and NEO4J_*."""
    return [sys.executable, "-m", "api.cli", *args]


@pytest.fixture()
def big_file(tmp_path: Path, prefix: str) -> tuple[Path, str]:
    project = f"{prefix}big"
    path = tmp_path / "entries.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for i in range(ENTRIES):
            fh.write(
                json.dumps(
                    {
                        "entry_id": f"{project}/e{i:04d}",
                        "project_id": project,
                        "intimacy": "circle",
                        "occurred_on": f"{1990 + i % 30}-0{1 + i % 9}-1{i % 10}",
                        "text": f"Nota {i}: hoy regamos el huerto número {i} con la abuela.",
                    }
                )
                + "\n"
            )
    return path, project


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_ingest_reports_what_it_committed_and_resumes(
    graph: Graph, big_file: tuple[Path, str], sig: signal.Signals, code: int
) -> None:
    path, project = big_file
    proc = subprocess.Popen(
        memora("ingest", str(path), "--json"),
        cwd=REPO,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while entries_in(graph, project) == 0:  # the first batch has committed
            assert proc.poll() is None, f"memora ingest ended before any batch committed: {proc.communicate()}"
            assert time.monotonic() < deadline, "no batch committed in time"
            time.sleep(0.05)
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=RUN_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()

    in_graph = entries_in(graph, project)
    assert proc.returncode == code, (proc.returncode, stderr[-2000:])
    assert 0 < in_graph < ENTRIES, f"the run was not cut short ({in_graph} entries): raise ENTRIES"
    report: dict[str, Any] = json.loads(stdout)
    assert report["interrupted"] is True and report["signal"] == sig.name
    assert report["written"] == in_graph and report["counts_exact"] is True, (report, in_graph)
    assert report["unchanged"] == 0 and report["errors"] == []
    assert report["lines_processed"] == report["processed_through_line"] == in_graph
    assert report["lines_total"] == ENTRIES
    assert f"interrupted ({sig.name})" in stderr and f"written {in_graph}," in stderr, stderr[-2000:]
    assert f"every line through line {in_graph} processed" in stderr
    assert RESUME in stderr

    again = subprocess.run(
        memora("ingest", str(path), "--json"),
        cwd=REPO,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    assert again.returncode == 0, again.stderr[-2000:]
    rest: dict[str, Any] = json.loads(again.stdout)
    assert rest["unchanged"] == in_graph, "what the first run wrote is skipped by its content hash"
    assert rest["written"] + rest["unchanged"] == ENTRIES
    assert entries_in(graph, project) == ENTRIES
