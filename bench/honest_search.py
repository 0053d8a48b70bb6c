"""Does search admit when nothing matched? Gibberish and questions from another corpus against every dev project,
and every dev question against its own, through the door with the shipped relevance calibration.

Usage: .venv/bin/python -m bench.honest_search --data /path/to/bench [--seed 11] [--json OUT]
       .venv/bin/python -m bench.honest_search --data /path/to/bench --seed 7 --capture-negatives FILE

Needs the database `bench/run_evals.py` uses (it ingests what is missing). Per project: 15 strings of nonsense
(keyboard runs, random letters, made-up syllables, random characters), up to 12 questions drawn from each other set
(XQuAD's two languages count as one set), and 10 one-word searches of a word of its own entries (which should match).
Reported: the share of them answered "nothing matched well" (split into
questions whose date the project's entries meet, which a date match answers, and the rest), and for the project's
own questions recall@10 as the API counts it and as a reader who stops at "nothing matched well" would (such a
question counts as a miss). `--capture-negatives` writes each negative question's ranker record for
`bench/calibrate_relevance.py` (use another seed than the one reported).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import string
import sys
from pathlib import Path
from typing import Any

from api.cli import connect
from api.evaluation import EVAL_USER, EvalQuery
from bench.run_evals import dataset_files, ingest_set, wait_steady
from graph.settings import get_settings
from graph.visibility import Viewer
from ingest.embedding_jobs import active_embedder
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

GIBBERISH_PER_PROJECT = 15
KEYWORDS_PER_PROJECT = 10
SAMPLE_TEXTS = "MATCH (e:Entry {project_id: $project}) RETURN e.body AS text ORDER BY e.id"
OTHER_PER_SET = 12
SYLLABLES = ("bla", "fnor", "zik", "trum", "pel", "quo", "vax", "drin", "mok", "sul", "gre", "xan")
KEYBOARD = ("qwertyuiop", "asdfghjkl", "zxcvbnm", "azertyuiop", "qsdfghjklm")


def gibberish(rng: random.Random) -> str:
    style = rng.randrange(4)
    if style == 0:
        row = rng.choice(KEYBOARD)
        start = rng.randrange(len(row) - 3)
        return row[start : start + rng.randrange(4, 11)]
    if style == 1:
        return " ".join(
            "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randrange(3, 9)))
            for _ in range(rng.randrange(1, 4))
        )
    if style == 2:
        return " ".join(
            "".join(rng.choice(SYLLABLES) for _ in range(rng.randrange(2, 4))) for _ in range(rng.randrange(1, 4))
        )
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(rng.randrange(6, 14)))


def keyword(rng: random.Random, texts: list[str]) -> str | None:
    """One word of one of the project's entries, as someone searching a single word would type it."""
    for _ in range(20):
        tokens = [t.strip(".,;:!?¿¡()\"'«»") for t in (rng.choice(texts) if texts else "").split()]
        tokens = [t for t in tokens if len(t) >= 6 and t.isalpha()]
        if tokens:
            return rng.choice(tokens)
    return None


def same_source(a: str, b: str) -> bool:
    return a == b or {a, b} == {"xquad-es", "xquad-en"}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=os.environ.get("MEMORA_BENCH_DATA") or None)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--capture-negatives", type=Path, default=None)
    args = parser.parse_args()
    settings = get_settings()
    graph = connect(settings)
    wait_steady(graph, settings)
    embedder = active_embedder(graph, settings)
    sets = {n: f for n, f in dataset_files(args.data).items() if f[0].is_file() and f[1].is_file()}
    questions: dict[str, list[EvalQuery]] = {n: ingest_set(graph, embedder, f) for n, f in sets.items()}
    viewer = Viewer(user_id=EVAL_USER)
    rng = random.Random(args.seed)
    capture = args.capture_negatives.open("w", encoding="utf-8") if args.capture_negatives else None
    report: dict[str, Any] = {}

    def ask(project: str, text: str, now: Any = None, sink: list[dict[str, Any]] | None = None) -> Any:
        options = SearchOptions(k=10, now=now, capture=sink)
        return hybrid_search(graph, embedder, settings, viewer, text, Scope(project_id=project), options, [project])

    for target, own in questions.items():
        negatives = {"gibberish": [0, 0], "other": [0, 0], "other, date met": [0, 0]}
        keywords = [0, 0]
        for project in sorted({q.project_id for q in own}):
            texts = [r["text"] or "" for r in graph.read(SAMPLE_TEXTS, {"project": project})]
            asked = [("gibberish", gibberish(rng)) for _ in range(GIBBERISH_PER_PROJECT)]
            asked += [("keyword", w) for _ in range(KEYWORDS_PER_PROJECT) if (w := keyword(rng, texts))]
            for source, theirs in questions.items():
                if not same_source(source, target):
                    asked += [(source, q.question) for q in rng.sample(theirs, min(OTHER_PER_SET, len(theirs)))]
            for kind, text in asked:
                sink: list[dict[str, Any]] = []
                answer = ask(project, text, sink=sink)
                record = sink[0] if sink else None
                if capture is not None:
                    line = {"target": target, "project": project, "kind": kind, "q": text, "record": record}
                    capture.write(json.dumps(line, default=str) + "\n")
                if kind == "keyword":
                    keywords[0] += 1
                    keywords[1] += answer.matched
                    continue
                dated = record is not None and bool(
                    record["query"]["dated"]
                    and any(f.get("date_in") or f.get("told_in") for f in record["facts"].values())
                )
                label = "gibberish" if kind == "gibberish" else ("other, date met" if dated else "other")
                negatives[label][0] += 1
                negatives[label][1] += 0 if answer.matched else 1
        hits = hits_kept = flagged = 0
        for q in own:
            answer = ask(q.project_id, q.question, now=q.now)
            hit = bool(q.relevant & {r.entry_id for r in answer.results})
            hits += hit
            hits_kept += hit and answer.matched
            flagged += not answer.matched
        n = max(len(own), 1)
        report[target] = {
            "questions": len(own),
            "recall@10": round(hits / n, 3),
            "recall@10 stopping at nothing matched": round(hits_kept / n, 3),
            "own questions flagged": round(flagged / n, 3),
            "one-word searches of the project's own words matched": f"{keywords[1]}/{keywords[0]}",
            **{f"{k} flagged": f"{v[1]}/{v[0]}" for k, v in negatives.items() if v[0]},
        }
        print(target, json.dumps(report[target], ensure_ascii=False), file=sys.stderr)
    if capture is not None:
        capture.close()
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
