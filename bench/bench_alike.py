"""What the ranker's meaning facts cost a search, with the real default model, on projects `bench/run_evals.py`
loaded: `alike` (the cosine of the dense channel's query vector with every candidate's best chunk) and the turns
around a candidate (`alike_after`, `alike_before`), read in the candidates' statement (queries/search/ranker.py).

    .venv/bin/python bench/bench_alike.py --data /path/to/bench [--only realtalk] [--around] [--rounds N] [--json OUT]

The set's questions, as the evaluation user, learned fusion, the search and query-embedding caches off (every search
embeds, as a question asked for the first time does), each searched twice in turn: with the facts and without them
(`ranker.gather` called without the vector in this process; every candidate's meaning facts are then 0), or with
`--around`, with the turns around and without them (`alike` alone). Prints each one's p50 / p95 over
every round and their ratio.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.evaluation import EvalQuery  # noqa: E402
from bench.dev_questions import dev_questions  # noqa: E402
from bench.in_turns import in_turns, report  # noqa: E402
from queries.search import ranker  # noqa: E402
from queries.search.request import SearchOptions  # noqa: E402

GATHER = ranker.gather
AROUND = ranker.around


def without(*args: Any) -> ranker.Gathered:
    """`gather` without the meaning facts: the dense vector and its property never reach the statement."""
    return GATHER(*args[:6])


def own_only(*args: Any) -> ranker.Gathered:
    """`gather` with `alike` but without the turns around a candidate."""
    ranker.around = lambda *_: {}
    try:
        return GATHER(*args)
    finally:
        ranker.around = AROUND


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--only", default="realtalk")
    parser.add_argument("--around", action="store_true", help="time the turns around alone (against alike alone)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    dev = dev_questions(args.data, args.only)
    gathers: dict[str, Any] = {"alike": GATHER, "without": without, "alike alone": own_only}

    def search(mode: str, q: EvalQuery) -> None:
        ranker.gather = gathers[mode]
        dev.ask(q, SearchOptions(k=10, fusion="learned", now=q.now))

    modes = ("alike", "alike alone") if args.around else ("alike", "without")
    took = in_turns(search, modes, dev.asked, args.rounds, warm=dev.asked[:20])
    ranker.gather = GATHER
    report(took, modes, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
