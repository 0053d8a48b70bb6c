"""The keyword statement's early stop against a full sort, and the kept view's candidates against the
index's for constrained questions, on a project `bench/scale.py --keep` left.

    .venv/bin/python bench/keyword_cut.py [--project ID] [--json OUT]

For the synthetic content and constrained questions (seed 1), as the project's owner, both statements in turn: the
full sort (every visible hit of the index ordered by score and id, then the first 1,000) and the served one (the first
1,000 visible hits in the index's own order). Prints each one's median time, how many questions kept the same top 10
after BM25, and the mean overlap of the top 50. Constrained questions are also run as a search runs them, from the
entries of the owner's kept view that meet them (queries/search/keyword_view.py; the view is listed once first, and that
listing is timed apart): its median, how many took that path, and how many ranked the same top 10 as the index.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.kept_project import kept_project  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.embeddings import stores_key  # noqa: E402
from graph.schema import vector_property  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402
from queries.search import channels as ch  # noqa: E402
from queries.search import keyword_view, visible_view  # noqa: E402
from queries.search.channel import ChannelAsk  # noqa: E402
from queries.search.door import _lexicons  # noqa: E402
from queries.search.keyword import run_keyword  # noqa: E402
from queries.search.keyword_channel import KeywordChannel  # noqa: E402
from queries.search.query_constraints import parse_query  # noqa: E402
from queries.search.request import Filters, SearchOptions  # noqa: E402
from queries.search.run import SearchRun  # noqa: E402
from queries.search.scope import SearchScope  # noqa: E402

FULL_SORT = ch.FULLTEXT_IN_PROJECT.replace(
    "WITH e, score LIMIT $pool", "WITH e, score ORDER BY score DESC, e.id LIMIT $pool"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", help="default: the project with the most entries")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if FULL_SORT == ch.FULLTEXT_IN_PROJECT:
        raise SystemExit("the keyword statement changed shape: update FULL_SORT")
    settings = get_settings()
    graph = get_graph(settings)
    project, owner = kept_project(graph, args.project)
    viewer = Viewer(user_id=owner)
    embedder = CheckedEmbedder(HashEmbedder())
    slug = embedder.slug
    lexicons = _lexicons(graph, [project], viewer)
    base = SearchScope.of(viewer, [project], Filters(), lexicons)
    t = time.perf_counter()
    prop = vector_property(slug)
    visible_view.view_for(graph, settings, viewer, {**base.params(), "prop": prop}, stores_key(slug), 0)
    out: dict[str, object] = {"view_listing_ms": round((time.perf_counter() - t) * 1000, 1)}
    questions = generate(60, 1, project).queries
    for category in ("content", "filtered"):
        full, cut, same, overlap, viewed, same_viewed = [], [], 0, [], [], 0
        for q in (q["question"] for q in questions if q["category"] == category):
            parsed = parse_query(graph, q, lexicons, [project], True, date.today(), None)
            params = base.under(parsed.constraints)
            t = time.perf_counter()
            a = run_keyword(graph, FULL_SORT, ch.FULLTEXT_VISIBLE, params, parsed.text_for_search, 50)
            full.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            b = run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, parsed.text_for_search, 50)
            cut.append((time.perf_counter() - t) * 1000)
            same += [h.id for h in a[:10]] == [h.id for h in b[:10]]
            overlap.append(len({h.id for h in a} & {h.id for h in b}) / len(a) if a else float(not b))
            before = keyword_view.counters["among"]
            t = time.perf_counter()
            run = SearchRun(graph, embedder, settings, viewer, SearchOptions(), q)
            found = KeywordChannel().run(ChannelAsk.of_text(run, params, parsed.text_for_search, 50))
            c = found.hits if found is not None else []
            if keyword_view.counters["among"] > before:
                viewed.append((time.perf_counter() - t) * 1000)
                same_viewed += [h.id for h in c[:10]] == [h.id for h in b[:10]]
        figures = {
            "questions": len(full),
            "full_sort_p50_ms": round(statistics.median(full), 1),
            "early_stop_p50_ms": round(statistics.median(cut), 1),
            "same_top10": same,
            "top50_overlap": round(statistics.mean(overlap), 3),
            "from_view": len(viewed),
            "from_view_p50_ms": round(statistics.median(viewed), 1) if viewed else None,
            "from_view_same_top10": same_viewed,
        }
        out[category] = figures
        print(
            f"{category}: {len(full)} questions, full sort p50 {figures['full_sort_p50_ms']} ms, early stop p50 "
            f"{figures['early_stop_p50_ms']} ms, same top 10 {same}/{len(full)}, "
            f"top-50 overlap {figures['top50_overlap']:.3f}; from the kept view: {len(viewed)} questions, "
            f"p50 {figures['from_view_p50_ms']} ms, same top 10 as the index {same_viewed}/{len(viewed)}"
        )
    print(f"kept view listed in {out['view_listing_ms']} ms")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
