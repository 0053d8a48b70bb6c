"""What counting a query word in its forms costs a search, on a project `bench/scale.py --keep` left.

    .venv/bin/python bench/bench_word_forms.py [--project ID] [--rounds N] [--json OUT]

The synthetic questions (seed 1, content and filtered), as the project's owner, caches off, each searched twice in
turn: with word forms (queries/search/word_forms.py, read by the ranker's coverage fact in the candidates' statement)
and with exact words only (`forms` swapped in this process for the word alone, which is what search did before).
Prints each one's p50 / p95 over every round and their ratio.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.in_turns import in_turns, report  # noqa: E402
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
    forms: dict[str, Callable[[str], tuple[str, ...]]] = {"forms": FORMS, "exact": exact}
    opts = SearchOptions(k=10)

    def search(mode: str, q: str) -> None:
        word_forms.forms = forms[mode]  # type: ignore[assignment]
        hybrid_search(graph, embedder, settings, viewer, q, Scope(project_id=project), opts)

    modes = ("forms", "exact")
    took = in_turns(search, modes, questions, args.rounds, warm=questions)
    word_forms.forms = FORMS
    report(took, modes, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
