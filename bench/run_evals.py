"""Run `memora eval` on every dev set and configuration and print the BENCHMARKS.md tables.

Usage: .venv/bin/python bench/run_evals.py [--data DIR] [--only locomo|xquad-es|xquad-en|diary-es] [--json OUT]

`bench/diary-es` ships with the repository and always runs. The other sets are public datasets this repository does
not redistribute: they are read from `--data DIR` (or `MEMORA_BENCH_DATA`), a folder holding `locomo-dev/` and
`xquad-es-dev/`; the sets absent there are named and skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

from api.cli import connect
from api.evaluation import EvalQuery, add_entities, ingest_dataset, load_queries, namespace, run_eval
from api.summary_evaluation import run_summary_eval
from graph.db import Graph
from graph.settings import REPO_ROOT, get_settings
from inference.embedders import CheckedEmbedder, get_embedder

DIARY = REPO_ROOT / "bench" / "diary-es"


def dataset_files(data: Path | None) -> dict[str, tuple[Path, Path, Path | None]]:
    """Every set by name; the external ones under `data` (which may be absent)."""
    sets: dict[str, tuple[Path, Path, Path | None]] = {
        "diary-es": (DIARY / "entries.jsonl", DIARY / "queries.jsonl", DIARY / "entities.json")
    }
    if data is not None:
        sets |= {
            "locomo": (data / "locomo-dev" / "entries.jsonl", data / "locomo-dev" / "queries.jsonl", None),
            "xquad-es": (data / "xquad-es-dev" / "entries.jsonl", data / "xquad-es-dev" / "queries.jsonl", None),
            "xquad-en": (data / "xquad-es-dev" / "entries_en.jsonl", data / "xquad-es-dev" / "queries.jsonl", None),
        }
    return sets


EXTERNAL = ("locomo", "xquad-es", "xquad-en")


def one_set_parser(description: str, queries: int) -> argparse.ArgumentParser:
    """The arguments of a benchmark that runs one dev set's questions in rounds: --set, --data, --queries, --rounds,
    --json (bench/bench_plan_cache.py, bench/bench_warm_start.py)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--set", default="diary-es", choices=("diary-es", "locomo", "xquad-es"))
    parser.add_argument("--data", type=Path, default=os.environ.get("MEMORA_BENCH_DATA") or None)
    parser.add_argument("--queries", type=int, default=queries)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    return parser


def one_set_files(args: argparse.Namespace) -> tuple[Path, Path, Path | None] | None:
    """The files of `--set`, or None after saying on stderr that the set needs --data."""
    files = dataset_files(args.data).get(args.set)
    if files is None or not files[0].is_file():
        print(f"error: the set {args.set} needs --data DIR (or MEMORA_BENCH_DATA)", file=sys.stderr)
        return None
    return files


SUMMARY_BUDGETS = (150, 300)
SUMMARY_HEAD = (
    "| words per session | coverage | lead | per conversation (coverage/lead) | project summary, 800 words |\n"
    "|---|---|---|---|---|"
)
TABLE_HEAD = (
    "| configuration | R@5 | R@10 | R@30 | MRR@10 | nDCG@10 | p50 ms | p95 ms |\n|---|---|---|---|---|---|---|---|"
)


def ingest_set(graph: Graph, embedder: CheckedEmbedder, files: tuple[Path, Path, Path | None]) -> list[EvalQuery]:
    """Ingest one dev set into its own namespace (with its entities) and return its queries."""
    entries, queries, entities = files
    prefix = namespace(entries)
    if entities:
        add_entities(graph, entities, prefix, entries)
    ingest_dataset(graph, embedder, entries, prefix)
    return load_queries(queries, prefix)


def load_set(
    graph: Graph, embedder: CheckedEmbedder, name: str, files: tuple[Path, Path, Path | None]
) -> list[EvalQuery]:
    """`ingest_set`, then print the set's table head (`make eval`'s output)."""
    qs = ingest_set(graph, embedder, files)
    print(f"\n### {name} ({len(qs)} queries)\n")
    print(TABLE_HEAD)
    return qs


CONFIGS: list[tuple[str, tuple[str, ...], bool]] = [
    ("BM25 only (fulltext)", ("fulltext",), False),
    ("dense only", ("dense",), False),
    ("hybrid, no understanding", ("dense", "fulltext", "structured"), False),
    ("hybrid + understanding", ("dense", "fulltext", "structured"), True),
]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--data",
        type=Path,
        default=os.environ.get("MEMORA_BENCH_DATA") or None,
        help="folder with locomo-dev/ and xquad-es-dev/ (default: $MEMORA_BENCH_DATA)",
    )
    parser.add_argument("--only", choices=sorted(("diary-es",) + EXTERNAL))
    parser.add_argument("--json", help="write all results to this file")
    args = parser.parse_args()
    sets = {
        name: files for name, files in dataset_files(args.data).items() if files[0].is_file() and files[1].is_file()
    }
    missing = [name for name in ("diary-es",) + EXTERNAL if name not in sets]
    where = f"under {args.data}" if args.data else "(no --data DIR or MEMORA_BENCH_DATA given)"
    if missing:
        print(f"absent, skipped {where}: {', '.join(missing)}", file=sys.stderr)
    if args.only and args.only not in sets:
        print(f"error: the set {args.only} is absent {where}", file=sys.stderr)
        return 2
    settings = get_settings()
    graph = connect(settings)
    embedder = get_embedder(settings)
    everything: dict[str, Any] = {"machine": f"{platform.node()} {platform.machine()} {platform.processor()}"}
    for name, files in sets.items():
        if args.only and name != args.only:
            continue
        qs = load_set(graph, embedder, name, files)
        for label, channels, understanding in CONFIGS:
            r = run_eval(graph, embedder, settings, qs, channels, understanding=understanding)
            everything[f"{name}/{label}"] = r
            lat = r.get("latency_ms", {})
            print(
                f"| {label} | {r['recall@5']:.3f} | {r['recall@10']:.3f} | {r['recall@30']:.3f} | "
                f"{r['mrr@10']:.3f} | {r['ndcg@10']:.3f} | {lat.get('p50', 0):.0f} | {lat.get('p95', 0):.0f} |"
            )
            sys.stdout.flush()
        for label in ("hybrid, no understanding", "hybrid + understanding"):
            cats = everything[f"{name}/{label}"].get("by_category")
            if cats:
                print(
                    f"\n{label}, recall@10 by category: "
                    + ", ".join(f"{c} {v['recall@10']:.3f} (n={v['n_queries']})" for c, v in cats.items())
                )
    events = args.data / "locomo-dev" / "events.jsonl" if args.data else None
    if events is not None and events.is_file() and "locomo" in sets and args.only in (None, "locomo"):
        print(f"\n{SUMMARY_HEAD}")
        for budget in SUMMARY_BUDGETS:
            r = run_summary_eval(graph, embedder, sets["locomo"][0], events, budget)
            everything[f"locomo/summaries@{budget}"] = {k: v for k, v in r.items() if k != "sessions"}
            per = ", ".join(f"{p} {v['coverage']:.3f}/{v['lead_coverage']:.3f}" for p, v in r["per_project"].items())
            projects = ", ".join(f"{p['project_id']} {p['coverage']:.3f}" for p in r["project_summaries"])
            print(f"| {budget} | {r['coverage']:.3f} | {r['lead_coverage']:.3f} | {per} | {projects} |")
    if args.json:
        Path(args.json).write_text(json.dumps(everything, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
