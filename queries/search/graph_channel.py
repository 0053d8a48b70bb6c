"""The `graph` channel: entries ranked by personalised PageRank over the viewer's visible entry graph.

When the query names entities (or its best dense hits share an entity), a random walk restarts at those entities
(and at the best hits themselves) and spreads over entry-entity, entry-period and conversation-neighbour edges, so an
entry linked to what the query is about through a person, a place, a chapter or a reply can rank although its words
miss the query.

Privacy: the subgraph is read by ONE statement whose every entry passes `QUERY_SCOPE` (which holds `CAN_SEE`), and
every entity and period node is reached only through such an entry. Conversation neighbours are consecutive visible
turns (by position), not `[:NEXT]` edges, which would route around or stop at a hidden turn. So an entry hidden from
the viewer is never a node, never adds to a degree and never changes a rank.
"""

from __future__ import annotations

import math
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import networkx as nx

from graph.db import Graph
from graph.visibility import mention_seen
from queries.search.channel import ChannelAsk, Found, Want
from queries.search.channels import QUERY_SCOPE
from queries.search.fusion import Cue, Hit

SEED_HITS = 5  # the best dense (or keyword) hits that seed the walk
SHARED_MIN = 2  # an entity mentioned by at least this many of them counts as "what the hits share"
MAX_NODES = 3000  # entries read into the walk's graph at most (closest to the seeds first)
ALPHA = 0.85  # damping: the walk restarts at the seeds with probability 1 - ALPHA at each step
THREAD_EDGE = 1.0  # weight of the edge between two consecutive visible turns of one conversation
GRAPH_WEIGHT = 1.0  # the channel's RRF weight (measured, docs/BENCHMARKS.md)

# Visible entries in scope that are in `$core`, mention one of `$entities`, are in one of `$periods` or belong to
# one of `$threads`; those of `$core` first. Each row carries the entry's entities, declared chapters (an automatic one
# only says when, which the temporal constraints already use) and thread position.
NEIGHBOURS = f"""
MATCH (e:Entry) WHERE {QUERY_SCOPE}
  AND (e.id IN $core
       OR EXISTS {{ MATCH (e)-[gm:MENTIONS]->(x) WHERE x.id IN $entities AND {mention_seen("gm")} }}
       OR EXISTS {{ MATCH (e)-[:IN_PERIOD]->(p:Period) WHERE p.id IN $periods }}
       OR (e.thread_id IS NOT NULL AND e.thread_id IN $threads))
WITH e ORDER BY CASE WHEN e.id IN $core THEN 0 ELSE 1 END, e.id
LIMIT $max_nodes
RETURN e.id AS id, e.thread_id AS thread_id, e.thread_pos AS thread_pos,
       [(e)-[gm:MENTIONS]->(x) WHERE {mention_seen("gm")} | x.id] AS entities,
       [(e)-[:IN_PERIOD]->(p:Period) WHERE p.automatic IS NULL | p.id] AS periods
"""


def _neighbours(
    graph: Graph,
    params: dict[str, Any],
    core: Sequence[str] = (),
    entities: Sequence[str] = (),
    periods: Sequence[str] = (),
    threads: Sequence[str] = (),
) -> list[dict[str, Any]]:
    return [
        dict(r)
        for r in graph.read(
            NEIGHBOURS,
            {
                **params,
                "core": list(core),
                "entities": list(entities),
                "periods": list(periods),
                "threads": list(threads),
                "max_nodes": MAX_NODES,
            },
        )
    ]


def shared_entities(links: Sequence[dict[str, Any]]) -> list[str]:
    """Entities mentioned by at least SHARED_MIN of the seed entries."""
    counts = Counter(x for row in links for x in set(row["entities"]))
    return sorted(x for x, n in counts.items() if n >= SHARED_MIN)


def build(rows: Sequence[dict[str, Any]]) -> nx.Graph:
    """Entries, entities and chapters as nodes ("e:", "x:", "p:"); a link to an entity or chapter weighs less the
    more entries share it (1 / log(2 + degree)), so a name in every entry says little about any of them."""
    g = nx.Graph()
    degree: Counter[str] = Counter()
    for row in rows:
        degree.update(f"x:{x}" for x in set(row["entities"]))
        degree.update(f"p:{p}" for p in set(row["periods"]))
    threads: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for row in rows:
        node = f"e:{row['id']}"
        g.add_node(node)
        for other in {*(f"x:{x}" for x in row["entities"]), *(f"p:{p}" for p in row["periods"])}:
            g.add_edge(node, other, weight=1.0 / math.log(2 + degree[other]))
        if row["thread_id"] is not None:
            threads[row["thread_id"]].append((row["thread_pos"] or 0, row["id"]))
    for turns in threads.values():
        turns.sort()
        for (_, a), (_, b) in zip(turns, turns[1:], strict=False):
            g.add_edge(f"e:{a}", f"e:{b}", weight=THREAD_EDGE)
    return g


def personalised_rank(g: nx.Graph, entities: Sequence[str], entries: Sequence[str]) -> list[Hit]:
    """Entries by personalised PageRank from the seed entities (equal shares) and seed entries (by rank), half the
    restart mass each when both are given; ties broken by id."""
    restart: dict[str, float] = {}
    ents = [f"x:{x}" for x in entities if f"x:{x}" in g]
    hits = [f"e:{h}" for h in entries if f"e:{h}" in g]
    share = 0.5 if ents and hits else 1.0
    for x in ents:
        restart[x] = restart.get(x, 0.0) + share / len(ents)
    norm = sum(1.0 / (1 + r) for r in range(len(hits)))
    for r, h in enumerate(hits):
        restart[h] = restart.get(h, 0.0) + share * (1.0 / (1 + r)) / norm
    if not restart:
        return []
    scores = nx.pagerank(g, alpha=ALPHA, personalization=restart, weight="weight")
    ranked = sorted(((n[2:], s) for n, s in scores.items() if n.startswith("e:")), key=lambda t: (-t[1], t[0]))
    return [Hit(i, s) for i, s in ranked]


def run_graph(graph: Graph, params: dict[str, Any], named: Sequence[str], best: Sequence[Hit], limit: int) -> list[Hit]:
    """The channel's hits: empty when the query names no entity the viewer may know of and its best hits share
    none. `params` are the search's scope parameters (viewer, filters, soft constraints); the query's people, places
    and author do not narrow this channel (reaching past them is its job), its dates do."""
    params = {**params, "q_entity_ids": [], "q_author_keys": []}
    seed_entries = [h.id for h in best[:SEED_HITS]]
    links = _neighbours(graph, params, core=seed_entries) if seed_entries else []
    seeds = sorted({*named, *shared_entities(links)})
    if not seeds:
        return []
    seed_entries = [i for i in seed_entries if i in {r["id"] for r in links}]
    # Two steps out: the entries of the seeds, then everything sharing an entity, chapter or conversation with them.
    core = _neighbours(graph, params, core=seed_entries, entities=seeds)
    rows = _neighbours(
        graph,
        params,
        core=[r["id"] for r in core],
        entities=sorted({x for r in core for x in r["entities"]}),
        periods=sorted({p for r in core for p in r["periods"]}),
        threads=sorted({r["thread_id"] for r in core if r["thread_id"] is not None}),
    )
    if not rows:
        return []
    return personalised_rank(build(rows), seeds, seed_entries)[:limit]


class GraphChannel:
    """Seeded by the named entities and the best dense (else keyword) hits; asked for by name only."""

    name = "graph"
    asked_as = "graph"
    seeds: tuple[str, ...] = ("dense", "fulltext")
    by_default = False

    def wanted(self, ask: ChannelAsk) -> Want:
        return Want.NOW if "graph" in ask.asked else Want.NO

    def weight(self, cue: Cue) -> float:
        return GRAPH_WEIGHT

    def run(self, ask: ChannelAsk) -> Found | None:
        t = time.perf_counter()
        best = ask.found.get("dense") or ask.found.get("fulltext") or []
        hits = run_graph(ask.run.graph, ask.scope.params(), ask.parsed.rank_entity_ids, best, ask.limit)
        ask.run.took("graph", t)
        return Found(hits)
