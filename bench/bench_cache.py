"""The search caches' effect, in one process on the diary-es set (bench/diary-es).

    MEMORA_HOME=... .venv/bin/python bench/bench_cache.py [--questions 66] [--stream 300] [--write-every 25]

Ingests the set into a throwaway project (deleted at the end) and runs its questions through `hybrid_search` as the
owner, in four ways:
  1. no cache: result cache off, query-embedding LRU off (every search embeds and runs every channel);
  2. embedding LRU only: the same questions again with the LRU warm (the result cache off);
  3. result cache: the same question asked twice, the second answered from the cache;
  4. a realistic stream: --stream searches drawn from the questions with Zipf-like weights (some asked often, most
     rarely), one of the owner's private entries edited every --write-every searches (each edit invalidates the
     owner's cached results), run once with the caches off and once on: hit rate and latency per search.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.percentiles import nearest_rank  # noqa: E402
from graph.db import Graph  # noqa: E402
from graph.members import set_member  # noqa: E402
from graph.settings import Settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402
from ingest.pipeline import Ingestor  # noqa: E402
from ingest.records import parse_line  # noqa: E402
from queries.search import query_vectors, result_cache  # noqa: E402
from queries.search.door import hybrid_search  # noqa: E402
from queries.search.request import Scope, SearchOptions  # noqa: E402

DATA = Path(__file__).resolve().parent / "diary-es"
CLEANUP = """
MATCH (n) WHERE n.project_id = $project OR (n:Project AND n.id = $project) OR (n:User AND n.id = $user)
DETACH DELETE n
"""


def summary(values: list[float]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(values), 1),
        "p50": nearest_rank(values, 0.5),
        "p95": nearest_rank(values, 0.95),
    }


def load(graph: Graph, embedder: CheckedEmbedder, project: str, owner: str) -> None:
    items = []
    for i, line in enumerate((DATA / "entries.jsonl").read_text(encoding="utf-8").splitlines(), start=1):
        row = json.loads(line)
        row["entry_id"] = f"{project}/{row['entry_id'].split('/', 1)[1]}"
        row["project_id"] = project
        items.append((i, parse_line(i, json.dumps(row, ensure_ascii=False))))
    report = Ingestor(graph, embedder).ingest(items)
    assert not report.errors, report.errors
    set_member(graph, project, owner, "owner")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=66, help="how many of the set's questions (phases 1-3)")
    parser.add_argument("--stream", type=int, default=300)
    parser.add_argument("--write-every", type=int, default=25)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a `timeout` still deletes the throwaway project
    from api.cli import connect
    from graph.settings import get_settings
    from ingest.embedding_jobs import active_embedder

    base = get_settings()
    graph = connect(base)
    embedder = active_embedder(graph, base)
    tag = uuid.uuid4().hex[:8]
    project, owner = f"bench-cache-{tag}", f"bench-cache-owner-{tag}"
    every = [json.loads(x) for x in (DATA / "queries.jsonl").read_text(encoding="utf-8").splitlines() if x]
    questions = every[: args.questions]
    viewer = Viewer(user_id=owner)
    off = base.model_copy(update={"search_cache_seconds": 0.0, "query_embed_cache_size": 0})
    lru_only = base.model_copy(update={"search_cache_seconds": 0.0, "query_embed_cache_size": 2048})
    on = base.model_copy(update={"search_cache_seconds": 300.0, "query_embed_cache_size": 2048})

    def search(settings: Settings, q: dict[str, Any]) -> float:
        started = time.perf_counter()
        hybrid_search(
            graph,
            embedder,
            settings,
            viewer,
            q["question"],
            Scope(project_id=project),
            SearchOptions(k=10, now=date.fromisoformat(q["now"])),
        )
        return (time.perf_counter() - started) * 1000

    def timed(settings: Settings, qs: list[dict[str, Any]]) -> list[float]:
        return [search(settings, q) for q in qs]

    try:
        load(graph, embedder, project, owner)
        timed(off, questions[:5])  # warm the driver, the model and Neo4j's page cache
        print("loaded", file=sys.stderr, flush=True)
        out: dict[str, Any] = {"questions": len(questions), "entries": 124}
        out["no_cache_ms"] = summary(timed(off, questions))
        query_vectors.clear(graph)
        timed(lru_only, questions)
        out["embedding_lru_only_ms"] = summary(timed(lru_only, questions))
        result_cache.clear(graph)
        timed(on, questions)
        out["result_cache_repeat_ms"] = summary(timed(on, questions))
        print("phases 1-3 done", out, file=sys.stderr, flush=True)
        out["stream"] = stream(args, every, off, on, search, graph, embedder, project, owner)
    finally:
        graph.write(CLEANUP, {"project": project, "user": owner})
    print(json.dumps(out, indent=2))
    return 0


def stream(
    args: argparse.Namespace,
    questions: list[dict[str, Any]],
    off: Settings,
    on: Settings,
    search: Callable[[Settings, dict[str, Any]], float],
    graph: Graph,
    embedder: CheckedEmbedder,
    project: str,
    owner: str,
) -> dict[str, Any]:
    rng = random.Random(args.seed)
    weights = [1 / (rank + 1) ** 1.1 for rank in range(len(questions))]
    order = rng.sample(questions, len(questions))
    picks = rng.choices(order, weights=weights, k=args.stream)
    results: dict[str, Any] = {
        "searches": args.stream,
        "write_every": args.write_every,
        "distinct_questions": len({q["query_id"] for q in picks}),
    }
    for name, settings in (("off", off), ("on", on)):
        query_vectors.clear(graph)
        result_cache.clear(graph)
        times = []
        for i, q in enumerate(picks, start=1):
            times.append(search(settings, q))
            if i % args.write_every == 0:  # an edit of one of the owner's entries: their cached results are stale
                row = {
                    "entry_id": f"{project}/bench-edit",
                    "project_id": project,
                    "author": owner,
                    "text": f"Nota de prueba número {i}.",
                    "intimacy": "private",
                }
                Ingestor(graph, embedder, overwrite=True).ingest([(1, parse_line(1, json.dumps(row)))])
        results[f"cache_{name}_ms"] = summary(times)
        print(f"stream, cache {name}: done", file=sys.stderr, flush=True)
        if name == "on":
            hits, misses = result_cache.kept_results(graph).stats.hits, result_cache.kept_results(graph).stats.misses
            results["result_hit_rate"] = round(hits / max(1, hits + misses), 3)
            e_hits, e_misses = (
                query_vectors.kept_vectors(graph).stats.hits,
                query_vectors.kept_vectors(graph).stats.misses,
            )
            results["embedding_hit_rate"] = round(e_hits / max(1, e_hits + e_misses), 3)
    return results


if __name__ == "__main__":
    sys.exit(main())
