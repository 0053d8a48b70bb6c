"""The retrieval channels as named, parameterised Cypher statements; every one filters by `ENTRY_SCOPE`.

`ENTRY_SCOPE` = the project scope + the caller's hard filters + the one visibility predicate, evaluated inside the
query, so nothing the viewer cannot see is ever ranked, counted or returned. `QUERY_SCOPE` adds the constraints the
query itself implied (dates, people, places, author), which the search relaxes when they leave nothing.
"""

from __future__ import annotations

from typing import Any

from graph.clocks import told_within
from graph.db import Graph
from graph.periods import PERIOD_NAME
from graph.visibility import CAN_SEE, CAN_SEE_IN_PROJECT, MENTION_COUNT, VIEWER_IN_PROJECT, can_see, mention_seen
from queries.search import keyword
from queries.search.fusion import Hit

_SEEN = mention_seen("fm")
_FILTERS = f"""e.project_id IN $project_ids
  AND ($date_from IS NULL OR e.occurred_end >= $date_from)
  AND ($date_to IS NULL OR e.occurred_start <= $date_to)
  AND ($intimacy_levels IS NULL OR e.intimacy IN $intimacy_levels)
  AND ($author_ids IS NULL OR e.author_id IN $author_ids)
  AND ($kinds IS NULL OR e.kind IN $kinds)
  AND ($tags IS NULL OR any(t IN e.tags WHERE t IN $tags))
  AND ($period_id IS NULL
       OR EXISTS {{ MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {{id: $period_id}}) }})
  AND ($person_ids IS NULL OR EXISTS {{ MATCH (e)-[fm:MENTIONS]->(x:Person) WHERE x.id IN $person_ids AND {_SEEN} }})
  AND ($place_ids IS NULL OR EXISTS {{ MATCH (e)-[fm:MENTIONS]->(x:Place) WHERE x.id IN $place_ids AND {_SEEN} }})"""
ENTRY_SCOPE = f"""{_FILTERS}
  AND {CAN_SEE}"""
# The same over ONE project (`$project_id`, also in `$project_ids`), in a statement that starts with VIEWER_IN_PROJECT
# and carries its variables to here (graph/visibility.py): the viewer is looked up once, not once per entry.
ENTRY_SCOPE_IN_PROJECT = f"""{_FILTERS}
  AND {CAN_SEE_IN_PROJECT}"""

# A recurring date (`$q_occ`: one occurrence per year from `$q_occ_base`, see queries/search/query_constraints.py) keeps
# an entry dated in any year's occurrence, or telling a time that lies within one ("en junio", told in September).
# An entry dated more vaguely than a season (a year, a span of more than COARSE_DAYS days) can neither match nor miss
# "in August": it is kept, but the structured channel does not list it.
COARSE_DAYS = 120

# A question's date matches either clock: the entry's date (when it was written) overlaps it, or a time its text
# tells (`told_starts`/`told_ends`, ingest/event_times.py: "ayer" in an entry of 2010-06-02 is 2010-06-01) lies
# within it (graph/clocks.py); a day's reach past it (`$q_to`) is the written clock's alone (`$q_told_to`).
_DATES = f"""((($q_from IS NULL OR e.occurred_end >= $q_from) AND ($q_to IS NULL OR e.occurred_start <= $q_to))
       OR {told_within("e", "q_from", "q_told_to")})"""
_NAMED = f"""(size($q_entity_ids) = 0 OR EXISTS {{ MATCH (e)-[qm:MENTIONS]->(x) WHERE x.id IN $q_entity_ids
                                             AND {mention_seen("qm")} }})"""
_OTHERS = f"""
  AND (size($q_author_keys) = 0 OR toLower(e.author_id) IN $q_author_keys)
  AND ($q_occ IS NULL OR (e.occurred_start IS NOT NULL
       AND (e.occurred_end > e.occurred_start + duration({{days: {COARSE_DAYS}}})
            OR any(y IN range(e.occurred_start.year - 1, e.occurred_end.year)
                   WHERE y >= $q_occ_base AND $q_occ[y - $q_occ_base] IS NOT NULL
                     AND e.occurred_end >= $q_occ[y - $q_occ_base][0]
                     AND e.occurred_start <= $q_occ[y - $q_occ_base][1])
            OR any(i IN range(0, size(coalesce(e.told_starts, [])) - 1)
                   WHERE e.told_starts[i].year >= $q_occ_base
                     AND $q_occ[e.told_starts[i].year - $q_occ_base] IS NOT NULL
                     AND e.told_starts[i] >= $q_occ[e.told_starts[i].year - $q_occ_base][0]
                     AND e.told_ends[i] <= $q_occ[e.told_starts[i].year - $q_occ_base][1]))))"""
_CONSTRAINTS = f"""
  AND {_DATES}
  AND {_NAMED}{_OTHERS}"""
QUERY_SCOPE = f"""{ENTRY_SCOPE}{_CONSTRAINTS}"""


# Chunks in the projects of the scope, hidden ones included: cheap (an index), and when even they are few enough
# the exact path is certain. Only past the threshold does the count of visible chunks decide, since whether dense
# similarity is exact must not depend on hidden entries.
PROJECT_CHUNKS = "MATCH (c:Chunk) WHERE c.project_id IN $project_ids RETURN count(c) AS n"
_SCOPE_COUNTS = "RETURN sum(COUNT { MATCH (c:Chunk)-[:OF]->(e) }) AS n, count(e) AS visible"
SCOPE_CHUNKS = f"""
MATCH (e:Entry) WHERE {ENTRY_SCOPE}
{_SCOPE_COUNTS}
"""
# A third of the time over one project's 100,000 entries (docs/BENCHMARKS.md).
SCOPE_CHUNKS_IN_PROJECT = f"""{VIEWER_IN_PROJECT}
MATCH (e:Entry) WHERE {ENTRY_SCOPE_IN_PROJECT}
{_SCOPE_COUNTS}
"""


def one_project(params: dict[str, Any]) -> dict[str, Any]:
    """`params` with `$project_id` set when the scope is one project (what the statements over one project read)."""
    ids = params.get("project_ids") or []
    return {**params, "project_id": ids[0]} if len(ids) == 1 else params


def scope_chunks(params: dict[str, Any]) -> str:
    """The statement that counts the visible entries of the scope and their chunks, for `one_project(params)`."""
    ids = params.get("project_ids") or []
    return SCOPE_CHUNKS_IN_PROJECT if len(ids) == 1 and params.get("project_id") == ids[0] else SCOPE_CHUNKS


# What bounds the index path's over-fetch: every chunk, those without this model's vector too, so the count store
# answers at once (counting the vectors reads every chunk: 0.6 s at 100,000). A fetch of that many is the whole index.
INDEXED_CHUNKS = "MATCH (c:Chunk) RETURN count(c) AS n"

_DENSE_RANK = """
MATCH (c:Chunk)-[:OF]->(e)
WHERE c[$prop] IS NOT NULL
WITH e, c, vector.similarity.cosine(c[$prop], $vector) AS sim
ORDER BY sim DESC
WITH e, head(collect({id: c.id, sim: sim})) AS best
RETURN e.id AS id, best.sim AS score, best.id AS chunk_id
ORDER BY score DESC, id LIMIT $limit
"""
DENSE_EXACT = f"""
MATCH (e:Entry) WHERE {QUERY_SCOPE}{_DENSE_RANK}"""
# QUERY_SCOPE's entries for a question that names people, places or things (`$q_entity_ids` not empty): only entries
# mentioning one of them can meet it, so they are reached from the entities (which meets `_NAMED`), and the dates,
# mere properties, are tested before the rest. Planned from `Entry` (or from every `Chunk`) a statement tests the
# mention on every entry of the project: 0.8 s at 100,000 entries, against 0.1-0.2 s (docs/BENCHMARKS.md).
_MENTIONED_SCOPE = f"""
CALL () {{
  MATCH (x:Person) WHERE x.id IN $q_entity_ids RETURN x
  UNION MATCH (x:Place) WHERE x.id IN $q_entity_ids RETURN x
  UNION MATCH (x:Thing) WHERE x.id IN $q_entity_ids RETURN x
}}
MATCH (e:Entry)-[qm:MENTIONS]->(x) WHERE e.project_id IN $project_ids AND {mention_seen("qm")}
WITH DISTINCT e WHERE {_DATES}
WITH e WHERE {ENTRY_SCOPE}{_OTHERS}"""
DENSE_EXACT_MENTIONED = _MENTIONED_SCOPE + _DENSE_RANK

# The index's own scores are those of its quantised vectors (`vector.quantization.enabled`, Neo4j's default), so
# near neighbours come back in a slightly wrong order and a global top-`$fetch` can cut between them. The candidates
# the viewer may see are re-scored exactly, as DENSE_EXACT scores them, and every row also carries `cut`, the lowest
# index score among them, and `err`, the largest gap between an index score and its exact one: an unfetched chunk
# scores at most `cut + err` exactly, so hits above that are certain (queries/search/dense.py). Both come from visible
# candidates only. The entry is reached from each candidate in a subquery: as a plain MATCH the planner starts from
# the scope's entries (its index on `project_id`) and checks every candidate against every entry, O(fetch x scope).
DENSE_INDEX = f"""
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node AS c, score
CALL {{ WITH c MATCH (c)-[:OF]->(e:Entry) RETURN e }}
WITH c, score, e WHERE {QUERY_SCOPE}
WITH e, c, score, vector.similarity.cosine(c[$prop], $vector) AS sim
WITH collect({{e: e, c: c.id, sim: sim}}) AS rows, min(score) AS cut, max(abs(score - sim)) AS err
UNWIND rows AS r
WITH r, cut, err ORDER BY r.sim DESC
WITH r.e AS e, head(collect(r)) AS best, cut, err
RETURN e.id AS id, best.sim AS score, best.c AS chunk_id, cut, err
ORDER BY score DESC, id LIMIT $limit
"""

SPARSE = f"""
MATCH (e:Entry) WHERE {QUERY_SCOPE}
MATCH (c:Chunk)-[:OF]->(e) WHERE c.sparse_tokens IS NOT NULL AND c.embedding_model = $model
WITH e, c, reduce(s = 0.0, i IN range(0, size(c.sparse_tokens) - 1) |
                  s + coalesce($weights[c.sparse_tokens[i]], 0.0) * c.sparse_weights[i]) AS score
WHERE score > 0
WITH e, max(score) AS score
RETURN e.id AS id, score
ORDER BY score DESC, id LIMIT $limit
"""

# Candidates for keyword ranking; queries/search/keyword.py ranks them with statistics of visible entries only.
FULLTEXT = keyword.statement(QUERY_SCOPE)
# The same over ONE project (`$project_id`, also in `$project_ids`): `VIEWER_IN_PROJECT` looks the viewer's membership
# up once, not once per candidate (graph/visibility.py; tests/privacy/test_visibility_in_project.py proves the
# predicates equal). The index's candidates are thousands per query in a large project: there this is most of the time.
FULLTEXT_IN_PROJECT = VIEWER_IN_PROJECT + keyword.statement(f"""{_FILTERS}
  AND {CAN_SEE_IN_PROJECT}{_CONSTRAINTS}""")
# A constrained question's candidates named by the kept view (`$among`), in the scope of FULLTEXT_IN_PROJECT.
FULLTEXT_AMONG = VIEWER_IN_PROJECT + keyword.among_statement(f"""{_FILTERS}
  AND {CAN_SEE_IN_PROJECT}{_CONSTRAINTS}""")
FULLTEXT_VISIBLE = keyword.count_statement(QUERY_SCOPE)
FULLTEXT_VISIBLE_MENTIONED = f"{_MENTIONED_SCOPE}\nRETURN count(e) AS visible"


def fulltext_visible(params: dict[str, Any]) -> str:
    """The statement that counts BM25's N for these parameters: from the entities a question names, if any; for an
    unconstrained question the count of the scope that the dense channel and the kept view read too (one count per
    viewer and generation, queries/search/scope_counts.py)."""
    if params.get("q_entity_ids"):
        return FULLTEXT_VISIBLE_MENTIONED
    dated = any(params.get(k) is not None for k in ("q_from", "q_to", "q_occ"))
    return FULLTEXT_VISIBLE if dated or params.get("q_author_keys") else scope_chunks(params)


# Only a selective result is used (at most `$limit` entries, queries/search/door.py), so the scan stops at `$limit + 1`:
# `total` is then "more than the limit", and a broad constraint costs no full pass over the project.
_STRUCTURED_RANK = f"""
  AND ($q_occ IS NULL OR e.occurred_end <= e.occurred_start + duration({{days: {COARSE_DAYS}}}))
WITH e LIMIT $limit + 1
OPTIONAL MATCH (e)-[m:MENTIONS]->(x) WHERE x.id IN $rank_entity_ids AND {mention_seen("m")}
WITH e, count(DISTINCT x) AS matched, sum(coalesce({MENTION_COUNT}, 0)) AS mentions
WITH e, matched + 0.01 * mentions AS score
ORDER BY score DESC, e.occurred_start DESC, e.id
WITH collect({{id: e.id, score: score}}) AS hits
RETURN size(hits) AS total, hits[0..$limit] AS hits
"""
STRUCTURED = f"""
MATCH (e:Entry) WHERE {QUERY_SCOPE}{_STRUCTURED_RANK}"""
# A question naming people, places or things: from their mentions (`_MENTIONED_SCOPE`).
STRUCTURED_MENTIONED = _MENTIONED_SCOPE + _STRUCTURED_RANK

# The closest turns before and after each seed in its conversation that the viewer may see (by position, not by
# [:NEXT], which would stop at a hidden turn and so tell that one is there).
THREAD_NEIGHBOURS = f"""
UNWIND range(0, size($seeds) - 1) AS i
MATCH (s:Entry {{id: $seeds[i]}}) WHERE s.thread_id IS NOT NULL
CALL (s) {{
  MATCH (e:Entry {{thread_id: s.thread_id}})
  WHERE (e.thread_pos > s.thread_pos OR (e.thread_pos = s.thread_pos AND e.id > s.id)) AND {QUERY_SCOPE}
  RETURN e ORDER BY e.thread_pos, e.id LIMIT 1
  UNION
  MATCH (e:Entry {{thread_id: s.thread_id}})
  WHERE (e.thread_pos < s.thread_pos OR (e.thread_pos = s.thread_pos AND e.id < s.id)) AND {QUERY_SCOPE}
  RETURN e ORDER BY e.thread_pos DESC, e.id DESC LIMIT 1
}}
WITH e, i WHERE NOT e.id IN $seeds
WITH e, min(i) AS r"""
THREAD = f"""{THREAD_NEIGHBOURS}
RETURN e.id AS id, 1.0 / (1 + r) AS score
ORDER BY r, id LIMIT $limit
"""

# Which of the filter's authors wrote an entry the viewer may see (a warning for the others, hidden or missing).
VISIBLE_AUTHORS = f"""
MATCH (e:Entry) WHERE e.project_id IN $project_ids AND e.author_id IN $author_ids AND {CAN_SEE}
RETURN DISTINCT e.author_id AS a
"""

# The text whose share of the query's words sets the keyword channel's weight (queries/search/fusion.py: `Cue`),
# read with the candidates' facts, which every search gathers (queries/search/ranker.py, queries/search/relevance.py).
TOP_TEXT_OF_E = "coalesce(e.title, '') + ' ' + e.body"

RECENT = f"""
MATCH (e:Entry) WHERE {ENTRY_SCOPE}
RETURN e.id AS id, 0.0 AS score
ORDER BY coalesce(e.occurred_end, date(e.created_at)) DESC, e.updated_at DESC, id LIMIT $limit
"""

# A turn of a conversation carries the last few turns before it that the viewer may see (`before`, newest first, at
# most `$reply_reach`): the message it answers is the latest of them by someone else (queries/search/replies.py). Only
# visible turns are counted and ordered, so a hidden turn changes neither which one is shown nor whether one is.
# The level and author shown are those the predicate checked: a statement reads committed data, so an entry re-levelled
# while it runs could otherwise pass the check as intimate and be shown as private. One that changed between the two
# reads is left out, as it would be by a read after the change.
DETAILS = f"""
UNWIND $ids AS id
MATCH (e:Entry {{id: id}})
WITH e, e.intimacy AS level, e.author_id AS author
WHERE {CAN_SEE} AND e.intimacy = level AND coalesce(e.author_id, '') = coalesce(author, '')
OPTIONAL MATCH (e)-[xm:MENTIONS]->(x) WHERE {mention_seen("xm")}
WITH e, level, author, collect(DISTINCT {{kind: x.kind, name: xm.name}}) AS xs
OPTIONAL MATCH (e)-[:IN_PERIOD]->(per:Period)
WITH e, level, author, xs, collect(DISTINCT per) AS pers
OPTIONAL MATCH (c:Chunk {{id: $chunks[e.id]}})-[:OF]->(e)
WITH e, level, author, xs, pers, c, COLLECT {{
  MATCH (q:Entry {{thread_id: e.thread_id}})
  WHERE (q.thread_pos < e.thread_pos OR (q.thread_pos = e.thread_pos AND q.id < e.id))
  WITH q ORDER BY q.thread_pos DESC, q.id DESC
  WITH q, q.intimacy AS q_level, q.author_id AS q_author
  WHERE {can_see("q")} AND q.intimacy = q_level AND coalesce(q.author_id, '') = coalesce(q_author, '')
  WITH q, q_author LIMIT $reply_reach
  RETURN {{id: q.id, author_id: q_author, text: q.body}} AS turn
}} AS before
RETURN e.id AS id, e.project_id AS project_id, e.title AS title, e.body AS body, author AS author_id,
       level AS intimacy, e.kind AS kind, toString(e.occurred_start) AS occurred_start,
       toString(e.occurred_end) AS occurred_end,
       e.occurred_precision AS occurred_precision, e.tags AS tags,
       [x IN xs WHERE x.kind = 'person' | x.name] AS persons,
       [x IN xs WHERE x.kind = 'place' | x.name] AS places,
       [x IN xs WHERE x.kind = 'thing' | x.name] AS things,
       [p IN pers | {{id: p.id, name: {PERIOD_NAME}}}] AS periods,
       [i IN range(0, size(coalesce(e.told_starts, [])) - 1)
        | {{start: toString(e.told_starts[i]), end: toString(e.told_ends[i])}}] AS told,
       CASE WHEN c IS NULL THEN null ELSE {{id: c.id, ord: c.ord, text: c.text}} END AS chunk,
       before
"""

# An entry deleted while the search reads it may show no body: an empty text, not a failed search.
ENTRY_TEXTS = (
    "UNWIND $ids AS id MATCH (e:Entry {id: id}) RETURN id, coalesce(e.title, '') + ' ' + coalesce(e.body, '') AS text"
)


def run_channel(graph: Graph, statement: str, params: dict[str, Any]) -> tuple[list[Hit], dict[str, str]]:
    """Hits in rank order, plus the best chunk of each entry where the channel knows it."""
    rows = graph.read(statement, params)
    hits = [Hit(r["id"], float(r["score"])) for r in rows]
    chunks = {r["id"]: r["chunk_id"] for r in rows if "chunk_id" in r.keys() and r["chunk_id"]}  # noqa: SIM118
    return hits, chunks


def run_structured(graph: Graph, params: dict[str, Any]) -> tuple[list[Hit], int]:
    """Entries meeting the query's own constraints, and how many there are up to `limit + 1` (its selectivity)."""
    row = graph.read(STRUCTURED_MENTIONED if params.get("q_entity_ids") else STRUCTURED, params)[0]
    return [Hit(h["id"], float(h["score"])) for h in row["hits"]], int(row["total"])
