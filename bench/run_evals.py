"""Run `memora eval` on every dev set and configuration and print the BENCHMARKS.md tables.

Usage: .venv/bin/python bench/run_evals.py [--data DIR] [--only locomo|realtalk|xquad-es|xquad-en|diary-es]
[--json OUT]

`bench/diary-es` ships with the repository and always runs. The other sets are public datasets this repository does
not redistribute: they are read from `--data DIR` (or `MEMORA_BENCH_DATA`), a folder holding `locomo-dev/`,
`realtalk-dev/` and `xquad-es-dev/`; the sets absent there are named and skipped. The conversation sets (LoCoMo,
REALTALK) also score period summaries against their `events.jsonl`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, TypeVar

from api.cli import connect
from api.evaluation import EvalQuery, add_entities, ingest_dataset, load_queries, namespace, run_eval
from api.summary_evaluation import run_summary_eval
from graph.db import Graph
from graph.embeddings import get_state
from graph.settings import REPO_ROOT, Settings, get_settings
from inference.embedders import CheckedEmbedder, get_embedder

DIARY = REPO_ROOT / "bench" / "diary-es"
T = TypeVar("T")


def dataset_files(data: Path | None) -> dict[str, tuple[Path, Path, Path | None]]:
    """Every set by name; the external ones under `data` (which may be absent)."""
    sets: dict[str, tuple[Path, Path, Path | None]] = {
        "diary-es": (DIARY / "entries.jsonl", DIARY / "queries.jsonl", DIARY / "entities.json")
    }
    if data is not None:
        sets |= {
            "locomo": (data / "locomo-dev" / "entries.jsonl", data / "locomo-dev" / "queries.jsonl", None),
            "realtalk": (data / "realtalk-dev" / "entries.jsonl", data / "realtalk-dev" / "queries.jsonl", None),
            "xquad-es": (data / "xquad-es-dev" / "entries.jsonl", data / "xquad-es-dev" / "queries.jsonl", None),
            "xquad-en": (data / "xquad-es-dev" / "entries_en.jsonl", data / "xquad-es-dev" / "queries.jsonl", None),
        }
    return sets


EXTERNAL = ("locomo", "realtalk", "xquad-es", "xquad-en")
# The sets whose sessions have reference life events (`events.jsonl` beside their entries) for the summaries eval.
WITH_EVENTS = ("locomo", "realtalk")


def every_nth(questions: list[T], most: int) -> list[T]:
    """Every n-th question, at most `most` of them (all when `most` is 0): a shorter run still spans the set."""
    return questions[:: max(1, len(questions) // most)][:most] if most else questions


def one_set_parser(description: str, queries: int) -> argparse.ArgumentParser:
    """The arguments of a benchmark that runs one dev set's questions in rounds: --set, --data, --queries, --rounds,
    --json (bench/bench_plan_cache.py, bench/bench_warm_start.py)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--set", default="diary-es", choices=("diary-es", "locomo", "realtalk", "xquad-es"))
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


STEADY_POLL_SECONDS = 5.0
STEADY_MAX_WAIT_SECONDS = 1800.0


def steady_model(graph: Graph) -> str | None:
    """The active model's slug when no model migration is under way, else None. Another process on the same database
    (a test, `memora embeddings`) may start one: while it lasts search also asks the target model (`dense_next`)
    or, once switched, another model altogether, neither of which is what a dev figure measures."""
    state = get_state(graph)
    if state is None:
        return ""
    return state.active_slug if state.target is None else None


def wait_steady(graph: Graph, settings: Settings, model: str | None = None) -> str:
    """Block until no migration is under way (and, given `model`, that model is active again), then for as long as a
    search may keep its copy of the state; return the active model's slug."""
    polls = 0
    while (found := steady_model(graph)) is None or (model is not None and found != model):
        if polls == 0:
            print("a model migration is under way on this database: waiting for it to end", file=sys.stderr)
        if polls * STEADY_POLL_SECONDS >= STEADY_MAX_WAIT_SECONDS:
            raise SystemExit(f"error: a model migration lasted over {STEADY_MAX_WAIT_SECONDS:.0f} s; figures not taken")
        time.sleep(STEADY_POLL_SECONDS)
        polls += 1
    if polls:
        time.sleep(settings.state_cache_seconds + 0.5)
    return found


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
        help="folder with locomo-dev/, realtalk-dev/ and xquad-es-dev/ (default: $MEMORA_BENCH_DATA)",
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
            model = wait_steady(graph, settings)
            r = run_eval(graph, embedder, settings, qs, channels, understanding=understanding)
            while steady_model(graph) != model:  # a migration was under way at its end: wait, then run it again
                model = wait_steady(graph, settings, model)
                r = run_eval(graph, embedder, settings, qs, channels, understanding=understanding)
            everything[f"{name}/{label}"] = r
            lat = r.get("latency_ms", {})
            print(
                f"| {label} | {r['recall@5']:.3f} | {r['recall@10']:.3f} | {r['recall@30']:.3f} | "
                f"{r['mrr@10']:.3f} | {r['ndcg@10']:.3f} | {lat.get('p50', 0):.0f} | {lat.get('p95', 0):.0f} |"
            )
            sys.stdout.flush()
        for label, _, _ in CONFIGS:
            cats = everything[f"{name}/{label}"].get("by_category")
            if cats:
                print(
                    f"\n{label}, R@5 / R@10 / MRR@10 by category: "
                    + ", ".join(
                        f"{c} {v['recall@5']:.3f} / {v['recall@10']:.3f} / {v['mrr@10']:.3f} (n={v['n_queries']})"
                        for c, v in cats.items()
                    )
                )
    for name in WITH_EVENTS:
        if name not in sets or args.only not in (None, name):
            continue
        events = sets[name][0].with_name("events.jsonl")
        if not events.is_file():
            continue
        print(f"\n### {name} summaries ({sum(1 for line in events.open(encoding='utf-8') if line.strip())} sessions)\n")
        print(SUMMARY_HEAD)
        for budget in SUMMARY_BUDGETS:
            r = run_summary_eval(graph, embedder, sets[name][0], events, budget)
            everything[f"{name}/summaries@{budget}"] = {k: v for k, v in r.items() if k != "sessions"}
            per = ", ".join(f"{p} {v['coverage']:.3f}/{v['lead_coverage']:.3f}" for p, v in r["per_project"].items())
            projects = ", ".join(f"{p['project_id']} {p['coverage']:.3f}" for p in r["project_summaries"])
            print(f"| {budget} | {r['coverage']:.3f} | {r['lead_coverage']:.3f} | {per} | {projects} |")
            sys.stdout.flush()
    if args.json:
        Path(args.json).write_text(json.dumps(everything, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
