"""What the `graph` channel adds: hybrid with and without it, same run, on bench/diary-es and LoCoMo dev.

Usage: .venv/bin/python -m bench.bench_graph_channel [--data DIR] [--only diary-es|locomo] [--skip-alone]
       [--json OUT]

Prints, per set, a table of the three configurations (hybrid, hybrid + graph, graph alone), the per-category
recall@10 / MRR@10 of hybrid with and without the channel, and the graph stage's own latency (p50/p95, measured by
wrapping the channel function in this process only). Quality comes from `api.evaluation.run_eval`, the code
behind `memora eval`. `--data DIR` (or MEMORA_BENCH_DATA) is a folder holding `locomo-dev/`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import queries.search.graph_channel as search_module
from api.cli import connect
from api.evaluation import run_eval
from bench.percentiles import nearest_rank
from bench.run_evals import dataset_files, load_set
from graph.settings import get_settings
from inference.embedders import get_embedder

HYBRID = ("dense", "fulltext", "structured")
CONFIGS: list[tuple[str, tuple[str, ...]]] = [
    ("hybrid", HYBRID),
    ("hybrid + graph", (*HYBRID, "graph")),
    ("graph alone", ("graph",)),
]


class Ticker:
    """Progress on stderr every 50 queries (a LoCoMo run takes minutes)."""

    def __init__(self, label: str, total: int) -> None:
        self.label, self.total, self.done = label, total, 0

    def __call__(self, n: int) -> None:
        self.done += n
        if self.done % 50 == 0:
            print(f"{self.label}: {self.done}/{self.total} queries", file=sys.stderr, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=os.environ.get("MEMORA_BENCH_DATA") or None)
    parser.add_argument("--only", choices=("diary-es", "locomo"))
    parser.add_argument("--json", help="write all results to this file")
    parser.add_argument("--skip-alone", action="store_true", help="skip the 'graph alone' configuration")
    args = parser.parse_args()
    settings = get_settings()
    graph = connect(settings)
    embedder = get_embedder(settings)
    stage: list[float] = []
    inner = search_module.run_graph

    def timed(*a: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return inner(*a, **kw)
        finally:
            stage.append((time.perf_counter() - t) * 1000)

    search_module.run_graph = timed
    everything: dict[str, Any] = {}
    sets = {
        name: files
        for name, files in dataset_files(args.data).items()
        if name in ("diary-es", "locomo") and files[0].is_file()
    }
    for name, files in sets.items():
        if args.only and name != args.only:
            continue
        qs = load_set(graph, embedder, name, files)
        for label, channels in CONFIGS:
            if args.skip_alone and label == "graph alone":
                continue
            stage.clear()
            r = run_eval(graph, embedder, settings, qs, channels, progress=Ticker(f"{name} / {label}", len(qs)))
            if "graph" in channels:
                r["graph_stage_ms"] = {
                    "p50": nearest_rank(stage, 0.5, digits=2),
                    "p95": nearest_rank(stage, 0.95, digits=2),
                }
            everything[f"{name}/{label}"] = r
            lat = r.get("latency_ms", {})
            print(
                f"| {label} | {r['recall@5']:.3f} | {r['recall@10']:.3f} | {r['recall@30']:.3f} | "
                f"{r['mrr@10']:.3f} | {r['ndcg@10']:.3f} | {lat.get('p50', 0):.0f} | {lat.get('p95', 0):.0f} |"
            )
            sys.stdout.flush()
        g = everything[f"{name}/hybrid + graph"]["graph_stage_ms"]
        print(f"\ngraph stage alone (within hybrid + graph): p50 {g['p50']:.0f} ms, p95 {g['p95']:.0f} ms")
        base, plus = everything[f"{name}/hybrid"], everything[f"{name}/hybrid + graph"]
        if base.get("by_category"):
            print("\n| category | n | R@10 hybrid | R@10 + graph | MRR@10 hybrid | MRR@10 + graph |")
            print("|---|---|---|---|---|---|")
            for cat, b in base["by_category"].items():
                p = plus["by_category"][cat]
                print(
                    f"| {cat} | {b['n_queries']} | {b['recall@10']:.3f} | {p['recall@10']:.3f} | "
                    f"{b['mrr@10']:.3f} | {p['mrr@10']:.3f} |"
                )
        sys.stdout.flush()
    if args.json:
        Path(args.json).write_text(json.dumps(everything, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
