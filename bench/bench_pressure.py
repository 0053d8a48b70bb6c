"""Figures for docs/BENCHMARKS.md: what a long write costs its writer and everyone else, and what a
10,000-character query costs, in one process against the managed Neo4j.

    .venv/bin/python bench/bench_pressure.py [--json out.json]

1. A 200 KB chronicle acknowledged on commit (chunks pending) vs embedded before answering (`?wait=true`).
2. Search latency (all channels, a 9-word question) alone, then while a worker embeds that chronicle's passages:
   the query embedding has its own model instance and lock, so it must not queue behind them.
3. A 10,000-character query over the project holding the chronicle, against a 9-word one.
Everything runs in a throwaway project that is deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.percentiles import nearest_rank  # noqa: E402
from graph.members import set_member  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import get_embedder  # noqa: E402
from ingest.embedding_jobs import backfill  # noqa: E402
from ingest.pipeline import Ingestor  # noqa: E402
from ingest.records import parse_line  # noqa: E402
from queries.search.door import hybrid_search  # noqa: E402
from queries.search.request import Scope, SearchOptions  # noqa: E402

VOCAB = (
    "casa perro verano playa abuela cocina lluvia tren carta jardín hospital escuela mercado río montaña fiesta "
    "música libro coche ventana"
).split()
QUESTION = "qué pasó en la cocina de la abuela aquel verano"


def prose(words: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(VOCAB) for _ in range(words))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    args = parser.parse_args()
    from api.cli import connect

    settings = get_settings()
    graph = connect(settings)
    embedder = get_embedder(settings)
    project, user = f"bench-pressure-{uuid.uuid4().hex[:8]}", "bench-pressure-user"
    set_member(graph, project, user, "owner")
    out: dict[str, Any] = {}
    try:
        rows = [
            {"entry_id": f"{project}/e{i}", "project_id": project, "author": user, "text": prose(60, i)}
            for i in range(200)
        ]
        Ingestor(graph, embedder).ingest([(i, parse_line(i, json.dumps(r))) for i, r in enumerate(rows, 1)])
        chronicle = prose(30_000, 7)[:199_000]

        def write(entry_id: str, embed: bool) -> float:
            rec = {
                "entry_id": entry_id,
                "project_id": project,
                "author": user,
                "kind": "chronicle",
                "text": chronicle + " " + entry_id,
            }
            t = time.perf_counter()
            Ingestor(graph, embedder, embed=embed).ingest([(1, parse_line(1, json.dumps(rec)))])
            return time.perf_counter() - t

        ack = write(f"{project}/long-ack", embed=False)
        waited = write(f"{project}/long-wait", embed=True)
        out["write_200kb"] = {
            "ack_on_commit_s": round(ack, 2),
            "embed_first_s": round(waited, 2),
            "ratio": round(waited / ack, 1),
        }

        def search(q: str) -> float:
            t = time.perf_counter()
            hybrid_search(
                graph, embedder, settings, Viewer(user_id=user), q, Scope(project_id=project), SearchOptions(k=10)
            )
            return time.perf_counter() - t

        search(QUESTION)
        alone = [search(QUESTION) for _ in range(20)]
        done = threading.Event()
        embedded: dict[str, int] = {}

        def worker() -> None:
            embedded["chunks"] = backfill(graph, embedder, project_id=project).embedded
            done.set()

        thread = threading.Thread(target=worker)
        thread.start()
        during: list[float] = []
        while not done.is_set() and len(during) < 200:
            during.append(search(QUESTION))
        thread.join()
        out["search_while_embedding"] = {
            "alone_p50_ms": nearest_rank(alone, 0.5, scale=1000),
            "alone_p95_ms": nearest_rank(alone, 0.95, scale=1000),
            "during_p50_ms": nearest_rank(during, 0.5, scale=1000),
            "during_p95_ms": nearest_rank(during, 0.95, scale=1000),
            "p95_ratio": round(nearest_rank(during, 0.95, scale=1000) / nearest_rank(alone, 0.95, scale=1000), 2),
            "searches_during": len(during),
            "chunks_embedded_meanwhile": embedded.get("chunks", 0),
        }

        long_query = prose(2_000, 3)[:10_000]
        search(long_query)
        longs = [search(long_query) for _ in range(10)]
        shorts = [search(QUESTION) for _ in range(10)]
        out["query_10000_chars"] = {
            "p50_ms": nearest_rank(longs, 0.5, scale=1000),
            "max_ms": round(max(longs) * 1000, 1),
            "short_p50_ms": nearest_rank(shorts, 0.5, scale=1000),
            "ratio_p50": round(statistics.median(longs) / statistics.median(shorts), 2),
        }
    finally:
        graph.write("MATCH (n) WHERE n.project_id = $p OR (n:Project AND n.id = $p) DETACH DELETE n", {"p": project})
    print(json.dumps(out, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
