"""Train learned fusion from cached channel outputs, cross-validate it by conversation/article, ship its weights.

Usage: .venv/bin/python -m bench.train_ranker [--cache DIR] [--write] [--mmr]

Reads every `<set>.jsonl` that `bench/capture_fusion.py` wrote into DIR (default /tmp/memora-fusion-cache). The
model is a pairwise logistic ranker (RankNet with a linear scorer, fitted by Newton's method, numpy only): for each
query, every (relevant, non-relevant) candidate pair, weighted so each query counts once. Folds keep a conversation
(LoCoMo) or an article (XQuAD, in both directions at once) together; the diary, one project, is split by query.
Prints, per set, the live single-channel and today's-fusion figures of the capture run beside the learned fusion
out-of-fold (each query ranked by a model that never saw its conversation/article) and in-sample (the model
shipped). `--write` writes queries/search/ranker_weights.json. Re-run after a new channel lands: the channels the model
knows are the ones found in the cache.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from api.evaluation import _metrics
from queries.search import ranker_features as rf
from queries.search.fusion import Fused, Hit, rrf
from queries.search.mmr import mmr
from queries.search.ranker import FORMAT, WEIGHTS_FILE, Ranker, order

FOLDS = 3
L2_GRID = (1.0, 10.0, 100.0, 1000.0)
KEYS = ("recall@10", "mrr@10", "recall@5", "ndcg@10")


def load(cache: Path) -> list[dict[str, Any]]:
    rows = []
    for path in sorted(cache.glob("*.jsonl")):
        rows += [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    return [r for r in rows if r["record"] is not None]


def channels_of(rows: list[dict[str, Any]]) -> list[str]:
    return sorted({c for r in rows for c in r["record"]["channels"]})


def folds_of(rows: list[dict[str, Any]]) -> list[int]:
    """Round-robin over sorted group names per kind (project/article/query), so each fold holds one LoCoMo
    conversation, a third of the articles and a third of the diary."""
    by_kind: dict[str, list[str]] = defaultdict(list)
    for g in sorted({r["group"] for r in rows}):
        by_kind[g.split(":", 1)[0]].append(g)
    fold = {g: n % FOLDS for groups in by_kind.values() for n, g in enumerate(groups)}
    return [fold[r["group"]] for r in rows]


def pairs(rows: list[dict[str, Any]], chans: list[str]) -> tuple[np.ndarray, np.ndarray]:
    diffs, weights = [], []
    for r in rows:
        ids, x = rf.build(r["record"], chans)
        rel = set(r["relevant"])
        pos = [n for n, i in enumerate(ids) if i in rel]
        neg = [n for n, i in enumerate(ids) if i not in rel]
        if not pos or not neg:
            continue
        d = (x[pos][:, None, :] - x[neg][None, :, :]).reshape(-1, x.shape[1])
        diffs.append(d)
        weights.append(np.full(len(d), 1.0 / len(d)))
    return np.vstack(diffs), np.concatenate(weights)


def fit(rows: list[dict[str, Any]], chans: list[str], l2: float) -> np.ndarray:
    """Weights over raw features (standardisation folded back in)."""
    d, s = pairs(rows, chans)
    scale = d.std(axis=0)
    scale[scale == 0] = 1.0
    z = d / scale
    w = np.zeros(z.shape[1])
    n_queries = s.sum()
    for _ in range(30):
        m = z @ w
        p = 1.0 / (1.0 + np.exp(-m))
        grad = -(z.T @ (s * (1.0 - p))) / n_queries + l2 * w / n_queries
        hess = (z.T * (s * p * (1.0 - p))) @ z / n_queries + (l2 / n_queries) * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    w = w / scale
    names = rf.feature_names(chans)
    leading = [names.index(f"{c}:lr") for c in chans if c != "thread"]
    w[names.index("rrf_other")] = max(0.0, float(np.mean(w[leading])))  # a channel not known yet: a prior vote
    return w


def today(record: dict[str, Any]) -> list[Fused]:
    lists = {c: [Hit(h[0], float(h[1])) for h in hits] for c, hits in record["channels"].items() if hits}
    return rrf(lists, k=60, weights=record.get("rrf_weights") or None)


def ranked_ids(
    r: dict[str, Any], ranker: Ranker | None, vectors: dict[str, np.ndarray] | None = None, lam: float = 1.0
) -> list[str]:
    base = today(r["record"])
    out = base if ranker is None else order(r["record"], ranker, base, 10)
    if vectors is not None:
        pool = out[:30]
        out = mmr(pool, vectors, lam) + out[30:]
    return [f.id for f in out[:30]]


def summarise(rows: list[dict[str, Any]], metrics: list[dict[str, float]]) -> dict[str, dict[str, float]]:
    by: dict[str, list[dict[str, float]]] = defaultdict(list)
    for r, m in zip(rows, metrics, strict=True):
        by[r["set"]].append(m)
        if r["set"] == "locomo":
            by[f"locomo/{r['category']}"].append(m)
    return {k: {key: statistics.fmean(m[key] for m in v) for key in KEYS} for k, v in by.items()}


def evaluate(rows: list[dict[str, Any]], rankers: list[Ranker | None], **kw: Any) -> dict[str, dict[str, float]]:
    """`rankers[n]` ranks row n (a per-row list so out-of-fold models can be used)."""
    return summarise(
        rows, [_metrics(ranked_ids(r, rk, **kw), frozenset(r["relevant"])) for r, rk in zip(rows, rankers, strict=True)]
    )


def make(chans: list[str], w: np.ndarray, protect: bool) -> Ranker:
    return Ranker(tuple(chans), w, protect, "trained")


def out_of_fold(rows: list[dict[str, Any]], chans: list[str], l2: float, protect: bool) -> list[Ranker | None]:
    folds = folds_of(rows)
    models = {
        f: make(chans, fit([r for r, g in zip(rows, folds, strict=True) if g != f], chans, l2), protect)
        for f in range(FOLDS)
    }
    return [models[f] for f in folds]


def table(label: str, res: dict[str, dict[str, float]], sets: list[str]) -> None:
    cells = " | ".join(f"{res[s]['recall@10']:.3f} / {res[s]['mrr@10']:.3f}" for s in sets)
    print(f"| {label} | {cells} |")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", type=Path, default=Path("/tmp/memora-fusion-cache"))
    parser.add_argument("--write", action="store_true", help="write queries/search/ranker_weights.json")
    parser.add_argument("--mmr", action="store_true", help="also measure MMR over the learned order")
    parser.add_argument("--l2", type=float, help="skip the grid: this L2 strength, protect_top on")
    args = parser.parse_args()
    rows = load(args.cache)
    if not rows:
        print(f"error: no cached queries under {args.cache}; run bench/capture_fusion.py", file=sys.stderr)
        return 2
    chans = channels_of(rows)
    sets = sorted({r["set"] for r in rows})
    cats = sorted({s for r in rows if r["set"] == "locomo" for s in [f"locomo/{r['category']}"]})
    print(f"channels: {chans}; queries: {len(rows)}; sets: {sets}\n")
    print("| fusion (recall@10 / MRR@10) | " + " | ".join(sets) + " |")
    print("|---|" + "---|" * len(sets))
    for label in ("fulltext", "dense", "rrf"):
        live = [r for r in rows if label in r["live"]]
        if live:
            table(f"live: {label}", summarise(live, [r["live"][label] for r in live]), sets)
    table("offline: today's RRF", evaluate(rows, [None] * len(rows)), sets)
    best: tuple[float, float, bool] | None = (0.0, args.l2, True) if args.l2 is not None else None
    for protect in (True, False) if args.l2 is None else ():  # on a tie, keep every channel's best hit on the page
        for l2 in L2_GRID:
            res = evaluate(rows, out_of_fold(rows, chans, l2, protect))
            table(f"out-of-fold, l2={l2}, protect={protect}", res, sets)
            objective = statistics.fmean(res[s]["mrr@10"] + res[s]["recall@10"] for s in sets)
            if best is None or objective > best[0]:
                best = (objective, l2, protect)
    assert best is not None
    _, l2, protect = best
    oof = out_of_fold(rows, chans, l2, protect)
    w = fit(rows, chans, l2)
    shipped = make(chans, w, protect)
    res_oof, res_in = evaluate(rows, oof), evaluate(rows, [shipped] * len(rows))
    print(f"\nchosen: l2={l2}, protect_top={protect}")
    table("learned, out-of-fold", res_oof, sets)
    table("learned, shipped (in-sample)", res_in, sets)
    base = evaluate(rows, [None] * len(rows))
    print(
        "\nLoCoMo recall@10 by category (today's RRF -> out-of-fold -> shipped): "
        + ", ".join(
            f"{c.split('/')[1]} {base[c]['recall@10']:.3f} -> {res_oof[c]['recall@10']:.3f} -> "
            f"{res_in[c]['recall@10']:.3f}"
            for c in cats
        )
    )
    print(
        "\nweights: "
        + ", ".join(f"{n} {v:+.3f}" for n, v in zip(rf.feature_names(chans), w, strict=True) if abs(v) > 1e-3)
    )
    if args.mmr:
        vectors: dict[str, np.ndarray] = {}
        for path in sorted(args.cache.glob("*.vectors.npz")):
            data = np.load(path)
            vectors.update(zip(data["ids"].tolist(), data["vectors"], strict=True))
        for lam in (0.9, 0.7, 0.5):
            table(f"learned out-of-fold + MMR lambda={lam}", evaluate(rows, oof, vectors=vectors, lam=lam), sets)
    if args.write:
        data = {
            "format": FORMAT,
            "channels": chans,
            "protect_top": protect,
            "l2": l2,
            "trained_on": {s: sum(1 for r in rows if r["set"] == s) for s in sets},
            "weights": {n: round(float(v), 6) for n, v in zip(rf.feature_names(chans), w, strict=True)},
        }
        WEIGHTS_FILE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {WEIGHTS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
