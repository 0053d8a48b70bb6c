"""The search door's answers to every dev-set question, written to a file, so that a change meant to be faster and
nothing else can be shown to return the same results.

Usage: .venv/bin/python -m bench.door_results OUT.json [--data DIR] [--only SET] [--max-queries N]
       .venv/bin/python -m bench.door_results --compare A.json B.json

Per question of each set (loaded like `make eval`), under both fusions (learned, rrf) with k = 30, as the evaluation
user, result cache and query-embedding cache off: the ranked entry ids and their scores. Run it once per commit (in
two worktrees, on the same Neo4j) and `--compare` the two files: it prints how many searches differ and exits 1 if
any does. Scores are compared exactly: the point is to show the same arithmetic, not a close one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from api.cli import connect
from api.evaluation import ask
from bench.run_evals import dataset_files, every_nth, ingest_set
from graph.settings import get_settings
from inference.embedders import get_embedder
from queries.search import result_cache
from queries.search.request import SearchOptions

FUSIONS = ("learned", "rrf")


def dump(out: Path, data: Path | None, only: list[str] | None, most: int) -> int:
    settings = get_settings().model_copy(update={"query_embed_cache_size": 0, "search_cache_size": 0})
    graph = connect(settings)
    embedder = get_embedder(settings)
    found: dict[str, Any] = {}
    for name, files in dataset_files(data).items():
        if (only and name not in only) or not (files[0].is_file() and files[1].is_file()):
            continue
        questions = every_nth(ingest_set(graph, embedder, files), most)
        for fusion in FUSIONS:
            for q in questions:
                result_cache.clear(graph)
                r = ask(graph, embedder, settings, q, SearchOptions(k=30, now=q.now, fusion=fusion))
                found[f"{name}|{fusion}|{q.id}"] = [[x.entry_id, x.score] for x in r.results]
        print(f"{name}: {len(questions)} questions x {len(FUSIONS)} fusions", file=sys.stderr)
    out.write_text(json.dumps(found, indent=0))
    return 0


def compare(a: Path, b: Path) -> int:
    first, second = json.loads(a.read_text()), json.loads(b.read_text())
    differ = sorted(k for k in first.keys() | second.keys() if first.get(k) != second.get(k))
    print(f"{len(first.keys() | second.keys())} searches, {len(differ)} differ")
    for k in differ[:10]:
        print(f"  {k}: {(first.get(k) or [])[:3]} / {(second.get(k) or [])[:3]}")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", nargs="?", type=Path, help="where to write the results (JSON)")
    parser.add_argument(
        "--data",
        type=Path,
        default=os.environ.get("MEMORA_BENCH_DATA") or None,
        help="folder with locomo-dev/ and xquad-es-dev/ (default: $MEMORA_BENCH_DATA)",
    )
    parser.add_argument("--only", action="append", help="run only this set (repeatable)")
    parser.add_argument("--max-queries", type=int, default=0, help="per set, every n-th question up to this many")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"), help="compare two result files")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("give OUT, or --compare A B")
    return dump(args.out, args.data, args.only, args.max_queries)


if __name__ == "__main__":
    sys.exit(main())
