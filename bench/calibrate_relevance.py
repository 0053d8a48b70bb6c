"""Fit the relevance calibration (queries/search/relevance.py) and report how its cut sorts questions.

Usage: .venv/bin/python -m bench.calibrate_relevance --cache DIR --negatives FILE [--threshold 0.9] [--write]

Positives are the evidence entries of every dev question (the fusion cache of `bench/capture_fusion.py`, DIR); the
negatives, every candidate of a question that has no answer in the project it was asked of: gibberish and questions
from another corpus (FILE, written by `bench/honest_search.py --capture-negatives`, which also holds one-word
searches of the projects' own words: every entry holding the word is a positive). A question from another corpus
whose date some entry of the project meets is left out of the fit: a date that matches is a match. Both sides weigh
the same. Reported per kind, from five folds (each question judged by weights fitted without it): the share of
negatives that get "nothing matched well", and the share of real questions with their evidence in the first ten that
would lose it to that label. `--write` stores the weights fitted on everything in queries/search/relevance_weights.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from queries.search import relevance as rel

DIARY_QUERIES = Path(__file__).resolve().parent / "diary-es" / "queries.jsonl"
FOLDS = 5


class Question:
    def __init__(self, kind: str, target: str, feats: dict[str, dict[str, float]], relevant: set[str]) -> None:
        self.kind, self.target, self.feats, self.relevant = kind, target, feats, relevant

    def date_met(self) -> bool:
        return any(x["dated"] > 0 for x in self.feats.values())


def question_texts(data: Path | None) -> dict[str, str]:
    files = [DIARY_QUERIES] + (sorted(data.glob("*/queries.jsonl")) if data else [])
    out: dict[str, str] = {}
    for f in files:
        for line in f.open(encoding="utf-8"):
            if line.strip():
                q = json.loads(line)
                out[q["query_id"]] = q["question"]
    return out


def load(cache: Path, negatives: Path, data: Path | None) -> list[Question]:
    texts = question_texts(data)
    out: list[Question] = []
    for f in sorted(cache.glob("*.jsonl")):
        for line in f.open(encoding="utf-8"):
            row = json.loads(line)
            if row.get("record") and row["qid"] in texts:
                feats = rel.features(row["record"], texts[row["qid"]])
                out.append(Question("real", row["set"], feats, set(row["relevant"])))
    for line in negatives.open(encoding="utf-8"):
        row = json.loads(line)
        if row.get("record"):
            feats = rel.features(row["record"], row["q"])
            if row["kind"] == "keyword":  # every entry holding the word answers a one-word search
                out.append(Question("real", "one word", feats, {i for i, x in feats.items() if x["cov"] >= 1.0}))
            else:
                out.append(Question(row["kind"], row["target"], feats, set()))
    return out


def matrix(questions: list[Question]) -> tuple[np.ndarray, np.ndarray]:
    xs: list[list[float]] = []
    ys: list[int] = []
    for q in questions:
        if q.kind == "real":
            for i in q.relevant & set(q.feats):
                xs.append([q.feats[i][n] for n in rel.FEATURES])
                ys.append(1)
        elif not q.date_met():
            for x in q.feats.values():
                xs.append([x[n] for n in rel.FEATURES])
                ys.append(0)
    return np.array(xs), np.array(ys)


def fit(questions: list[Question], l2: float = 1.0) -> rel.Calibration:
    """A balanced logistic regression by gradient descent (no extra dependency)."""
    x, y = matrix(questions)
    w_sample = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mu) / sd
    w = np.zeros(z.shape[1])
    b = 0.0
    for _ in range(3000):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        g = (p - y) * w_sample
        w -= 0.5 * (z.T @ g / len(y) + l2 * w / len(y))
        b -= 0.5 * g.mean()
    weights = w / sd
    intercept = b - float((w * mu / sd).sum())
    return rel.Calibration(float(intercept), dict(zip(rel.FEATURES, weights.tolist(), strict=True)), 0.5, None)


def best(c: rel.Calibration, q: Question) -> float:
    return max((rel.score(c, x) for x in q.feats.values()), default=0.0)


def report(questions: list[Question], threshold: float) -> dict[str, dict[str, float]]:
    scores: dict[int, float] = {}
    for fold in range(FOLDS):
        c = fit([q for n, q in enumerate(questions) if n % FOLDS != fold])
        scores |= {n: best(c, q) for n, q in enumerate(questions) if n % FOLDS == fold}
    groups: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for n, q in enumerate(questions):
        hit = bool(q.relevant & set(list(q.feats)[:10]))
        kind = "real" if q.kind == "real" else ("gibberish" if q.kind == "gibberish" else "other corpus")
        groups[f"{kind} → {q.target}"].append((scores[n], hit))
    out: dict[str, dict[str, float]] = {}
    for name, v in sorted(groups.items()):
        s = np.array([a for a, _ in v])
        h = np.array([b for _, b in v])
        flagged = s < threshold
        out[name] = {"n": len(v), "flagged": round(float(flagged.mean()), 3)}
        if name.startswith("real"):
            out[name]["hits_lost"] = round(float((flagged & h).mean()), 3)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--negatives", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=None, help="the bench folder (its queries' texts)")
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--embedder", default="e5small")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    questions = load(args.cache, args.negatives, args.data)
    for name, row in report(questions, args.threshold).items():
        print(f"{name:40s} {json.dumps(row)}")
    c = fit(questions)
    print("weights", {k: round(v, 3) for k, v in c.weights.items()}, "intercept", round(c.intercept, 3))
    if args.write:
        data: dict[str, Any] = {
            "format": rel.FORMAT,
            "embedder": args.embedder,
            "threshold": args.threshold,
            "intercept": round(c.intercept, 6),
            "weights": {k: round(v, 6) for k, v in c.weights.items()},
        }
        rel.WEIGHTS_FILE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"written: {rel.WEIGHTS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
