"""Train learned fusion from cached channel outputs, cross-validate it by conversation/article, ship its weights.

Usage: .venv/bin/python -m bench.train_ranker [--cache DIR] [--write] [--mmr] [--l2 L2] [--leave-one-corpus-out]
[--ablate]

Reads every `<set>.jsonl` that `bench/capture_fusion.py` wrote into DIR (default /tmp/memora-fusion-cache). The
model is a pairwise logistic ranker (RankNet with a linear scorer, fitted by Newton's method, numpy only): for each
query, every (relevant, non-relevant) candidate pair, weighted so each query counts once. Folds keep a conversation
(LoCoMo), a chat (REALTALK) or an article (XQuAD, in both directions at once) together; the diary, one project, is
split by query. Prints, per set, the live single-channel and today's-fusion figures of the capture run beside the
learned fusion out-of-fold (each query ranked by a model that never saw its conversation/article) and in-sample (the
model shipped). `--write` writes queries/search/ranker_weights.json. Re-run after a new channel lands: the channels the
model knows are the ones found in the cache.

Out-of-fold still trains on the other conversations of the same corpus; data "of the same kind that is not here" may
not look like any of them. `--leave-one-corpus-out` judges each corpus (locomo, realtalk, xquad, diary-es) by models
that never saw it: the shipped recipe (the corpora the shipped weights were trained on, their L2 and protect_top) and
the new one (every corpus in the cache), each trained without the corpus judged, beside RRF and the shipped weights.
With it, `--write` writes only when no corpus the shipped weights knew loses more than NOISE recall@10 and each corpus
they did not know gains. `--ablate` retrains without each feature group, in-sample and left out, to show which
features pay only on the data they were fitted to.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from api.evaluation import _metrics
from queries.search import ranker_features as rf
from queries.search.fusion import Fused, Hit, rrf
from queries.search.mmr import mmr
from queries.search.ranker import FORMAT, WEIGHTS_FILE, Ranker, RankerWeightsError, load_ranker, order

FOLDS = 3
L2_GRID = (1.0, 10.0, 100.0, 1000.0)
KEYS = ("recall@10", "mrr@10", "recall@5", "ndcg@10")
# A set belongs to a corpus: the two XQuAD directions share their articles and questions, so they are one corpus.
CORPUS_OF_SET = {"xquad-es": "xquad", "xquad-en": "xquad"}
CORPORA = ("locomo", "realtalk", "xquad", "diary-es")
BY_CATEGORY = ("locomo", "realtalk")  # the sets whose figures are also given per question category
NOISE = 0.005  # recall@10 differences this small are run-to-run noise, not a loss or a gain


def corpus_of(row: dict[str, Any]) -> str:
    return CORPUS_OF_SET.get(row["set"], row["set"])


def load(cache: Path) -> list[dict[str, Any]]:
    rows = []
    for path in sorted(cache.glob("*.jsonl")):
        rows += [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    return [r for r in rows if r["record"] is not None]


def channels_of(rows: list[dict[str, Any]]) -> list[str]:
    return sorted({c for r in rows for c in r["record"]["channels"]})


def folds_of(rows: list[dict[str, Any]]) -> list[int]:
    """Round-robin over sorted group names per corpus and kind (project/article/query), so each fold holds one LoCoMo
    conversation, one REALTALK chat, a third of the articles and a third of the diary."""
    by_kind: dict[tuple[str, str], list[str]] = defaultdict(list)
    for corpus, g in sorted({(corpus_of(r), r["group"]) for r in rows}):
        by_kind[corpus, g.split(":", 1)[0]].append(g)
    fold = {g: n % FOLDS for groups in by_kind.values() for n, g in enumerate(groups)}
    return [fold[r["group"]] for r in rows]


def corpus_split(
    rows: list[dict[str, Any]], held: str, pool: frozenset[str] | None = None
) -> tuple[list[int], list[int]]:
    """Row indices to train on and to judge on when `held` is the corpus left out: training takes the other corpora
    of `pool` (all when None), never a row of `held` nor of any group one of its rows is in."""
    judged = [n for n, r in enumerate(rows) if corpus_of(r) == held]
    held_groups = {rows[n]["group"] for n in judged}
    train = [
        n
        for n, r in enumerate(rows)
        if corpus_of(r) != held and r["group"] not in held_groups and (pool is None or corpus_of(r) in pool)
    ]
    return train, judged


def _row_pairs(r: dict[str, Any], chans: list[str]) -> np.ndarray | None:
    """One query's (relevant - non-relevant) feature differences, kept on the row: every fit of a run reuses them."""
    memo = r.setdefault("_pairs", {})
    key = tuple(chans)
    if key not in memo:
        ids, x = rf.build(r["record"], chans)
        rel = set(r["relevant"])
        pos = [n for n, i in enumerate(ids) if i in rel]
        neg = [n for n, i in enumerate(ids) if i not in rel]
        memo[key] = (x[pos][:, None, :] - x[neg][None, :, :]).reshape(-1, x.shape[1]) if pos and neg else None
    found: np.ndarray | None = memo[key]
    return found


def pairs(rows: list[dict[str, Any]], chans: list[str]) -> tuple[np.ndarray, np.ndarray]:
    diffs, weights = [], []
    for r in rows:
        d = _row_pairs(r, chans)
        if d is None:
            continue
        diffs.append(d)
        weights.append(np.full(len(d), 1.0 / len(d)))
    return np.vstack(diffs), np.concatenate(weights)


def fit(rows: list[dict[str, Any]], chans: list[str], l2: float, drop: frozenset[str] = frozenset()) -> np.ndarray:
    """Weights over raw features (standardisation folded back in); the features in `drop` weigh nothing."""
    d, s = pairs(rows, chans)
    names = rf.feature_names(chans)
    dropped = [j for j, n in enumerate(names) if n in drop]
    if dropped:
        d = d.copy()
        d[:, dropped] = 0.0
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
    """Mean figures per set, per corpus (when it is not one set) and per category of the conversation sets."""
    by: dict[str, list[dict[str, float]]] = defaultdict(list)
    for r, m in zip(rows, metrics, strict=True):
        by[r["set"]].append(m)
        if corpus_of(r) != r["set"]:
            by[corpus_of(r)].append(m)
        if r["set"] in BY_CATEGORY:
            by[f"{r['set']}/{r['category']}"].append(m)
    return {k: {key: statistics.fmean(m[key] for m in v) for key in KEYS} for k, v in by.items()}


def evaluate(rows: list[dict[str, Any]], rankers: list[Ranker | None], **kw: Any) -> dict[str, dict[str, float]]:
    """`rankers[n]` ranks row n (a per-row list so out-of-fold models can be used)."""
    return summarise(
        rows, [_metrics(ranked_ids(r, rk, **kw), frozenset(r["relevant"])) for r, rk in zip(rows, rankers, strict=True)]
    )


def make(chans: list[str], w: np.ndarray, protect: bool) -> Ranker:
    return Ranker(tuple(chans), w, protect, "trained")


def out_of_fold(
    rows: list[dict[str, Any]], chans: list[str], l2: float, protect: bool, drop: frozenset[str] = frozenset()
) -> list[Ranker | None]:
    folds = folds_of(rows)
    models = {
        f: make(chans, fit([r for r, g in zip(rows, folds, strict=True) if g != f], chans, l2, drop), protect)
        for f in range(FOLDS)
    }
    return [models[f] for f in folds]


@dataclass(frozen=True)
class Recipe:
    """How a model is trained: on which corpora, with which L2 strength, whether top hits are protected, and which
    features are left out."""

    pool: frozenset[str] | None  # None: every corpus in the cache
    l2: float
    protect: bool
    drop: frozenset[str] = frozenset()


def leave_one_corpus_out(
    rows: list[dict[str, Any]], chans: list[str], recipe: Recipe, corpora: tuple[str, ...] = CORPORA
) -> dict[str, dict[str, dict[str, float]]]:
    """Per corpus present: the recipe's model trained without it, judged on it (its rows only)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for held in corpora:
        train, judged = corpus_split(rows, held, recipe.pool)
        if not judged or not train:
            continue
        model = make(chans, fit([rows[n] for n in train], chans, recipe.l2, recipe.drop), recipe.protect)
        out[held] = evaluate([rows[n] for n in judged], [model] * len(judged))
    return out


def shipped_recipe() -> tuple[Ranker | None, Recipe | None]:
    """The weights shipped now and how they were trained (their corpora, L2, protect_top), or Nones when there are
    none readable."""
    try:
        shipped = load_ranker(str(WEIGHTS_FILE))
        data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    except (RankerWeightsError, OSError, json.JSONDecodeError):
        return None, None
    pool = frozenset(CORPUS_OF_SET.get(s, s) for s in data.get("trained_on", {}))
    dropped = frozenset(str(f) for f in data.get("dropped", []))
    return shipped, Recipe(pool or None, float(data.get("l2", 1.0)), bool(data.get("protect_top", True)), dropped)


def cell(res: dict[str, dict[str, float]], key: str) -> str:
    return f"{res[key]['recall@10']:.3f} / {res[key]['mrr@10']:.3f}" if key in res else "–"


def cell1(res: dict[str, dict[str, float]], key: str) -> str:
    return f"{res[key]['recall@10']:.3f}" if key in res else "–"


def table(label: str, res: dict[str, dict[str, float]], sets: list[str]) -> None:
    print(f"| {label} | " + " | ".join(cell(res, s) for s in sets) + " |")


def loco_report(
    rows: list[dict[str, Any]], chans: list[str], new: Recipe, oof: list[Ranker | None]
) -> tuple[bool, list[str]]:
    """Print the leave-one-corpus-out table and say whether the new recipe may replace the shipped weights: on every
    corpus the shipped weights were trained on, the new recipe left out loses no more than NOISE recall@10 against
    the shipped recipe left out; on every corpus they were not, the new recipe left out gains on the shipped weights.
    Returns the verdict and its reasons."""
    corpora = [c for c in CORPORA if any(corpus_of(r) == c for r in rows)]
    shipped, old = shipped_recipe()
    base = evaluate(rows, [None] * len(rows))
    print("\n### Leave one corpus out (recall@10 / MRR@10 on the corpus left out)\n")
    print("| model | " + " | ".join(corpora) + " |")
    print("|---|" + "---|" * len(corpora))
    table("RRF", base, corpora)
    shipped_res = evaluate(rows, [shipped] * len(rows)) if shipped is not None else {}
    if shipped is not None:
        table("shipped weights (in-sample on the corpora they were trained on)", shipped_res, corpora)
    old_res: dict[str, dict[str, dict[str, float]]] = {}
    if old is not None:
        old_res = leave_one_corpus_out(rows, chans, old)
        pool = ", ".join(sorted(old.pool or corpora))
        table(
            f"shipped recipe ({pool}; l2={old.l2}), trained without it", {c: v[c] for c, v in old_res.items()}, corpora
        )
    new_res = leave_one_corpus_out(rows, chans, new)
    flat_new = {c: v[c] for c, v in new_res.items()}
    table(f"new recipe (all corpora; l2={new.l2}, protect={new.protect}), trained without it", flat_new, corpora)
    res_oof = evaluate(rows, oof)
    table("new recipe, out-of-fold (the corpus's other groups in training)", res_oof, corpora)
    for c in (c for c in corpora if c in BY_CATEGORY):
        cats = sorted(k for k in base if k.startswith(f"{c}/"))
        print(
            f"\n{c} recall@10 by category (RRF / shipped / new recipe without {c} / new out-of-fold): "
            + ", ".join(
                f"{k.split('/', 1)[1]} {cell1(base, k)} / {cell1(shipped_res, k)} / {cell1(new_res[c], k)} / "
                f"{cell1(res_oof, k)}"
                for k in cats
            )
        )
    if shipped is None or old is None:
        return True, ["no readable shipped weights: nothing to keep"]
    reasons, ok = [], True
    known = old.pool or frozenset(corpora)
    for c in corpora:
        if c not in new_res:
            continue
        if c in known:
            if c not in old_res:
                continue
            ref, what = old_res[c][c], "shipped recipe without it"
        else:
            ref, what = shipped_res[c], "shipped weights"
        got = new_res[c][c]
        d10, dmrr = got["recall@10"] - ref["recall@10"], got["mrr@10"] - ref["mrr@10"]
        passes = d10 >= -NOISE if c in known else (d10 >= -NOISE and (d10 > NOISE or dmrr > NOISE))
        ok &= passes
        reasons.append(
            f"{c}: new recipe without it {d10:+.3f} recall@10, {dmrr:+.3f} MRR@10 against the {what}"
            + ("" if passes else (" (a loss)" if c in known else " (no gain)"))
        )
        if c not in known:
            o = res_oof[c]
            reasons.append(
                f"{c}: new recipe out-of-fold (its other groups in training) {o['recall@10'] - ref['recall@10']:+.3f} "
                f"recall@10, {o['mrr@10'] - ref['mrr@10']:+.3f} MRR@10 against the shipped weights (not in the rule)"
            )
    return ok, reasons


# A fact and its crossing with the query that equals it wherever it is not zero (a date meets the question's only when
# the question is dated; an entity matches only when the question named one): left out one at a time, the other
# would stand in for it, so they are left out together.
TWINS = {"ent": ("ent", "ent_named"), "date_in": ("date_in", "date_dated")}
FEATURE_GROUPS = (
    "rrf_all",
    "n_channels",
    *(f"*:{f}" for f in rf.PER_CHANNEL),
    *rf.EVIDENCE,
    "cov_weakkw",
    "tells_when",
)


def group_features(group: str, chans: list[str]) -> frozenset[str]:
    """The feature names of a group: `*:lr` is the log-rank of every channel; `ent` and `date_in` bring their
    twins; any other name is itself."""
    if group.startswith("*:"):
        return frozenset(f"{c}:{group[2:]}" for c in chans)
    return frozenset(TWINS.get(group, (group,)))


def ablate(rows: list[dict[str, Any]], chans: list[str], recipe: Recipe) -> list[str]:
    """Per feature group, what leaving it out costs in-sample (trained on all, judged on all) and left out (each
    corpus judged by a model trained without it). Returns the groups that pay in-sample but not on any corpus left
    out: features fitted to the data, not to the task."""
    corpora = [c for c in CORPORA if any(corpus_of(r) == c for r in rows)]
    full_in = evaluate(rows, [make(chans, fit(rows, chans, recipe.l2, recipe.drop), recipe.protect)] * len(rows))
    full_out = leave_one_corpus_out(rows, chans, recipe)
    print("\n### Without each feature group: change in recall@10 / MRR@10 (negative: the feature helps)\n")
    print("| without | in-sample, mean | " + " | ".join(f"{c} left out" for c in corpora) + " |")
    print("|---|---|" + "---|" * len(corpora))
    fitted_only = []
    for group in FEATURE_GROUPS:
        drop = recipe.drop | group_features(group, chans)
        w = fit(rows, chans, recipe.l2, drop)
        res_in = evaluate(rows, [make(chans, w, recipe.protect)] * len(rows))
        res_out = leave_one_corpus_out(rows, chans, Recipe(recipe.pool, recipe.l2, recipe.protect, drop))
        d_in = {k: statistics.fmean(res_in[c][k] - full_in[c][k] for c in corpora) for k in ("recall@10", "mrr@10")}
        d_out = {c: {k: res_out[c][c][k] - full_out[c][c][k] for k in ("recall@10", "mrr@10")} for c in res_out}
        cells = " | ".join(
            f"{d_out[c]['recall@10']:+.3f} / {d_out[c]['mrr@10']:+.3f}" if c in d_out else "–" for c in corpora
        )
        print(f"| {group} | {d_in['recall@10']:+.3f} / {d_in['mrr@10']:+.3f} | {cells} |")
        pays_in = d_in["recall@10"] < -NOISE or d_in["mrr@10"] < -NOISE
        pays_out = any(v["recall@10"] < -NOISE or v["mrr@10"] < -NOISE for v in d_out.values())
        if pays_in and not pays_out:
            fitted_only.append(group)
    print(
        "\nin-sample only (helps trained and judged on the same data, on no corpus left out): "
        + (", ".join(fitted_only) or "none")
    )
    return fitted_only


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", type=Path, default=Path("/tmp/memora-fusion-cache"))
    parser.add_argument("--write", action="store_true", help="write queries/search/ranker_weights.json")
    parser.add_argument("--mmr", action="store_true", help="also measure MMR over the learned order")
    parser.add_argument("--l2", type=float, help="skip the grid: this L2 strength, protect_top on")
    parser.add_argument(
        "--leave-one-corpus-out",
        action="store_true",
        help="judge each corpus by models trained without it; with --write, write only when no corpus loses",
    )
    parser.add_argument("--ablate", action="store_true", help="retrain without each feature group (slow)")
    parser.add_argument(
        "--drop", default="", help="comma-separated feature groups (as --ablate names them) the model leaves out"
    )
    args = parser.parse_args(argv)
    rows = load(args.cache)
    if not rows:
        print(f"error: no cached queries under {args.cache}; run bench/capture_fusion.py", file=sys.stderr)
        return 2
    chans = channels_of(rows)
    drop = frozenset(f for g in args.drop.split(",") if g.strip() for f in group_features(g.strip(), chans))
    sets = sorted({r["set"] for r in rows})
    print(f"channels: {chans}; queries: {len(rows)}; sets: {sets}" + (f"; left out: {sorted(drop)}" if drop else ""))
    print("\n| fusion (recall@10 / MRR@10) | " + " | ".join(sets) + " |")
    print("|---|" + "---|" * len(sets))
    for label in ("fulltext", "dense", "rrf"):
        live = [r for r in rows if label in r["live"]]
        if live:
            table(f"live: {label}", summarise(live, [r["live"][label] for r in live]), sets)
    table("offline: today's RRF", evaluate(rows, [None] * len(rows)), sets)
    best: tuple[float, float, bool] | None = (0.0, args.l2, True) if args.l2 is not None else None
    for protect in (True, False) if args.l2 is None else ():  # on a tie, keep every channel's best hit on the page
        for l2 in L2_GRID:
            res = evaluate(rows, out_of_fold(rows, chans, l2, protect, drop))
            table(f"out-of-fold, l2={l2}, protect={protect}", res, sets)
            objective = statistics.fmean(res[s]["mrr@10"] + res[s]["recall@10"] for s in sets)
            if best is None or objective > best[0]:
                best = (objective, l2, protect)
    assert best is not None
    _, l2, protect = best
    oof = out_of_fold(rows, chans, l2, protect, drop)
    w = fit(rows, chans, l2, drop)
    shipped = make(chans, w, protect)
    res_oof, res_in = evaluate(rows, oof), evaluate(rows, [shipped] * len(rows))
    print(f"\nchosen: l2={l2}, protect_top={protect}")
    table("learned, out-of-fold", res_oof, sets)
    table("learned, shipped (in-sample)", res_in, sets)
    base = evaluate(rows, [None] * len(rows))
    for name in BY_CATEGORY:
        cats = sorted(k for k in base if k.startswith(f"{name}/"))
        if cats:
            print(
                f"\n{name} recall@10 by category (today's RRF -> out-of-fold -> shipped): "
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
    recipe = Recipe(None, l2, protect, drop)
    if args.ablate:
        ablate(rows, chans, recipe)
    if args.leave_one_corpus_out:
        ship, reasons = loco_report(rows, chans, recipe, oof)
        print("\n" + "\n".join(f"- {r}" for r in reasons))
        print(f"\nverdict: {'the new weights may ship' if ship else 'keep the shipped weights'}")
        if args.write and not ship:
            print(f"not writing {WEIGHTS_FILE}: the corpora left out do not allow it", file=sys.stderr)
            return 0
    if args.write:
        data = {
            "format": FORMAT,
            "channels": chans,
            "protect_top": protect,
            "l2": l2,
            "trained_on": {s: sum(1 for r in rows if r["set"] == s) for s in sets},
            "dropped": sorted(drop),
            "weights": {n: round(float(v), 6) for n, v in zip(rf.feature_names(chans), w, strict=True)},
        }
        WEIGHTS_FILE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {WEIGHTS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
