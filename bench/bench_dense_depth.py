"""What the dense channel's depth costs and finds, with the real default model and the shipped ranker, on projects
`bench/run_evals.py` loaded: the default depth (`SearchOptions.dense_candidates`) against the keyword channels' depth
(`candidates_per_channel`), each question searched with both in turn, in one process.

    .venv/bin/python bench/bench_dense_depth.py --data /path/to/bench [--only realtalk] [--rounds N] [--json OUT]

Caches off (every search embeds and ranks, as a question asked for the first time does). Prints each depth's p50 /
p95 over every round and their ratio, then each depth's recall@10 / MRR@10 over the set's questions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.cli import connect  # noqa: E402
from api.evaluation import EVAL_USER, EvalQuery, _metrics, load_queries, namespace  # noqa: E402
from bench.in_turns import in_turns, report  # noqa: E402
from bench.run_evals import dataset_files  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from ingest.embedding_jobs import active_embedder  # noqa: E402
from queries.search.door import hybrid_search  # noqa: E402
from queries.search.request import Scope, SearchOptions  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--only", default="realtalk")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    settings = get_settings().model_copy(update={"search_cache_seconds": 0.0, "query_embed_cache_size": 0})
    graph = connect(settings)
    embedder = active_embedder(graph, settings)
    entries, queries, _ = dataset_files(args.data)[args.only]
    asked = load_queries(queries, namespace(entries))
    viewer = Viewer(user_id=EVAL_USER)
    default = SearchOptions()
    depths = {f"dense {default.dense_candidates}": default.dense_candidates}
    depths[f"dense {default.candidates_per_channel}"] = default.candidates_per_channel
    found: dict[str, dict[str, dict[str, float]]] = {m: {} for m in depths}

    def search(mode: str, q: EvalQuery) -> None:
        opts = SearchOptions(k=10, fusion="learned", now=q.now, dense_candidates=depths[mode])
        answer = hybrid_search(graph, embedder, settings, viewer, q.question, Scope(project_id=q.project_id), opts)
        found[mode][f"{q.project_id}\t{q.question}"] = _metrics([r.entry_id for r in answer.results], q.relevant)

    modes = (f"dense {default.dense_candidates}", f"dense {default.candidates_per_channel}")
    took = in_turns(search, modes, asked, args.rounds, warm=asked[:20])
    report(took, modes, args.json)
    for mode in modes:
        got = found[mode].values()
        print(
            f"{mode}: recall@10 {statistics.fmean(m['recall@10'] for m in got):.3f}, "
            f"MRR@10 {statistics.fmean(m['mrr@10'] for m in got):.3f} over {len(got)} questions"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
