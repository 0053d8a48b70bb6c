"""The cost of keyword ranking over visible entries against Lucene's own ranking, in one process.

    .venv/bin/python bench/bench_keyword.py [--queries N]

Runs the LoCoMo dev questions (already ingested by `make eval`) through both statements as the dataset's owner,
alternating them: (a) Lucene's index-wide score, top 50 visible (what the fulltext channel did before), and (b) the
keyword channel of today: every visible match (up to 1,000) with its text, ranked by BM25 in Python.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.evaluation import EVAL_USER  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from queries.search import channels as ch  # noqa: E402
from queries.search.keyword import query_terms, run_keyword  # noqa: E402
from queries.search.lucene import to_lucene  # noqa: E402
from queries.search.scope import SearchScope  # noqa: E402

LUCENE_RANKED = f"""
CALL db.index.fulltext.queryNodes('entry_text_v2', $lucene) YIELD node AS e, score
WHERE {ch.QUERY_SCOPE}
RETURN e.id AS id, score ORDER BY score DESC, id LIMIT 50
"""
QUERIES = Path(__file__).resolve().parent.parent.parent / "shared" / "bench" / "locomo-dev" / "queries.jsonl"


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    from api.cli import connect
    from graph.settings import get_settings

    graph = connect(get_settings())
    owner = EVAL_USER
    rows = [json.loads(line) for line in QUERIES.open(encoding="utf-8") if line.strip()][: args.queries]
    projects = {
        r["project_id"]: graph.read(
            "MATCH (p:Project) WHERE p.id STARTS WITH 'eval:locomo-dev-entries-' AND p.id ENDS WITH $suffix "
            "RETURN p.id AS id",
            {"suffix": ":" + r["project_id"]},
        )
        for r in rows
    }
    if not all(projects.values()):
        print("ingest LoCoMo first: make eval EVAL_ARGS='--data DIR' (DIR holding locomo-dev/)")
        return 2
    lucene_t, keyword_t = [], []
    for r in rows:
        project = projects[r["project_id"]][0]["id"]
        scope = SearchScope(Viewer(user_id=owner), (project,))
        text = r["question"]
        t = time.perf_counter()
        graph.read(LUCENE_RANKED, {**scope.params(), "lucene": to_lucene(" ".join(query_terms(text)))})
        lucene_t.append(time.perf_counter() - t)
        t = time.perf_counter()
        run_keyword(graph, ch.FULLTEXT, ch.FULLTEXT_VISIBLE, scope, text, 50)
        keyword_t.append(time.perf_counter() - t)
    out = {
        "queries": len(rows),
        "lucene_p50_ms": ms(lucene_t, 0.5),
        "lucene_p95_ms": ms(lucene_t, 0.95),
        "visible_bm25_p50_ms": ms(keyword_t, 0.5),
        "visible_bm25_p95_ms": ms(keyword_t, 0.95),
        "ratio_p50": round(ms(keyword_t, 0.5) / ms(lucene_t, 0.5), 2),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
