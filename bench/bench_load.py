"""Load test: searches per second and latency as clients are added, on synthetic projects of given sizes.

    .venv/bin/python bench/bench_load.py [--sizes 10000] [--clients 1,2,4,8] [--calls 400] [--json OUT] [--plot PNG]
    make bench-load [LOAD_ARGS='--sizes 10000,100000']

For each size, one synthetic project (`bench/synth.py`, seed 1, hash embedder: `bench/scale.py` explains why) is
ingested, then served by `bench/scale_server.py` (the app of `memora serve`, its warm start included; workers,
result and query-vector caches off). For each client count, that many concurrent clients make `--calls` searches in
all (half content questions, half naming a person, a place and a year) as the project's owner; the step prints
p50 / p95 / p99, searches per second and errors, and the ratio of its searches per second to one client's. The
project is deleted afterwards unless `--keep`. Not part of `make test`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api import auth  # noqa: E402
from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.scale import drop_project, ingest, scale_server, set_up  # noqa: E402
from bench.scale_load import load  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.schema import ensure_vector_index  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402


def run_size(size: int, clients: list[int], calls: int, keep: bool, log: Path) -> dict[str, Any]:
    settings = get_settings()
    graph = get_graph(settings)
    prefix = f"bench-load-{uuid.uuid4().hex[:6]}-"
    project = f"{prefix}synth{size}"
    synth = generate(size, 1, project, user_prefix=prefix)
    users = [m["user_id"] for m in synth.members]
    embedder = CheckedEmbedder(HashEmbedder())
    ensure_vector_index(graph, embedder.slug, embedder.dimensions)  # the index path, past the exact-scan threshold
    try:
        set_up(graph, project, synth)
        seconds, report = ingest(graph, embedder, synth.entries, project, embed=True)
        print(f"[{size}] ingested in {seconds:.0f} s", file=sys.stderr, flush=True)
        searches = [
            {"q": q["question"], "project_id": project, "k": 10}
            for q in synth.queries
            if q["category"] in ("content", "filtered")
        ]
        token = auth.issue(settings, users[0])
        steps: list[dict[str, Any]] = []
        with scale_server("hash", log) as (url, _):
            load(url, token, searches[:4], clients=1, seconds=60, max_calls=4)  # connections
            for n in clients:
                found = load(url, token, searches, clients=n, seconds=600, max_calls=max(1, calls // n), grace=120)
                step = {"clients": n, **found.summary()}
                step["vs_one_client"] = round(step["qps"] / steps[0]["qps"], 2) if steps and step["qps"] else 1.0
                steps.append(step)
                print(
                    f"[{size}] {n} clients: {step['qps']} searches/s ({step['vs_one_client']}x), "
                    f"p50 {step['p50_ms']} p95 {step['p95_ms']} p99 {step['p99_ms']} ms, errors {step['errors']}, "
                    f"client CPU {step['client_cpu_ms_per_call']} ms a call",
                    file=sys.stderr,
                    flush=True,
                )
        return {"entries": size, "project": project, "steps": steps}
    finally:
        if not keep:
            drop_project(graph, project, users)


def plot(sizes: list[dict[str, Any]], path: Path) -> None:
    """Searches per second and p95 against clients, one line per size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (qps, p95) = plt.subplots(1, 2, figsize=(9, 4))
    for size in sizes:
        x = [s["clients"] for s in size["steps"]]
        qps.plot(x, [s["qps"] for s in size["steps"]], marker="o", label=f"{size['entries']:,} entries")
        p95.plot(x, [s["p95_ms"] for s in size["steps"]], marker="o", label=f"{size['entries']:,} entries")
    qps.set(xlabel="clients", ylabel="searches/s", title="throughput")
    p95.set(xlabel="clients", ylabel="p95 ms", title="latency")
    for ax in (qps, p95):
        ax.set_xticks(x)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000")
    parser.add_argument("--clients", default="1,2,4,8")
    parser.add_argument("--calls", type=int, default=400, help="searches per step, shared by its clients")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--plot", type=Path, help="PNG of searches/s and p95 against clients (the `plot` extra)")
    parser.add_argument("--server-log", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "bench-load.log")
    args = parser.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
        clients = [int(c) for c in args.clients.split(",")]
    except ValueError:
        parser.error("--sizes and --clients take comma-separated whole numbers")
    if not sizes or min(sizes) < 1 or not clients or min(clients) < 1 or clients[0] != 1:
        parser.error("--sizes must be positive, and --clients must start with 1 (the baseline of the ratio)")
    out = {
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cpus",
        "sizes": [run_size(s, clients, args.calls, args.keep, args.server_log) for s in sizes],
    }
    for size in out["sizes"]:
        print(f"\n{size['entries']:,} entries:\n")
        print("| clients | searches/s | vs 1 client | p50 ms | p95 ms | p99 ms | errors |")
        print("|---|---|---|---|---|---|---|")
        for s in size["steps"]:
            print(
                f"| {s['clients']} | {s['qps']} | {s['vs_one_client']}× | {s['p50_ms']} | {s['p95_ms']} | "
                f"{s['p99_ms']} | {s['errors']} |"
            )
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    if args.plot:
        plot(out["sizes"], args.plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
