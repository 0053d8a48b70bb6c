"""What counting a query word in its forms costs a search, on a project `bench/scale.py --keep` left.

    .venv/bin/python bench/bench_word_forms.py [--project ID] [--rounds N] [--json OUT]

The synthetic questions (seed 1, content and filtered), as the project's owner, caches off, each searched twice in
turn: with word forms (queries/search/word_forms.py, read by the ranker's coverage fact in the candidates' statement)
and with exact words only (`forms` swapped in this process for the word alone, which is what search did before).
Prints each one's p50 / p95 over every round and their ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.kept_project import kept_project  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402
from queries.search import word_forms  # noqa: E402
from queries.search.door import hybrid_search  # noqa: E402
from queries.search.request import Scope, SearchOptions  # noqa: E402

FORMS = word_forms.forms


def exact(word: str) -> tuple[str, ...]:
    return (word,)


def percentile(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", help="default: the project with the most entries")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    settings = get_settings().model_copy(update={"search_cache_seconds": 0.0})
    graph = get_graph(settings)
    project, owner = kept_project(graph, args.project)
    viewer = Viewer(user_id=owner)
    embedder = CheckedEmbedder(HashEmbedder())
    questions = [q["question"] for q in generate(60, 1, project).queries if q["category"] in ("content", "filtered")]
    modes: dict[str, Callable[[str], tuple[str, ...]]] = {"forms": FORMS, "exact": exact}
    took: dict[str, list[float]] = {m: [] for m in modes}
    opts = SearchOptions(k=10)

    def search(mode: str, q: str) -> None:
        word_forms.forms = modes[mode]  # type: ignore[assignment]
        t = time.perf_counter()
        hybrid_search(graph, embedder, settings, viewer, q, Scope(project_id=project), opts)
        took[mode].append((time.perf_counter() - t) * 1000)

    for q in questions:  # plan every statement shape once
        search("forms", q)
        search("exact", q)
    for m in modes:
        took[m].clear()
    for r in range(args.rounds):
        for q in questions:
            order = ("forms", "exact") if r % 2 == 0 else ("exact", "forms")
            for mode in order:
                search(mode, q)
    word_forms.forms = FORMS
    figures: dict[str, dict[str, float]] = {
        m: {
            "searches": float(len(took[m])),
            "p50_ms": round(statistics.median(took[m]), 1),
            "p95_ms": round(percentile(took[m], 0.95), 1),
        }
        for m in modes
    }
    ratio = round(statistics.median(took["forms"]) / statistics.median(took["exact"]), 3)
    for m, f in figures.items():
        print(f"{m}: {f['searches']:.0f} searches, p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms")
    print(f"forms / exact, p50: {ratio}")
    out = {**figures, "ratio_p50": ratio}
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
