"""Where one search's time goes, in process (no HTTP), on a project `bench/scale.py --keep` left behind.

    .venv/bin/python bench/search_stages.py [--project ID] [--rounds 2] [--json OUT]
    .venv/bin/python bench/search_stages.py --data DIR --set locomo [--max-queries 120] [--rounds 2]

Runs the synthetic questions of `bench/synth.py` (seed 1) as the project's owner through `hybrid_search`, search and
query-embedding caches off, `--rounds` times, and prints the median of each stage of `latency_ms` per category
(`content`: no name nor date, `filtered`: a person, a place and a year), from the second round on (the first warms
the per-viewer state a served search keeps). Channels run side by side: a stage collected after the dense channel
(fulltext, structured) reads at least as long as it. With `--data` and `--set`, a dev set's questions instead (every
n-th, at most `--max-queries`), on the projects `bench/run_evals.py` loaded, as the evaluation user with the active
model, k = 30, as `bench/peers.py` times the door.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.evaluation import ask, load_queries, namespace  # noqa: E402
from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.kept_project import kept_project  # noqa: E402
from bench.run_evals import EXTERNAL, dataset_files, every_nth  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402
from ingest.embedding_jobs import active_embedder  # noqa: E402
from queries.search.door import hybrid_search  # noqa: E402
from queries.search.request import Scope, SearchOptions, SearchResponse  # noqa: E402

Q = TypeVar("Q")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", help="default: the project with the most entries")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--data", type=Path, help="a folder of dev sets (see bench/run_evals.py)")
    parser.add_argument("--set", choices=EXTERNAL, help="with --data: the dev set whose questions are timed")
    parser.add_argument("--max-queries", type=int, default=120)
    args = parser.parse_args()
    if args.data is not None or args.set is not None:
        if args.data is None or args.set is None:
            parser.error("--data and --set go together")
        return dev_set(args.data, args.set, args.max_queries, args.rounds, args.json)
    settings = get_settings().model_copy(update={"search_cache_size": 0, "query_embed_cache_size": 0})
    graph = get_graph(settings)
    project, owner = kept_project(graph, args.project)
    viewer = Viewer(user_id=owner)
    embedder = CheckedEmbedder(HashEmbedder())
    questions = generate(60, 1, project).queries
    out: dict[str, dict[str, float]] = {}
    for category in ("content", "filtered"):
        asked = [q["question"] for q in questions if q["category"] == category]
        out[category] = stage_medians(
            lambda q: hybrid_search(
                graph,
                embedder,
                settings,
                viewer,
                q,
                Scope(project_id=project),
                SearchOptions(k=10),
                project_ids=[project],
            ),
            asked,
            args.rounds,
        )
        print(category, json.dumps(out[category]))
    if args.json:
        args.json.write_text(json.dumps({"project": project, "stages_p50_ms": out}, indent=2))
    return 0


def stage_medians(search: Callable[[Q], SearchResponse], questions: list[Q], rounds: int) -> dict[str, float]:
    """The median of each stage of `latency_ms` over every search of `questions`, `rounds` times, the first round
    left out (it warms the per-viewer state a served search keeps)."""
    stages: dict[str, list[float]] = {}
    for round_ in range(rounds):
        for q in questions:
            found = search(q)
            if round_:
                for stage, ms in found.latency_ms.items():
                    stages.setdefault(stage, []).append(ms)
    return {s: round(statistics.median(v), 1) for s, v in stages.items()}


def dev_set(data: Path, name: str, most: int, rounds: int, out: Path | None) -> int:
    settings = get_settings().model_copy(update={"search_cache_size": 0, "query_embed_cache_size": 0})
    graph = get_graph(settings)
    embedder = active_embedder(graph, settings)
    entries, queries, _ = dataset_files(data)[name]
    asked = every_nth(load_queries(queries, namespace(entries)), most)
    p50 = stage_medians(
        lambda q: ask(graph, embedder, settings, q, SearchOptions(k=30, now=q.now)),
        asked,
        rounds,
    )
    print(name, json.dumps(p50))
    if out:
        out.write_text(json.dumps({"set": name, "questions": len(asked), "stages_p50_ms": p50}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
