"""The keyword statement's early stop, against the full sort it replaced, on a project `bench/scale.py --keep` left.

    .venv/bin/python bench/keyword_cut.py [--project ID]

For the synthetic content and constrained questions (seed 1), as the project's owner, both statements in turn: the
full sort (every visible hit of the index ordered by score and id, then the first 1,000) and today's (the first 1,000
visible hits in the index's own order). Prints each one's median time, how many questions kept the same top 10
after BM25, and the mean overlap of the top 50.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.search_stages import LARGEST, OWNER  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from queries import channels as ch  # noqa: E402
from queries.keyword import run_keyword  # noqa: E402
from queries.query_constraints import parse_query  # noqa: E402
from queries.search import Filters, _base_params, _lexicons  # noqa: E402

FULL_SORT = ch.FULLTEXT_IN_PROJECT.replace("WITH e, score LIMIT $pool",
                                           "WITH e, score ORDER BY score DESC, e.id LIMIT $pool")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", help="default: the project with the most entries")
    args = parser.parse_args()
    if FULL_SORT == ch.FULLTEXT_IN_PROJECT:
        raise SystemExit("the keyword statement changed shape: update FULL_SORT")
    graph = get_graph()
    project = args.project or graph.read(LARGEST)[0]["p"]
    viewer = Viewer(user_id=graph.read(OWNER, {"p": project})[0]["u"])
    lexicons = _lexicons(graph, [project], viewer)
    base = _base_params(viewer, [project], Filters(), lexicons)
    questions = generate(60, 1, project).queries
    for category in ("content", "filtered"):
        full, cut, same, overlap = [], [], 0, []
        for q in (q["question"] for q in questions if q["category"] == category):
            parsed = parse_query(graph, q, lexicons, [project], True, date.today(), None)
            params = {**base, **parsed.constraints.params(), "project_id": project}
            t = time.perf_counter()
            a = run_keyword(graph, FULL_SORT, ch.FULLTEXT_VISIBLE, params, parsed.text_for_search, 50)
            full.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            b = run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, parsed.text_for_search, 50)
            cut.append((time.perf_counter() - t) * 1000)
            same += [h.id for h in a[:10]] == [h.id for h in b[:10]]
            overlap.append(len({h.id for h in a} & {h.id for h in b}) / max(1, len(a)))
        print(f"{category}: {len(full)} questions, full sort p50 {statistics.median(full):.1f} ms, early stop p50 "
              f"{statistics.median(cut):.1f} ms, same top 10 {same}/{len(full)}, "
              f"top-50 overlap {statistics.mean(overlap):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
