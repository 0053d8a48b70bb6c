"""How well a result matches the question, as a number in [0, 1], and whether anything matched well at all.

A learned ranker only orders candidates; it cannot say that the best of them is filler (a string of nonsense or a
question about another family still gets an ordered page). Relevance is a logistic over evidence that keeps its
meaning across questions: the dense similarity of the entry (and how far it stands above the median of the visible
candidates the dense channel found), the share of the question's content words the entry holds, whether it names a
person or place the question names, whether its date meets the question's (its own days, not the reach past a day),
and whether the question reads as prose at all (it holds a function word of es/en/fr), and whether a name it asks
about (a capitalised word past the first) is one the project does not know and the entry does not hold. Calibrated
by `bench/calibrate_relevance.py` on the dev sets' questions (their evidence entries) against gibberish and
questions from another corpus, equal weight to each side: a result's relevance is the chance that it answers a
question about this project rather than filler for one that is not.

Every fact read here is about a visible candidate (the ranker's record, queries/search/ranker.py), so relevance and
the `matched` verdict change only with what the viewer may see. Weights ship as `relevance_weights.json`, fitted for
the default embedder; another model's similarities sit elsewhere, so the file names its model and is refitted with
the script for another.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from statistics import median
from typing import Any

from graph.textnorm import words
from queries.search.fusion import STOPWORDS
from queries.search.ranker import probability

log = logging.getLogger(__name__)
WEIGHTS_FILE = Path(__file__).with_name("relevance_weights.json")
FORMAT = "memora-relevance/1"
FEATURES = ("dense_prose", "dense_terse", "cov", "named", "dated", "prose", "lift", "stranger")
LIFT_SCALE = 100.0  # similarities differ in the second decimal: a lift of 0.01 weighs like a whole coverage
BELOW_DENSE = 0.005  # a candidate the dense channel did not return sits just under its last hit


class RelevanceWeightsError(ValueError):
    """The relevance weights file is missing, unreadable or does not fit the features computed here."""


@dataclass(frozen=True)
class Calibration:
    intercept: float
    weights: dict[str, float]
    threshold: float
    embedder: str | None


def prose(query: str) -> bool:
    """Whether the question holds a function word of es/en/fr: nonsense and keyboard runs do not."""
    return any(w in STOPWORDS for w in words(query))


def features(record: Mapping[str, Any], query: str) -> dict[str, dict[str, float]]:
    """Each candidate's features from the ranker's raw record (`ranker.gather`) and the question's text."""
    dense = {i: float(s) for i, s in record.get("channels", {}).get("dense", [])}
    floor = min(dense.values()) - BELOW_DENSE if dense else 0.0
    middle = median(dense.values()) if dense else 0.0
    q = record.get("query", {})
    is_prose = 1.0 if prose(query) else 0.0
    out: dict[str, dict[str, float]] = {}
    for entry_id, f in record.get("facts", {}).items():
        d = dense.get(entry_id, floor) if dense else 0.0
        out[entry_id] = {
            "dense_prose": d * is_prose,
            "dense_terse": d * (1.0 - is_prose),
            "cov": float(f.get("cov", 0.0)),
            "named": 1.0 if q.get("named", 0) and f.get("ent", 0.0) > 0 else 0.0,
            "dated": 1.0 if q.get("dated") and (f.get("date_in", 0.0) >= 1.0 or f.get("told_in", 0.0) > 0) else 0.0,
            "prose": is_prose,
            "lift": (d - middle) * LIFT_SCALE if dense else 0.0,
            "stranger": 0.0 if q.get("named", 0) else 1.0 - float(f.get("names_cov", 1.0)),
        }
    return out


def score(c: Calibration, x: Mapping[str, float]) -> float:
    return probability(c.intercept + sum(c.weights[n] * x[n] for n in FEATURES))


def relevances(c: Calibration, record: Mapping[str, Any], query: str) -> dict[str, float]:
    return {i: round(score(c, x), 4) for i, x in features(record, query).items()}


def parse(data: Any, source: str) -> Calibration:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RelevanceWeightsError(f"{source}: not a {FORMAT} file")
    weights = data.get("weights")
    if not isinstance(weights, dict) or set(weights) != set(FEATURES):
        raise RelevanceWeightsError(f"{source}: 'weights' must name exactly {list(FEATURES)}")
    numbers = [*weights.values(), data.get("intercept"), data.get("threshold")]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in numbers):
        raise RelevanceWeightsError(f"{source}: weights, intercept and threshold must be finite numbers")
    if not 0.0 < data["threshold"] < 1.0:
        raise RelevanceWeightsError(f"{source}: the threshold is a relevance strictly between 0 and 1")
    embedder = data.get("embedder")
    return Calibration(
        float(data["intercept"]),
        {n: float(weights[n]) for n in FEATURES},
        float(data["threshold"]),
        embedder if isinstance(embedder, str) else None,
    )


@lru_cache(maxsize=4)
def load(path: str | None = None) -> Calibration:
    """The shipped calibration, or the one at `path`; read once per path and process."""
    where = Path(path) if path else WEIGHTS_FILE
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RelevanceWeightsError(f"{where}: cannot read relevance weights ({exc.__class__.__name__})") from exc
    return parse(data, str(where))


@lru_cache(maxsize=8)
def warn_other_model(fitted: str, active: str) -> None:
    """Said once per pair: relevance fitted on one model's similarities and read on another's is a guess."""
    log.warning(
        "relevance was calibrated for %s; the active embedder is %s: refit it (bench/calibrate_relevance.py)",
        fitted,
        active,
    )
