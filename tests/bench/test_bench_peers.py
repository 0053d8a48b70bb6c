"""`bench/peers.py` cannot silently rot: a run on a tiny set it is given (six entries, three questions) prints every
system's row, finds what plain words find, and leaves none of the peers' nodes or indexes behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from api.evaluation import namespace
from bench import exact_scan
from bench.peer_corpora import PeerRun
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from tests.conftest import CLEANUP

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

REPO = Path(__file__).resolve().parents[2]
SYSTEMS = (
    "memora hybrid + understanding (search door)",
    "memora hybrid, no understanding",
    "memora fulltext alone",
    "memora dense alone",
    "graphrag HybridRetriever, contextualised vectors",
    "graphrag HybridRetriever, plain vectors",
    "graphrag VectorRetriever, contextualised vectors",
    "graphrag VectorRetriever, plain vectors",
)
TURNS = [
    ("Ana", "I adopted a grey greyhound called Pepper from the shelter last weekend."),
    ("Luis", "That is lovely! I spent Sunday repairing the old sailing boat with my uncle."),
    ("Ana", "My sister is learning the cello; her first recital is in the cathedral."),
    ("Luis", "I finally finished the marathon in Valencia, four hours and ten minutes."),
    ("Ana", "We planted tomatoes, basil and peppers in the allotment behind the school."),
    ("Luis", "The volcano hike in Tenerife was windy but the view was worth it."),
]
QUESTIONS = [
    ("What did Ana adopt from the shelter?", 0),
    ("Where did Luis run the marathon?", 3),
    ("What is Ana's sister learning to play?", 2),
]


def _write_set(root: Path, tag: str) -> Path:
    folder = root / "locomo-dev"
    folder.mkdir(parents=True)
    project = f"conv-{tag}"
    entries = [
        {
            "project_id": project,
            "entry_id": f"{project}/D1:{i + 1}",
            "occurred_on": "2024-05-04",
            "occurred_at": "2024-05-04T10:00",
            "author": who,
            "text": text,
        }
        for i, (who, text) in enumerate(TURNS)
    ]
    queries = [
        {
            "query_id": f"{project}/q{n}",
            "project_id": project,
            "question": q,
            "relevant_entry_ids": [f"{project}/D1:{i + 1}"],
            "category_name": "single-hop",
        }
        for n, (q, i) in enumerate(QUESTIONS)
    ]
    (folder / "entries.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8")
    return folder / "entries.jsonl"


def test_peers_bench_runs_every_system_and_cleans_up(tmp_path: Path, graph: Graph) -> None:
    entries = _write_set(tmp_path / "data", uuid.uuid4().hex[:10])
    out = tmp_path / "peers.json"
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "bench.peers",
                "--data",
                str(tmp_path / "data"),
                "--only",
                "locomo",
                "--exact-queries",
                "0",
                "--json",
                str(out),
            ],
            cwd=REPO,
            env={**os.environ, "MEMORA_BENCH_DATA": ""},
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        graph.write(CLEANUP, {"prefix": namespace(entries)})
    elapsed = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr[-3000:]
    # Budget 60 s: 31 s measured, 55 s with other helpers' benchmarks loading the two cores; the guard allows twice.
    assert elapsed < 120, f"the smoke run took {elapsed:.0f} s"
    assert "absent, skipped" in proc.stderr and "diary-es" not in proc.stdout  # --only keeps to the one set
    report = json.loads(out.read_text())
    table = report["sets"]["locomo"]
    for name in SYSTEMS:
        assert name in table, name
        assert f"| {name} |" in proc.stdout, name
        assert table[name]["n_queries"] == len(QUESTIONS)
        assert table[name]["latency_ms"]["p50"] > 0
    # Plain distinctive words: the door and the peers' hybrid must both find every answer in the top five.
    assert table["memora hybrid + understanding (search door)"]["recall@5"] == 1.0
    assert table["graphrag HybridRetriever, plain vectors"]["recall@5"] == 1.0
    assert table["_setup"]["peer_chunks"] == len(TURNS)
    assert report["exact_scan"] == []  # --exact-queries 0; measured in the test below
    # Nothing of the peers' run is left: no node with its label, no index with its prefix.
    assert report["leftovers"] == {"nodes": 0, "indexes": []}
    run = PeerRun(run_id=report["run"])
    assert run.leftovers(graph) == {"nodes": 0, "indexes": []}
    assert (
        graph.read(
            "MATCH (n) WHERE any(l IN labels(n) WHERE l STARTS WITH $p) RETURN count(n) AS n", {"p": run.run_label}
        )[0]["n"]
        == 0
    )


def test_cached_matrix_prototype_keeps_visibility_and_sees_new_writes(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Callable[..., IngestReport]
) -> None:
    """The bench-only design (bench/exact_scan.py): similarity over a cached matrix, visibility by Cypher. A private
    entry closest to the query never reaches a reader, and a new visible entry is found on the next search."""
    project = f"{prefix}scan"
    owner, reader = f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    rows = [
        {"entry_id": f"{project}/{i}", "project_id": project, "author": owner, "intimacy": "circle", "text": text}
        for i, (_, text) in enumerate(TURNS)
    ]
    rows.append(
        {
            "entry_id": f"{project}/secret",
            "project_id": project,
            "author": owner,
            "intimacy": "private",
            "text": "The grey greyhound Pepper sleeps on my bed every night.",
        }
    )
    assert not ingest(rows).errors
    cache = exact_scan.MatrixCache()
    vector = np.asarray(embedder.embed_query("Where does the greyhound Pepper sleep?"), dtype=np.float32)

    def both(user: str) -> list[list[str]]:
        viewer = Viewer(user_id=user)
        params = exact_scan.scope_params(embedder, viewer, [project])
        return [
            [e for e, _ in cache.search(graph, params, vector)],
            [e for e, _ in cache.search_cached_visible(graph, params, viewer, vector)],
        ]

    for found in both(owner):
        assert found[0] == f"{project}/secret"
    for found in both(reader):
        assert f"{project}/secret" not in found and len(found) == len(TURNS)
    rebuilds = cache.rebuilds
    assert not ingest(
        [
            {
                "entry_id": f"{project}/new",
                "project_id": project,
                "author": owner,
                "intimacy": "circle",
                "text": "Pepper the greyhound now sleeps in the hallway, not on the bed.",
            }
        ]
    ).errors
    for found in both(reader):
        assert found[0] == f"{project}/new", found
        assert f"{project}/secret" not in found
    assert cache.rebuilds == rebuilds + 1
    # The measurement itself: the ways exact by construction agree with the Cypher exact answer (the owner sees all).
    scan = exact_scan.measure(
        graph,
        embedder,
        settings,
        Viewer(user_id=owner),
        [project],
        ["Where does Pepper sleep?", "Who ran a marathon?"],
        index_path=False,
    )
    assert scan["chunks"] == len(TURNS) + 2 and scan["queries"] == 2
    for way in ("numpy", "cached_matrix", "cached_visible"):
        assert scan[way]["recall@10_vs_exact"] == 1.0, way
