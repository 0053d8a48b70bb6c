"""Served A/B of service settings on a project `bench/scale.py --keep` left behind: the same searches through the
HTTP API, with the service started once per variant and round, variants alternated (and their order reversed every
other round) so that a machine drifting over the run does not favour one of them.

    .venv/bin/python bench/serve_ab.py --env "" --env OPENBLAS_NUM_THREADS=1 \\
                                       [--rounds 3] [--seconds 15] [--project ID] [--json OUT]

Each `--env` is one variant: comma-separated NAME=VALUE pairs added to the service's environment (`""` for none).
Per variant and round: one client in turn for `--seconds`, then 8 concurrent clients for `--seconds`, as in
`bench/scale.py` (the synthetic content and filtered questions of seed 1, caches off). Printed and written: per
variant, the median over rounds of one client's p50 / p95, of the 8 clients' searches/s and p95, and of the CPU
time the service and the managed Neo4j spent per search during the 8 clients' phase; errors summed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api import auth  # noqa: E402
from bench.kept_project import kept_project  # noqa: E402
from bench.scale import neo4j_pid, scale_server  # noqa: E402
from bench.scale_load import cpu_seconds, load  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.settings import get_settings  # noqa: E402


def parse_env(text: str) -> dict[str, str]:
    pairs = [p.strip() for p in text.split(",") if p.strip()]
    bad = [p for p in pairs if "=" not in p or not p.split("=", 1)[0]]
    if bad:
        raise SystemExit(f"--env wants NAME=VALUE pairs, got {bad}")
    return dict(p.split("=", 1) for p in pairs)


def measure(
    url: str, token: str, searches: list[dict[str, Any]], seconds: float, pids: dict[str, int | None]
) -> dict[str, Any]:
    """Both phases; with 8 clients, also the CPU the service and Neo4j spent per answered search (of 2 cores here:
    where the throughput goes)."""
    load(url, token, searches[:4], clients=1, seconds=60, max_calls=4)  # warm-up: connections, kept view
    one = load(url, token, searches, clients=1, seconds=seconds).summary()
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    eight = load(url, token, searches, clients=8, seconds=seconds, grace=120).summary()
    cpu: dict[str, float] = {}
    for name, pid in pids.items():
        now, then = cpu_seconds(pid), before[name]
        if now is not None and then is not None:
            cpu[name] = round((now - then) * 1000 / max(eight["n"], 1), 1)
    return {
        "search_1": {k: one[k] for k in ("n", "p50_ms", "p95_ms", "errors", "server_stages_p50_ms")},
        "search_8": {**{k: eight[k] for k in ("n", "qps", "p95_ms", "errors")}, "cpu_ms_per_search": cpu},
    }


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    def med(phase: str, key: str) -> float:
        return round(statistics.median(r[phase][key] for r in runs), 2)

    cpu = {
        name: round(statistics.median(r["search_8"]["cpu_ms_per_search"][name] for r in runs), 1)
        for name in runs[0]["search_8"]["cpu_ms_per_search"]
        if all(name in r["search_8"]["cpu_ms_per_search"] for r in runs)
    }
    return {
        "rounds": len(runs),
        "search_1": {"p50_ms": med("search_1", "p50_ms"), "p95_ms": med("search_1", "p95_ms")},
        "search_8": {"qps": med("search_8", "qps"), "p95_ms": med("search_8", "p95_ms"), "cpu_ms_per_search": cpu},
        "errors": sum(r["search_1"]["errors"] + r["search_8"]["errors"] for r in runs),
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", required=True, help="one variant: NAME=VALUE[,NAME=VALUE]")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--project", help="default: the project with the most entries")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--server-log", default="serve-ab-server.log")
    args = parser.parse_args(argv)
    if len(args.env) < 2 or args.rounds < 1 or args.seconds <= 0:
        parser.error("two --env variants or more, --rounds ≥ 1 and --seconds > 0")
    variants = [parse_env(e) for e in args.env]
    settings = get_settings()
    graph = get_graph(settings)
    project, owner = kept_project(graph, args.project)
    token = auth.issue(settings, owner)
    neo4j = neo4j_pid(settings)
    questions = generate(60, 1, project).queries
    searches = [
        {"q": q["question"], "project_id": project, "k": 10}
        for category in ("content", "filtered")
        for q in questions
        if q["category"] == category
    ]
    runs: list[list[dict[str, Any]]] = [[] for _ in variants]
    for round_ in range(args.rounds):
        order = list(range(len(variants)))
        for v in order if round_ % 2 == 0 else order[::-1]:
            with scale_server("hash", Path(args.server_log), env=variants[v]) as (url, pid):
                runs[v].append(measure(url, token, searches, args.seconds, {"service": pid, "neo4j": neo4j}))
            r = runs[v][-1]
            print(
                f"round {round_ + 1} {args.env[v]!r}: p50 {r['search_1']['p50_ms']} ms, "
                f"8 clients {r['search_8']['qps']}/s",
                file=sys.stderr,
                flush=True,
            )
    out = {
        "project": project,
        "seconds": args.seconds,
        "variants": [{"env": args.env[v], **summarise(runs[v])} for v in range(len(variants))],
    }
    for v in out["variants"]:
        print(json.dumps({k: v[k] for k in ("env", "search_1", "search_8", "errors")}))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
