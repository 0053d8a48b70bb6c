"""Where one search's time goes, in process (no HTTP), on a project `bench/scale.py --keep` left behind.

    .venv/bin/python bench/search_stages.py [--project ID] [--rounds 2] [--json OUT]

Runs the synthetic questions of `bench/synth.py` (seed 1) as the project's owner through `hybrid_search`, search and
query-embedding caches off, `--rounds` times, and prints the median of each stage of `latency_ms` per category
(`content`: no name nor date, `filtered`: a person, a place and a year), from the second round on (the first warms
the per-viewer state a served search keeps). Channels run side by side: a stage collected after the dense channel
(fulltext, structured) reads at least as long as it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.kept_project import kept_project  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402
from queries.search.door import hybrid_search  # noqa: E402
from queries.search.request import Scope, SearchOptions  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", help="default: the project with the most entries")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    settings = get_settings().model_copy(update={"search_cache_size": 0, "query_embed_cache_size": 0})
    graph = get_graph(settings)
    project, owner = kept_project(graph, args.project)
    viewer = Viewer(user_id=owner)
    embedder = CheckedEmbedder(HashEmbedder())
    questions = generate(60, 1, project).queries
    out: dict[str, dict[str, float]] = {}
    for category in ("content", "filtered"):
        stages: dict[str, list[float]] = {}
        for round_ in range(args.rounds):
            for q in (q["question"] for q in questions if q["category"] == category):
                found = hybrid_search(
                    graph,
                    embedder,
                    settings,
                    viewer,
                    q,
                    Scope(project_id=project),
                    SearchOptions(k=10),
                    project_ids=[project],
                )
                if round_:
                    for stage, ms in found.latency_ms.items():
                        stages.setdefault(stage, []).append(ms)
        out[category] = {s: round(statistics.median(v), 1) for s, v in stages.items()}
        print(category, json.dumps(out[category]))
    if args.json:
        args.json.write_text(json.dumps({"project": project, "stages_p50_ms": out}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
