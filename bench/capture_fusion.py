"""Run every dev set's queries once and cache what fusion needs, so fusion is trained and compared offline.

Usage: .venv/bin/python -m bench.capture_fusion --data /path/to/bench [--only SET] [--cache DIR] [--fusion rrf]

Per set (every set `bench/run_evals.py` knows that `--data` holds: diary-es, LoCoMo, REALTALK, XQuAD both ways), into
DIR (default /tmp/memora-fusion-cache): `<set>.jsonl`, one line per query with the ranker's raw record (channel
lists, candidate facts, today's RRF weights), the relevant ids, category and CV group, and the live metrics of three
configurations run in this same pass: hybrid + understanding with `--fusion` (default `rrf`, today's fusion), BM25
only and dense only (no understanding, as in docs/BENCHMARKS.md); `<set>.vectors.npz`, the entries' unit mean chunk
vectors (for MMR offline). `bench/train_ranker.py` reads them. A query is taken again when a model migration (another
process on the same database) overlapped it: the target model's channel is not part of the search being trained.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from api.cli import connect
from api.evaluation import EVAL_USER, EvalQuery, _metrics
from bench.run_evals import dataset_files, ingest_set, steady_model, wait_steady
from graph.db import Graph
from graph.schema import vector_property
from graph.settings import Settings, get_settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.embedding_jobs import active_embedder
from queries.search.door import hybrid_search
from queries.search.mmr import entry_vectors
from queries.search.request import Scope, SearchOptions

SINGLE = {"fulltext": ("fulltext",), "dense": ("dense",)}
MIGRATION_ONLY = {"dense_next"}  # a channel that runs only while a model migration is under way
ALL_ENTRY_IDS = "MATCH (e:Entry) WHERE e.project_id IN $projects RETURN e.id AS id"


def cv_group(raw: dict[str, Any]) -> str:
    """The unit cross-validation keeps together: an article (XQuAD), else the project (a LoCoMo conversation, a
    REALTALK chat: its questions reach back over all its sessions); a single-project set without articles (the
    diary) is split by query."""
    if raw.get("title"):
        return f"article:{raw['title']}"
    if raw["project_id"] == "diary-es":
        return f"query:{raw['query_id']}"
    return f"project:{raw['project_id']}"


def capture_one(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, viewer: Viewer, q: EvalQuery, fusion: str
) -> dict[str, Any]:
    """One query's raw record and the live metrics of the three configurations."""
    scope = Scope(project_id=q.project_id)
    sink: list[dict[str, Any]] = []
    opts = SearchOptions(k=30, understand=True, now=q.now, fusion=fusion, capture=sink)
    live = hybrid_search(graph, embedder, settings, viewer, q.question, scope, opts, [q.project_id])
    line: dict[str, Any] = {
        "category": q.category,
        "relevant": sorted(q.relevant),
        "record": sink[0] if sink else None,
        "live": {fusion: _metrics([r.entry_id for r in live.results], q.relevant)},
    }
    for label, channels in SINGLE.items():
        o = SearchOptions(k=30, channels=channels, understand=False, now=q.now, fusion="rrf")
        r = hybrid_search(graph, embedder, settings, viewer, q.question, scope, o, [q.project_id])
        line["live"][label] = _metrics([x.entry_id for x in r.results], q.relevant)
    return line


def capture(name: str, files: tuple[Path, Path, Path | None], cache: Path, fusion: str) -> None:
    settings = get_settings()
    graph = connect(settings)
    model = wait_steady(graph, settings)
    embedder = active_embedder(graph, settings)
    queries = files[1]
    qs = ingest_set(graph, embedder, files)
    model = wait_steady(graph, settings)  # a new database has no model until its first entries are embedded
    raws = {r["query_id"]: r for r in map(json.loads, queries.open(encoding="utf-8"))}
    viewer = Viewer(user_id=EVAL_USER)
    t0 = time.perf_counter()
    with (cache / f"{name}.jsonl").open("w", encoding="utf-8") as out:
        for n, q in enumerate(qs, start=1):
            model = wait_steady(graph, settings, model)
            line = capture_one(graph, embedder, settings, viewer, q, fusion)
            while steady_model(graph) != model or MIGRATION_ONLY & set((line["record"] or {}).get("channels", {})):
                model = wait_steady(graph, settings, model)  # taken during a migration: take it again
                line = capture_one(graph, embedder, settings, viewer, q, fusion)
            line = {"set": name, "qid": q.id, "group": cv_group(raws[q.id]), **line}
            out.write(json.dumps(line, default=str) + "\n")
            if n % 50 == 0:
                print(f"{name}: {n}/{len(qs)} queries, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    projects = sorted({q.project_id for q in qs})
    ids = [r["id"] for r in graph.read(ALL_ENTRY_IDS, {"projects": projects})]
    vectors = entry_vectors(graph, ids, vector_property(embedder.slug))
    np.savez_compressed(
        cache / f"{name}.vectors.npz", ids=np.array(list(vectors)), vectors=np.array(list(vectors.values()))
    )
    print(f"{name}: {len(qs)} queries cached in {time.perf_counter() - t0:.0f} s", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=os.environ.get("MEMORA_BENCH_DATA") or None)
    parser.add_argument("--only", action="append", help="a set name (repeatable)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/memora-fusion-cache"))
    parser.add_argument(
        "--fusion",
        choices=("rrf", "learned"),
        default="rrf",
        help="the hybrid configuration run live beside the capture",
    )
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    sets = {n: f for n, f in dataset_files(args.data).items() if f[0].is_file() and f[1].is_file()}
    for name, files in sets.items():
        if args.only and name not in args.only:
            continue
        capture(name, files, args.cache, args.fusion)
    return 0


if __name__ == "__main__":
    sys.exit(main())
