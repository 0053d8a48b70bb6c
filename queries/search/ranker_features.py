"""Features of learned fusion, computed from evidence the channels already return (pure: no database, no model).

Serving (queries/search/ranker.py) and training (bench/train_ranker.py) build the same matrix from the same raw record,
so a model retrained on cached channel outputs scores exactly what search will score. Per-channel features are
generic over channel names: the model lists the channels it knows; a channel it knows that did not run gives zeros
(neutral: a linear ranker adds the same nothing to every candidate), and a channel it does not know (a new one)
counts through `rrf_other`, its unweighted RRF vote, whose weight is not learned (no training query has such a
channel) but set by the trainer to the average log-rank weight of the known leading channels, until it is retrained
with the new channel in its cache. `rrf_all` and `n_channels` are over the known channels only, so an unknown
channel never moves them.

The raw record of one query (also the cache format, JSON-safe):
- `query`: {"n_words": int, "named": int (people/places the query named), "author": bool, "dated": bool,
  "asks_time": bool (the question asks when)}
- `channels`: {channel: [[entry id, score], ...]} in rank order
- `facts`: {entry id: {"cov", "ent", "author", "date_in", "same_thread", "recency", "told_in", "tells", "by_named",
  "asks", "brief", "alike", "alike_after", "alike_before"}} for every candidate (`date_in`: its written date meets the
  question's, 0.5 when only the reach past a day's; `told_in`: a time its text tells does; `tells`: its text tells a
  time at all; `by_named`: its author answers to a person the question names; `asks`: the share of its sentences that
  are questions, `brief`: 1 / (1 + words / 10), both from `shape`: a message that only asks, or says a word or two,
  seldom holds what a question looks for; `alike`: its best chunk's cosine with the dense channel's query vector,
  scaled over the candidates; `alike_after` / `alike_before`: the same for the best chunk of the next two / the
  previous turn of its conversation the viewer may see, on the candidates' scale: in a chat the replies that follow a
  message often say what it is about). A fact missing from a cached record counts as 0 (recency as 0.5).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

RRF_K = 60
LOG_DEPTH = math.log(51.0)  # ranks past 50 count as nothing on the log-rank scale
EVIDENCE = (
    "cov",
    "ent",
    "author",
    "date_in",
    "same_thread",
    "recency",
    "told_in",
    "tells",
    "by_named",
    "asks",
    "brief",
    "alike",
    "alike_after",
    "alike_before",
)
PER_CHANNEL = ("lr", "rr", "top", "rel", "top_gap", "lr_weakkw", "lr_short", "lr_long")


def marks(text: str) -> tuple[int, int, int]:
    """Question marks, sentence ends and words of an entry's text (title, a space, body), counted as the candidate
    facts' statement counts them (queries/search/ranker.py `SHAPE`): a run of up to four equal marks is one."""
    for mark in "?.!":
        text = text.replace(mark + mark, mark).replace(mark + mark, mark)
    asks = text.count("?")
    return asks, asks + text.count(".") + text.count("!"), len(text.strip().split(" "))


def shape(asks: int, ends: int, n_words: int) -> dict[str, float]:
    """The `asks` and `brief` facts from `marks`."""
    return {"asks": round(asks / max(ends, 1), 4), "brief": round(1.0 / (1.0 + n_words / 10.0), 4)}


def feature_names(channels: Sequence[str]) -> list[str]:
    """The model's columns, in order: the generic ones, then eight per known channel, then query-evidence ones."""
    names = ["rrf_all", "n_channels", "rrf_other"]
    names += [f"{c}:{f}" for c in channels for f in PER_CHANNEL]
    names += list(EVIDENCE) + ["ent_named", "date_dated", "cov_weakkw", "tells_when"]
    return names


def _gap(hits: Sequence[Sequence[Any]]) -> float:
    """How far the channel's best hit stands above its second, relative to the best (0 when alone or flat)."""
    if len(hits) < 2:
        return 1.0 if hits else 0.0
    s1, s2 = float(hits[0][1]), float(hits[1][1])
    return max(0.0, min(1.0, (s1 - s2) / abs(s1))) if s1 else 0.0


def keyword_match(record: Mapping[str, Any]) -> float:
    """Share of the query's content words in the keyword channel's best hit: low means keywords are guessing
    (e.g. a Spanish question over English text). 1 when no keyword channel ran (nothing to distrust)."""
    hits = record["channels"].get("fulltext") or record["channels"].get("sparse")
    if not hits:
        return 1.0
    return float(record["facts"].get(hits[0][0], {}).get("cov", 0.0))


def candidate_ids(record: Mapping[str, Any]) -> list[str]:
    """Every candidate once, in first-seen order (channel by channel, rank by rank)."""
    seen: dict[str, None] = {}
    for hits in record["channels"].values():
        for hit in hits:
            seen.setdefault(hit[0], None)
    return list(seen)


def build(record: Mapping[str, Any], channels: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Candidate ids and their feature matrix (rows in `candidate_ids` order, columns in `feature_names` order)."""
    ids = candidate_ids(record)
    index = {i: n for n, i in enumerate(ids)}
    names = feature_names(channels)
    col = {n: j for j, n in enumerate(names)}
    x = np.zeros((len(ids), len(names)), dtype=float)
    q = record["query"]
    weak_kw = 1.0 - keyword_match(record)
    short = 1.0 if q["n_words"] < 3 else 0.0
    long_ = 1.0 if q["n_words"] >= 6 else 0.0
    for channel, hits in record["channels"].items():
        known = channel in channels
        for rank, hit in enumerate(hits, start=1):
            row = index[hit[0]]
            x[row, col["rrf_all" if known else "rrf_other"]] += RRF_K / (RRF_K + rank)
            x[row, col["n_channels"]] += 1.0 if known else 0.0
        if not known or not hits:
            continue
        scores = [float(h[1]) for h in hits]
        top, low = max(scores), min(scores)
        gap = _gap(hits)
        for rank, hit in enumerate(hits, start=1):
            row = index[hit[0]]
            lr = max(0.0, 1.0 - math.log(rank) / LOG_DEPTH)
            vals = {
                "lr": lr,
                "rr": 1.0 / rank,
                "top": 1.0 if rank == 1 else 0.0,
                "rel": (float(hit[1]) - low) / (top - low) if top > low else 1.0,
                "top_gap": gap if rank == 1 else 0.0,
                "lr_weakkw": lr * weak_kw,
                "lr_short": lr * short,
                "lr_long": lr * long_,
            }
            for f, v in vals.items():
                x[row, col[f"{channel}:{f}"]] = v
    facts = record["facts"]
    for cid, row in index.items():
        fact = facts.get(cid, {})
        for f in EVIDENCE:
            x[row, col[f]] = float(fact.get(f, 0.5 if f == "recency" else 0.0))
        x[row, col["ent_named"]] = x[row, col["ent"]] * min(q["named"], 3)
        x[row, col["date_dated"]] = x[row, col["date_in"]] * (1.0 if q["dated"] else 0.0)
        x[row, col["cov_weakkw"]] = x[row, col["cov"]] * weak_kw
        x[row, col["tells_when"]] = x[row, col["tells"]] * (1.0 if q.get("asks_time") else 0.0)
    return ids, x
