"""Learned fusion: a pairwise linear ranker over the channels' own evidence (queries/search/ranker_features.py).

Weights ship as `queries/search/ranker_weights.json` (retrained by `bench/train_ranker.py` from cached channel outputs);
`MEMORA_RANKER_WEIGHTS` points at another file. The facts read here are about candidates, each read under the
visibility predicate, and about the turns around a candidate that the viewer may see (counted among the visible ones),
so nothing hidden is read or weighed: the same-thread fact compares thread ids (a property of the entry itself), and
recency and the meaning facts are scaled among the visible candidates.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from concurrent.futures import Future
from contextvars import copy_context
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from graph.db import Graph
from graph.keyword_terms import VIEWER_FT_TERMS, VIEWER_NAMES
from graph.settings import Settings
from graph.textnorm import fold, words
from graph.visibility import CAN_SEE, Viewer, mention_seen, visibility_params
from queries.search import ranker_features as rf
from queries.search import turns_around, word_forms
from queries.search.channels import TOP_TEXT_OF_E
from queries.search.fusion import Fused, Hit, coverage, coverage_terms, name_terms
from queries.search.query_constraints import SoftConstraints
from queries.search.run import SEARCH_POOL, SearchRun
from queries.search.scope import SearchScope
from queries.search.understanding.routing import asks_time

log = logging.getLogger(__name__)
WEIGHTS_FILE = Path(__file__).with_name("ranker_weights.json")
PLAIN_TEXT_CHARS = 2000
FORMAT = "memora-ranker/1"
REACHED = 0.5  # `date_in` of an entry written within only the reach of the question's day

# Lexical coverage is over title, body and names. An entry without lent context has exactly those words, folded, in
# `ft_terms` (queries/search/keyword.py), so the statement says which query words it holds and no text travels to be
# folded
# again on every search; a conversation turn (its `ft_terms` hold the context's words too) or an entry written before
# `ft_terms` existed returns its text. An entry deleted while the statement reads it shows no properties: its text is
# then empty, never null.
_COUNTED = "e.ft_terms IS NOT NULL AND coalesce(e.context, '') = '' AS counted"
# Question marks, sentence ends and words of the entry's text, as `ranker_features.marks` counts them.
SHAPE = """[s IN [reduce(s = coalesce(e.title, '') + ' ' + coalesce(e.body, ''), m IN ['?', '.', '!']
                 | replace(replace(s, m + m, m), m + m, m))]
        | [size(split(s, '?')) - 1, size(split(s, '?')) + size(split(s, '.')) + size(split(s, '!')) - 3,
           size(split(trim(s), ' '))]][0]"""
# What the ranker reads about one visible candidate `e` (with `counted` in scope). `alike`: the cosine of the dense
# channel's query vector (`$alike`) with its best chunk, -1 when it has no vector yet. `plain` (title and body) also
# comes back for an entry of at most `$text_chars` characters: band diversity compares the pool's words, and a search
# whose pool is all short entries (conversation turns) then needs no read of its own.
_FACTS_OF_E = f"""
       CASE WHEN counted THEN [i IN range(0, size($cov_terms) - 1)
            WHERE any(f IN $cov_forms[i] WHERE {VIEWER_FT_TERMS} CONTAINS ' ' + f + ' ')
            | $cov_terms[i]] END AS present,
       CASE WHEN NOT counted OR size(coalesce(e.body, '')) <= $text_chars
            THEN coalesce(e.title, '') + ' ' + coalesce(e.body, '') END AS plain,
       CASE WHEN NOT counted THEN coalesce({VIEWER_NAMES}, '') END AS names,
       toLower(coalesce(e.author_id, '')) AS author, e.thread_id AS thread,
       toString(e.occurred_start) AS start, toString(e.occurred_end) AS end,
       [i IN range(0, size(coalesce(e.told_starts, [])) - 1)
        | [toString(e.told_starts[i]), toString(e.told_ends[i])]] AS told,
       size([(e)-[fm:MENTIONS]->(x) WHERE x.id IN $entity_ids AND {mention_seen("fm")} | x]) AS matched,
       CASE WHEN e.id = $top_id THEN {TOP_TEXT_OF_E} END AS top_text,
       {SHAPE} AS marks,
       CASE WHEN $alike IS NOT NULL THEN reduce(best = -1.0, s IN [(c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
            | vector.similarity.cosine(c[$prop], $alike)] | CASE WHEN s > best THEN s ELSE best END) END AS alike"""

CANDIDATE_FACTS = f"""
UNWIND $ids AS id
MATCH (e:Entry {{id: id}}) WHERE {CAN_SEE}
WITH e, {_COUNTED}
RETURN e.id AS id, {_FACTS_OF_E}
"""


class RankerWeightsError(ValueError):
    """The weights file is missing, unreadable or does not fit the features this code computes."""


@dataclass(frozen=True)
class Ranker:
    channels: tuple[str, ...]
    weights: np.ndarray
    protect_top: bool
    source: str

    def score(self, record: Mapping[str, Any]) -> tuple[list[str], np.ndarray]:
        ids, x = rf.build(record, self.channels)
        return ids, x @ self.weights


def parse_weights(data: Any, source: str) -> Ranker:
    """A Ranker from the file's JSON, refusing anything that would score silently wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RankerWeightsError(f"{source}: not a {FORMAT} weights file")
    channels = data.get("channels")
    if (
        not isinstance(channels, list)
        or not channels
        or not all(isinstance(c, str) and c for c in channels)
        or len(set(channels)) != len(channels)
    ):
        raise RankerWeightsError(f"{source}: 'channels' must be a list of distinct channel names")
    weights = data.get("weights")
    if not isinstance(weights, dict):
        raise RankerWeightsError(f"{source}: 'weights' must map feature names to numbers")
    expected = rf.feature_names(channels)
    missing = [n for n in expected if n not in weights]
    unknown = [n for n in weights if n not in expected]
    if missing or unknown:
        raise RankerWeightsError(
            f"{source}: weights do not fit the features (missing {missing[:5]}, "
            f"unknown {unknown[:5]}); retrain with bench/train_ranker.py"
        )
    values = [weights[n] for n in expected]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        raise RankerWeightsError(f"{source}: every weight must be a finite number")
    return Ranker(tuple(channels), np.array(values, dtype=float), bool(data.get("protect_top", True)), source)


@lru_cache(maxsize=8)
def load_ranker(path: str | None = None) -> Ranker:
    """The shipped weights, or those at `path`; cached per path (a file is read once per process)."""
    where = Path(path) if path else WEIGHTS_FILE
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RankerWeightsError(f"{where}: cannot read ranker weights ({exc.__class__.__name__})") from exc
    return parse_weights(data, str(where))


def _day(value: str | None) -> date | None:
    """A date the statement sent as ISO text: the driver builds a Python object per temporal value it receives,
    about 4 µs each, several hundred a search."""
    return date.fromisoformat(value) if value is not None else None


def _date_in(start: date | None, end: date | None, soft: SoftConstraints) -> float:
    """1 when the entry's written date meets the question's own, REACHED when only its reach (a day or two later)."""
    if start is None or end is None:
        return 0.0
    if any(end >= lo and start <= hi for lo, hi in soft.own_spans):
        return 1.0
    return REACHED if any(end >= lo and start <= hi for lo, hi in soft.spans) else 0.0


def _told_in(told: list[list[str]], soft: SoftConstraints) -> float:
    """1 when a time the entry's text tells lies within the question's date (the told clock, as the channels test
    it), else 0."""
    if not told:
        return 0.0
    spans = [(date.fromisoformat(a), date.fromisoformat(b)) for a, b in told]
    return 1.0 if any(lo <= a and b <= hi for a, b in spans for lo, hi in soft.own_spans) else 0.0


def facts_params(
    query: str, soft: SoftConstraints, top_id: str | None, alike: list[float] | None = None, prop: str | None = None
) -> dict[str, Any]:
    """The parameters of the facts projection, besides visibility (CANDIDATE_FACTS): the query's content words and,
    for each, the forms that count as it (queries/search/word_forms.py); the vector the dense channel searched with
    and its model's chunk property, when it ran."""
    terms = list(dict.fromkeys(coverage_terms(query)))
    return {
        "alike": alike,
        "prop": prop,
        "entity_ids": list(soft.entity_ids),
        "top_id": top_id,
        "text_chars": PLAIN_TEXT_CHARS,
        "cov_terms": terms,
        "cov_forms": [list(word_forms.forms(t)) for t in terms],
    }


class Gathered(NamedTuple):
    record: dict[str, Any]
    top_text: str | None
    texts: dict[str, str]


def gather(
    graph: Graph,
    query: str,
    results: Mapping[str, list[Hit]],
    soft: SoftConstraints,
    viewer: Viewer,
    top_id: str | None = None,
    alike: list[float] | None = None,
    prop: str | None = None,
    scope: SearchScope | None = None,
    settings: Settings | None = None,
) -> Gathered:
    """The raw record `ranker_features.build` reads: channel lists plus facts about each candidate. Facts are read
    under the visibility predicate too: an entry hidden since a channel found it contributes nothing. With it, the
    text of the candidate `top_id` (the keyword channel's best hit, whose words set that channel's weight), read in
    the same statement: None when it is not a visible candidate; and the title and body of the candidates of at
    most PLAIN_TEXT_CHARS characters, by id (what ENTRY_TEXTS would read). With `alike` (the vector the dense channel
    searched with) and `prop` (its model's chunk property), each candidate's `alike` fact: its best chunk's cosine
    with that vector, scaled to [0, 1] over the visible candidates (`scaled`). The dense channel scores only the
    entries it returned; this scores every candidate, so one found by its words, its date or its thread alone is
    weighed by its meaning too. 0 for an entry without a vector yet, and for every candidate when the dense channel
    did not run. With the search's `scope` too, `alike_after` and `alike_before`: the same cosine for the turns around
    a conversation turn (queries/search/turns_around.py, from the viewer's kept view when `settings` allow one), on
    the candidates' scale (`on_scale`)."""
    channels = {c: [[h.id, h.score] for h in hits] for c, hits in results.items() if hits}
    record: dict[str, Any] = {
        "query": {
            "n_words": len(query.split()),
            "named": len(soft.entity_ids),
            "author": bool(soft.author_keys),
            "dated": soft.dated,
            "asks_time": asks_time(fold(query)),
        },
        "channels": channels,
        "facts": {},
    }
    ids = rf.candidate_ids(record)
    params = {"ids": ids, **facts_params(query, soft, top_id, alike, prop), **visibility_params(viewer)}
    neighbours = around(graph, scope, settings, prop, ids, alike)
    rows = graph.read(CANDIDATE_FACTS, params) if ids else []
    neighbours = neighbours.result() if isinstance(neighbours, Future) else neighbours
    if not rows:
        return Gathered(record, None, {})
    terms = coverage_terms(query)
    names = name_terms(query)
    tops = {hits[0][0] for c, hits in channels.items() if c != "thread"}
    top_threads = [r["thread"] for r in rows if r["id"] in tops and r["thread"]]
    days = [(_day(r["start"]), _day(r["end"])) for r in rows]
    ends = {d: n for n, d in enumerate(sorted({end for _, end in days if end is not None}))}
    span = max(len(ends) - 1, 1)
    authors = set(soft.author_keys)
    named = {key for _, key in soft.people_named}
    own = {r["id"]: float(r["alike"]) for r in rows if r["alike"] is not None and r["alike"] >= 0}
    likeness = scaled(own)
    bounds = (min(own.values()), max(own.values())) if own else None
    for r, (start, end) in zip(rows, days, strict=True):
        others = sum(1 for t in top_threads if t == r["thread"]) - (1 if r["id"] in tops and r["thread"] else 0)
        present = (
            set(r["present"])
            if r["present"] is not None
            else word_forms.present(terms + names, set(words(r["plain"] + " " + r["names"])))
        )
        record["facts"][r["id"]] = {
            "cov": round(coverage(terms, present), 4),
            "names_cov": round(coverage(names, present), 4) if names else 1.0,
            "ent": round(r["matched"] / len(soft.entity_ids), 4) if soft.entity_ids else 0.0,
            "author": 1.0 if authors and r["author"] in authors else 0.0,
            "by_named": 1.0 if named and fold(r["author"]) in named else 0.0,
            "date_in": _date_in(start, end, soft),
            "told_in": _told_in(r["told"], soft),
            "tells": 1.0 if r["told"] else 0.0,
            "same_thread": 1.0 if others > 0 else 0.0,
            "recency": round(ends[end] / span, 4) if end is not None and len(ends) > 1 else 0.5,
            **rf.shape(*r["marks"]),
            "alike": likeness.get(r["id"], 0.0),
            "alike_after": on_scale(neighbours.get(r["id"], ([], []))[0], bounds),
            "alike_before": on_scale(neighbours.get(r["id"], ([], []))[1], bounds),
        }
    return Gathered(
        record,
        next((r["top_text"] for r in rows if r["top_text"] is not None), None),
        {r["id"]: r["plain"] for r in rows if r["plain"] is not None},
    )


def around(
    graph: Graph,
    scope: SearchScope | None,
    settings: Settings | None,
    prop: str | None,
    ids: list[str],
    vector: list[float] | None,
) -> turns_around.Around | Future[turns_around.Around]:
    """The turns around the candidates (queries/search/turns_around.py): from the viewer's kept view at once, or
    `TURNS_AROUND` read beside the candidates' statement; none without a scope or a query vector."""
    if scope is None or vector is None or prop is None or not ids:
        return {}
    if settings is not None and (kept := turns_around.from_view(graph, settings, scope, prop, ids, vector)) is not None:
        return kept
    return SEARCH_POOL.submit(copy_context().run, turns_around.by_statement, graph, scope, prop, ids, vector)


def scaled(sims: dict[str, float]) -> dict[str, float]:
    """Min-max over the candidates that have a similarity (only visible ones are read): all 0 when level."""
    if not sims:
        return {}
    lo, hi = min(sims.values()), max(sims.values())
    if hi <= lo:
        return dict.fromkeys(sims, 0.0)
    return {i: round((s - lo) / (hi - lo), 4) for i, s in sims.items()}


def on_scale(sims: list[float] | None, bounds: tuple[float, float] | None) -> float:
    """The best of the neighbours' similarities on the candidates' own scale (`scaled`'s bounds), held within
    [0, 1]: 0 when there is none or the candidates are level."""
    if not sims or bounds is None or bounds[1] <= bounds[0]:
        return 0.0
    lo, hi = bounds
    return round(min(1.0, max(0.0, (max(sims) - lo) / (hi - lo))), 4)


def probability(score: float) -> float:
    """The ranker's raw score as a number in (0, 1) (a logistic, so the order is the same): a result's `score` stays
    positive and bounded like every other fused score the API has returned."""
    if score >= 0:
        return 1.0 / (1.0 + math.exp(-score))
    z = math.exp(score)
    return z / (1.0 + z)


def order(record: Mapping[str, Any], ranker: Ranker, rrf_order: list[Fused], k: int) -> list[Fused]:
    """The RRF candidates re-ordered by the ranker's score (ties keep the RRF order); with `protect_top`, every
    channel's best hit is kept inside the first `k` (after the ones the ranker put there), so a channel that is
    clearly right cannot be out-voted off the page."""
    if not rrf_order:
        return []
    ids, scores = ranker.score(record)
    by_id = dict(zip(ids, scores.tolist(), strict=True))
    position = {f.id: n for n, f in enumerate(rrf_order)}
    ranked = sorted(rrf_order, key=lambda f: (-by_id.get(f.id, -math.inf), position[f.id]))
    out = [Fused(f.id, round(probability(by_id.get(f.id, 0.0)), 6), f.channels) for f in ranked]
    if ranker.protect_top and k > 0:
        out = _protect(out, record, k)
    return out


def _protect(ranked: list[Fused], record: Mapping[str, Any], k: int) -> list[Fused]:
    """Make room on the first page for channel top hits ranked below it, by moving the page's lowest unprotected
    candidates just after it."""
    protected = {hits[0][0] for c, hits in record["channels"].items() if c != "thread" and hits}
    page, below = ranked[:k], ranked[k:]
    outside = [f for f in below if f.id in protected]
    if not outside or len(protected) > k:
        return ranked
    free = [n for n, f in enumerate(page) if f.id not in protected][-len(outside) :]
    bumped = [page[n] for n in free]
    kept = [f for n, f in enumerate(page) if n not in set(free)]
    return kept + outside + bumped + [f for f in below if f.id not in protected]


def apply(
    run: SearchRun, record: Mapping[str, Any] | None, fused: list[Fused], rrf_weights: Mapping[str, float]
) -> list[Fused]:
    """Search's fusion step: `fused` (the RRF order) re-ordered by the ranker when the search's fusion is
    "learned", from the `record` `gather` read (None when neither the ranker nor a capture wants one). The
    options' `capture`, when given, receives the raw record (bench/capture_fusion.py caches it to train
    offline)."""
    if record is None:
        return fused
    options, settings = run.options, run.settings
    if options.capture is not None:
        options.capture.append({**record, "rrf_weights": dict(rrf_weights)})
    if (options.fusion or settings.fusion) != "learned" or not fused:
        return fused
    try:
        ranker = load_ranker(settings.ranker_weights)
    except RankerWeightsError as exc:
        log.warning("learned fusion unavailable: %s", exc)  # the path and reason go to the log, not to the caller
        run.warnings.append("learned fusion unavailable (the ranker weights file does not fit): fused by RRF")
        return fused
    return order(record, ranker, fused, options.k)
