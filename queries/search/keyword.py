"""Keyword ranking over what the viewer may see: the fulltext index only selects candidates, BM25 ranks them.

Lucene's own score weighs each word by its rarity in the whole index (every project, every private entry), so both
the number it returns and the order it gives would change when entries hidden from the viewer are added. Here every
statistic comes from the viewer's visible entries in scope: N is how many there are, a word's document frequency and
the average length come from the visible entries the index matched (which are all visible entries holding any of the
words, up to `RESCORED`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from graph.db import Graph
from graph.keyword_terms import VIEWER_FT_LEN, VIEWER_FT_TERMS, VIEWER_INDEXED_TEXT
from graph.textnorm import words
from queries.search import scope_counts
from queries.search.fusion import STOPWORDS, Hit
from queries.search.lucene import to_lucene
from queries.search.scope import SearchScope

K1 = 1.2
B = 0.75
RESCORED = 1000  # visible candidates rescored: Lucene's best, in its own order (docs/SECURITY.md)
TEXT_CHARS = 8000  # of each candidate's indexed text, for term frequencies (BM25 saturates long before)

# What both candidate statements return for an entry `e`: its length and each query term's count, or its text, as
# the viewer may read them (graph/keyword_terms.py: a witness does not count names declared for members only).
_CANDIDATE = f"""WITH e, {VIEWER_FT_TERMS} AS ft, {VIEWER_FT_LEN} AS ft_len
RETURN e.id AS id, ft_len AS length,
       [t IN $terms | (size(ft) - size(replace(ft, ' ' + t + ' ', ''))) / (size(t) + 2)] AS tf,
       CASE WHEN ft IS NULL THEN left({VIEWER_INDEXED_TEXT}, $chars) END AS text
"""


# The same candidates scored by BM25 in the statement: only the best `$limit` (and whatever ties the last of them,
# within two millionths) leave the database, with the statistics Python needs to score them again exactly (`scored`).
# A candidate written before `ft_terms` existed is counted in Python from its text: then `legacy` > 0 and the caller
# runs the candidate statement instead.
_SCORED = (
    f"WITH e, {VIEWER_FT_TERMS} AS ft, {VIEWER_FT_LEN} AS ft_len"
    + """
WITH collect({id: e.id, length: coalesce(ft_len, 0), legacy: ft IS NULL,
       tf: [t IN $terms | (size(ft) - size(replace(ft, ' ' + t + ' ', ''))) / (size(t) + 2)]}) AS rows
WITH rows, size(rows) AS n, size([r IN rows WHERE r.legacy]) AS legacy,
     reduce(s = 0, r IN rows | s + r.length) AS total_length,
     [i IN range(0, size($terms) - 1) | size([r IN rows WHERE r.tf[i] > 0])] AS df
WITH rows, n, legacy, total_length, df,
     CASE WHEN total_length = 0 THEN 1.0 ELSE toFloat(total_length) / n END AS avg,
     CASE WHEN $visible > n THEN $visible ELSE n END AS big_n
WITH rows, n, legacy, total_length, df, avg,
     [d IN df | CASE WHEN d = 0 THEN 0.0 ELSE log(1 + (big_n - d + 0.5) / (d + 0.5)) END] AS idf
CALL (rows, legacy, avg, idf) {
  UNWIND CASE WHEN legacy > 0 THEN [] ELSE rows END AS r
  WITH r, reduce(s = 0.0, i IN range(0, size(idf) - 1) | s + CASE WHEN r.tf[i] > 0
         THEN idf[i] * r.tf[i] * ($k1 + 1) / (r.tf[i] + $k1 * (1 - $b + $b * r.length / avg)) ELSE 0.0 END) AS score
  ORDER BY score DESC
  RETURN collect({id: r.id, length: r.length, tf: r.tf, score: score}) AS ranked
}
WITH n, legacy, total_length, df, ranked,
     CASE WHEN size(ranked) > $limit THEN ranked[$limit - 1].score - 0.000002 ELSE -1.0 END AS floor
RETURN n, legacy, total_length, df, [h IN ranked WHERE h.score >= floor] AS top
"""
)


# The index matched the entry's `names` too; a witness reads them without the names declared for members only, so an
# entry the index found only through such a name holds none of the query's terms for them.
WITNESS_HOLDS_A_TERM = """($witness_period_id IS NULL OR e.w_ft_terms IS NULL
       OR any(t IN $terms WHERE e.w_ft_terms CONTAINS ' ' + t + ' '))"""


def statement(scope: str) -> str:
    """The first `$pool` visible entries in scope the index matched, with each query term's count in their indexed
    text: counted in the statement from `ft_terms` (graph/textnorm.py: `term_string`), so no text leaves the
    database. An entry written before `ft_terms` existed (until `memora migrate` fills it in) returns its text,
    counted in Python.

    The index yields its hits best first, so the limit stops the scope check at the `$pool`-th visible one: a
    question whose words are in most of a large project (a name every entry lists) no longer checks every hit. Up
    to `$pool` visible matches this is every one of them, as before; past it, Lucene's order picks which."""
    return f"""
CALL db.index.fulltext.queryNodes('entry_text_v2', $lucene) YIELD node AS e, score
WHERE {scope}
  AND {WITNESS_HOLDS_A_TERM}
WITH e, score LIMIT $pool
{_CANDIDATE}"""


def among_statement(scope: str) -> str:
    """The entries `$among` names that contain a query term, with the same columns as `statement`: the candidates
    of a constrained question, taken from the viewer's kept view (queries/search/keyword_view.py) instead of the index.
    The scope is still tested on each, so the list only narrows what the viewer may see."""
    return f"""
UNWIND $among AS among_id
MATCH (e:Entry {{id: among_id}})
WHERE {scope}
  AND ({VIEWER_FT_TERMS} IS NULL OR any(t IN $terms WHERE {VIEWER_FT_TERMS} CONTAINS ' ' + t + ' '))
{_CANDIDATE}"""


def count_statement(scope: str) -> str:
    """How many entries in scope the viewer may see: BM25's N."""
    return f"MATCH (e:Entry) WHERE {scope} RETURN count(e) AS visible"


def query_terms(text: str, limit: int = 64) -> list[str]:
    """Content words of the query (function words only when it has nothing else): a function word matches nearly
    every entry, adds almost nothing to BM25 and would make every visible entry a candidate."""
    terms = list(dict.fromkeys(words(text)))
    content = [t for t in terms if t not in STOPWORDS]
    return (content or terms)[:limit]


@dataclass(frozen=True)
class Stats:
    """The candidates' statistics when `bm25` scores only some of them: how many, their summed length, and each
    term's document frequency among them."""

    n: int
    total_length: int
    df: dict[str, int]


def bm25(
    rows: list[dict[str, Any]], terms: list[str], limit: int, visible: int, stats: Stats | None = None
) -> list[Hit]:
    """Okapi BM25 of each candidate for `terms`, with N (`visible`), document frequencies and average length of
    the rows, or of all the candidates `stats` describes when `rows` are only the best of them."""
    if not rows or not terms:
        return []
    wanted = set(terms)
    counts: list[Counter[str]] = []
    lengths: list[int] = []
    for row in rows:
        if row.get("text") is None and row.get("tf") is not None:
            counts.append(Counter({t: int(f) for t, f in zip(terms, row["tf"], strict=True) if f}))
            lengths.append(int(row["length"] or 0))
            continue
        tokens = words(row["text"] or "")
        counts.append(Counter(t for t in tokens if t in wanted))
        lengths.append(int(row["length"]) if row["length"] else len(tokens))
    if stats is None:
        stats = Stats(len(rows), sum(lengths), dict(Counter(t for c in counts for t in c)))
    n_visible = max(visible, stats.n)
    avg = (stats.total_length / stats.n) or 1.0
    df = stats.df
    idf = {t: math.log(1 + (n_visible - df[t] + 0.5) / (df[t] + 0.5)) for t in df}
    hits = []
    for row, tf, length in zip(rows, counts, lengths, strict=True):
        norm = K1 * (1 - B + B * length / avg)
        score = sum(idf[t] * f * (K1 + 1) / (f + norm) for t, f in tf.items())
        hits.append(Hit(row["id"], round(score, 6)))
    hits.sort(key=lambda h: (-h.score, h.id))
    return hits[:limit]


def forms(stmt: str) -> list[str]:
    """What this module may send for the named statement `stmt`: itself, and its scored form when it is a keyword
    candidate statement (a warm start plans both)."""
    return [stmt, scored(stmt)] if _CANDIDATE in stmt else [stmt]


@lru_cache(maxsize=32)
def scored(stmt: str) -> str:
    """The candidate statement `stmt` (`statement` or `among_statement`) with BM25 scored inside it."""
    if _CANDIDATE not in stmt:
        raise ValueError("not a keyword candidate statement")
    return stmt.replace(_CANDIDATE, _SCORED)


def run_keyword(
    graph: Graph, stmt: str, count_stmt: str, scope: SearchScope, text: str, limit: int, visible: int | None = None
) -> list[Hit]:
    """`visible`, when the caller knows it (a kept view), is BM25's N; else `count_stmt` counts it."""
    params = scope.params()
    terms = query_terms(text)
    lucene = to_lucene(" ".join(terms))
    if not lucene:
        return []
    found = _top(graph, stmt, count_stmt, scope, {"lucene": lucene, "pool": RESCORED}, terms, limit, visible)
    if found is not None:
        return found
    rows = [
        dict(r)
        for r in graph.read(stmt, {**params, "lucene": lucene, "terms": terms, "pool": RESCORED, "chars": TEXT_CHARS})
    ]
    return _ranked(graph, count_stmt, scope, rows, terms, limit, visible)


def run_keyword_among(
    graph: Graph,
    stmt: str,
    count_stmt: str,
    scope: SearchScope,
    text: str,
    limit: int,
    among: list[str],
    visible: int | None = None,
) -> list[Hit]:
    """`run_keyword` over the entries `among` names (at most `RESCORED`, so the index would have yielded every one
    of them that it matches): an entry counted in Python (no `ft_terms` yet) is a candidate only if a term is in
    it."""
    terms = query_terms(text)
    if not among or not to_lucene(" ".join(terms)):
        return []
    found = _top(graph, stmt, count_stmt, scope, {"among": among}, terms, limit, visible)
    if found is not None:
        return found
    wanted = set(terms)
    rows = [dict(r) for r in graph.read(stmt, {**scope.params(), "among": among, "terms": terms, "chars": TEXT_CHARS})]
    rows = [r for r in rows if r["text"] is None or wanted & set(words(r["text"]))]
    return _ranked(graph, count_stmt, scope, rows, terms, limit, visible)


def _top(
    graph: Graph,
    stmt: str,
    count_stmt: str,
    scope: SearchScope,
    extra: dict[str, Any],
    terms: list[str],
    limit: int,
    visible: int | None,
) -> list[Hit] | None:
    """BM25 in the statement: its best `limit` candidates (and near ties), scored again here by `bm25` from the
    statistics of every candidate, so that scores and order are exactly those of the rows ranked in Python. None
    when a candidate still lacks `ft_terms` (its text must be counted here: the caller reads the rows). N is counted
    from the scope alone (kept per viewer), never from the words in `extra`."""
    n_visible = visible if visible is not None else visible_count(graph, count_stmt, scope)
    row = graph.read(
        scored(stmt),
        {**scope.params(), **extra, "terms": terms, "visible": n_visible, "limit": limit, "k1": K1, "b": B},
    )[0]
    if row["legacy"]:
        return None
    if not row["n"]:
        return []
    stats = Stats(
        n=int(row["n"]),
        total_length=int(row["total_length"]),
        df={t: int(d) for t, d in zip(terms, row["df"], strict=True) if d},
    )
    return bm25(row["top"], terms, limit, n_visible, stats)


def _ranked(
    graph: Graph,
    count_stmt: str,
    scope: SearchScope,
    rows: list[dict[str, Any]],
    terms: list[str],
    limit: int,
    visible: int | None,
) -> list[Hit]:
    """BM25 over the candidate rows; N is counted only when there is something to rank and the caller did not know
    it."""
    if not rows:
        return []
    return bm25(rows, terms, limit, visible if visible is not None else visible_count(graph, count_stmt, scope))


def visible_count(graph: Graph, count_stmt: str, scope: SearchScope) -> int:
    """N for BM25: it depends on the scope, not on the words (kept per viewer: queries/search/scope_counts.py)."""
    return scope_counts.count(graph, scope.viewer, count_stmt, scope.params(), "visible")
