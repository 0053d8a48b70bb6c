"""The first searches of a new `memora serve`, with and without its warm start, on a server that forgot its plans.

    .venv/bin/python bench/bench_warm_start.py [--set diary-es|locomo] [--data DIR] [--queries 30] [--rounds 2]

Ingests the set (the evaluation's loader) and logs one search by the evaluation user in the project of the first
question (the service was used before it restarted), then per round and arm empties Neo4j's plan caches
(`db.clearQueryCaches()`), starts `memora serve` from this checkout with the warm start on (listing the latest
searchers' views, or with `MEMORA_WARM_VIEWS=0` none) or off (result and query-vector caches off), waits for
`/ready`, and sends the set's first `--queries` questions through `POST /v1/search` one after another as the
evaluation user. Prints the time to ready, the first search, the p50 of the others, and the first search over that
p50 (the target: at most 3×).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.auth import issue  # noqa: E402
from api.cli import connect  # noqa: E402
from api.evaluation import EVAL_USER  # noqa: E402
from bench.run_evals import ingest_set, one_set_files, one_set_parser  # noqa: E402
from bench.serving import served_by_memora  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import get_embedder  # noqa: E402
from queries.search.door import hybrid_search  # noqa: E402
from queries.search.request import Scope, SearchOptions  # noqa: E402
from queries.telemetry import search_log  # noqa: E402

ARMS = {
    "warm start": {"MEMORA_WARM_START": "true"},
    "warm start, no views": {"MEMORA_WARM_START": "true", "MEMORA_WARM_VIEWS": "0"},
    "no warm start": {"MEMORA_WARM_START": "false"},
}


def main() -> int:
    args = one_set_parser(__doc__.split("\n\n")[0], queries=30).parse_args()
    files = one_set_files(args)
    if files is None:
        return 2
    settings = get_settings()
    graph = connect(settings)
    embedder = get_embedder(settings)
    queries = ingest_set(graph, embedder, files)[: args.queries]
    before, project = Viewer(user_id=EVAL_USER), Scope(project_id=queries[0].project_id)
    earlier = hybrid_search(graph, embedder, settings, before, queries[-1].question, project, SearchOptions())
    search_log.record(graph, settings, before, queries[-1].question, [project.project_id], earlier, "none", sample=1.0)
    headers = {"Authorization": f"Bearer {issue(settings, EVAL_USER)}"}
    env = {"MEMORA_SEARCH_CACHE_SIZE": "0", "MEMORA_QUERY_EMBED_CACHE_SIZE": "0", "MEMORA_EMBED_WORKER": "false"}
    rows: dict[str, list[dict[str, float]]] = {arm: [] for arm in ARMS}
    log = Path(os.environ.get("TMPDIR", "/tmp")) / "bench_warm_start.log"
    for n in range(args.rounds):
        for arm, arm_env in ARMS.items():
            with graph.session() as session:
                session.run("CALL db.clearQueryCaches()").consume()
            started = time.perf_counter()
            with (
                served_by_memora(log, {**env, **arm_env}) as url,
                httpx.Client(base_url=url, headers=headers, timeout=120) as http,
            ):
                ready_s = time.perf_counter() - started
                times = []
                for q in queries:
                    t = time.perf_counter()
                    answer = http.post("/v1/search", json={"q": q.question, "project_id": q.project_id, "k": 10})
                    answer.raise_for_status()
                    times.append((time.perf_counter() - t) * 1000)
            p50 = statistics.median(times[1:])
            row = {"ready_s": ready_s, "first_ms": times[0], "p50_ms": p50, "ratio": times[0] / p50}
            rows[arm].append(row)
            print(f"round {n + 1} {arm}: " + ", ".join(f"{k} {v:.1f}" for k, v in row.items()), flush=True)
    print(f"\n{args.set}, {len(queries)} searches after /ready, medians over {args.rounds} rounds:\n")
    print("| serve | to /ready s | first search ms | p50 of the rest ms | first / p50 |\n|---|---|---|---|---|")
    for arm, found in rows.items():
        med = {k: statistics.median(r[k] for r in found) for k in found[0]}
        print(f"| {arm} | {med['ready_s']:.1f} | {med['first_ms']:.0f} | {med['p50_ms']:.0f} | {med['ratio']:.1f}× |")
    if args.json:
        args.json.write_text(json.dumps({"set": args.set, "rounds": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
