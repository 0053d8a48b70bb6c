"""Searches on a server that has just forgotten its plans: parameters sent as one map against one per value.

    .venv/bin/python bench/bench_plan_cache.py [--set diary-es|locomo] [--data DIR] [--queries 80] [--rounds 2]

Ingests the set (the evaluation's loader and embedder), then alternates three arms in this process, each round
starting with Neo4j's plan caches emptied (`db.clearQueryCaches()`) and a new database handle (nothing kept
about the data, as in a new service process; loaded models stay): `one map` sends every statement's parameters as
one map (graph/plan_cache.py, the service's way), `per value` sends them one by one, so Neo4j plans a statement
again for each new combination of parameter types and size buckets; `one map, warm start` runs the service's warm
start (api/warmup.py) first, as `memora serve` does before `/ready`. Each round runs the set's first `--queries`
questions through the search door as the evaluation user, the result and query-vector caches off, and prints the
first search, the percentiles of the rest, and how many searches took over a second.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import graph.db as db  # noqa: E402
from api.cli import connect  # noqa: E402
from api.evaluation import ask  # noqa: E402
from api.services import Services  # noqa: E402
from api.warmup import warm  # noqa: E402
from bench.percentiles import nearest_rank  # noqa: E402
from bench.run_evals import ingest_set, one_set_files, one_set_parser  # noqa: E402
from graph.db import Graph  # noqa: E402
from graph.plan_cache import one_plan  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from inference.embedders import get_embedder  # noqa: E402
from queries.search.request import SearchOptions  # noqa: E402


def per_value(statement: str, params: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    return statement, dict(params or {})


ARMS = {"one map": one_plan, "per value": per_value, "one map, warm start": one_plan}


def main() -> int:
    args = one_set_parser(__doc__.split("\n\n")[0], queries=80).parse_args()
    files = one_set_files(args)
    if files is None:
        return 2
    # The result and query-vector caches off: every search is a whole search.
    settings = get_settings().model_copy(update={"search_cache_size": 0, "query_embed_cache_size": 0})
    base = connect(settings)
    embedder = get_embedder(settings)
    queries = ingest_set(base, embedder, files)[: args.queries]
    rounds: dict[str, list[dict[str, float]]] = {arm: [] for arm in ARMS}
    for n in range(args.rounds):
        for arm, send in ARMS.items():
            db.one_plan = send  # type: ignore[assignment]
            graph = Graph(base.driver, base.database)
            with graph.session() as session:
                session.run("CALL db.clearQueryCaches()").consume()
            if arm.endswith("warm start"):
                warm(Services(settings, graph=graph, embedder=embedder))
            times = []
            for q in queries:
                started = time.perf_counter()
                ask(graph, embedder, settings, q, SearchOptions(k=30, now=q.now))
                times.append((time.perf_counter() - started) * 1000)
            rest = times[1:]
            row = {
                "first_ms": times[0],
                "p50_ms": statistics.median(rest),
                "p95_ms": nearest_rank(rest, 0.95),
                "p99_ms": nearest_rank(rest, 0.99),
                "max_ms": max(rest),
                "over_1s": float(sum(t > 1000 for t in rest)),
                "total_s": sum(times) / 1000,
            }
            rounds[arm].append(row)
            shown = ", ".join(f"{k} {v:.0f}" for k, v in row.items())
            print(f"round {n + 1} {arm}: {shown}", flush=True)
    db.one_plan = one_plan  # type: ignore[assignment]
    print(f"\n{args.set}, {len(queries)} searches a round, medians over {args.rounds} rounds:\n")
    print("| parameters | first search ms | p50 ms | p95 ms | p99 ms | max ms | searches over 1 s | round s |")
    print("|---|---|---|---|---|---|---|---|")
    for arm, rows in rounds.items():
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        print(
            f"| {arm} | {med['first_ms']:.0f} | {med['p50_ms']:.0f} | {med['p95_ms']:.0f} | {med['p99_ms']:.0f} | "
            f"{med['max_ms']:.0f} | {med['over_1s']:.0f} | {med['total_s']:.1f} |"
        )
    if args.json:
        machine = f"{platform.node()} {platform.machine()} {os.cpu_count()} cpus"
        args.json.write_text(json.dumps({"set": args.set, "machine": machine, "rounds": rounds}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
