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

from api.evaluation import EvalQuery, _metrics  # noqa: E402
from bench.dev_questions import dev_questions  # noqa: E402
from bench.in_turns import in_turns, report  # noqa: E402
from queries.search.request import SearchOptions  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--only", default="realtalk")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    dev = dev_questions(args.data, args.only)
    default = SearchOptions()
    depths = {f"dense {default.dense_candidates}": default.dense_candidates}
    depths[f"dense {default.candidates_per_channel}"] = default.candidates_per_channel
    found: dict[str, dict[str, dict[str, float]]] = {m: {} for m in depths}

    def search(mode: str, q: EvalQuery) -> None:
        opts = SearchOptions(k=10, fusion="learned", now=q.now, dense_candidates=depths[mode])
        answer = dev.ask(q, opts)
        found[mode][q.id] = _metrics([r.entry_id for r in answer.results], q.relevant)

    first, second = depths
    modes = (first, second)
    took = in_turns(search, modes, dev.asked, args.rounds, warm=dev.asked[:20])
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
