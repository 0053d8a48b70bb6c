"""Exact-scan threshold and the index path: where the dense channel's vector-index path becomes faster
than its exact scan, and the index path's top-10 recall against exact, alone in the database and as a small part
of it.

    MEMORA_HOME=/tmp/xover-home MEMORA_NEO4J_BOLT_PORT=7831 .venv/bin/python bench/crossover.py \\
        --sizes 1000,5000,20000,40000 --others 60000 --queries 30 --json crossover.json

Run it on a Neo4j of its own (a temporary MEMORA_HOME and bolt port: the managed runtime starts it): the index is
global, so anything else in the database changes what is measured. Two layouts, each grown size by size:
- `alone`: one synthetic project (`bench/synth.py`, seed `--seed`) is the whole index;
- `shared`: the project's chunks share the index with other projects' (the `alone` project, then a background
  project topped up to `--others` chunks), none visible to the viewer.
The viewer is the project's owner (other authors' private entries stay hidden from them). Entries are written by a
bench-only bulk statement, one chunk each, embedded with `bench/hash_embedder.py` (the ingest pipeline would take
hours at these sizes on 2 cores and is measured by bench/scale.py). Each query (the synthetic project's questions,
embedded beforehand: only the similarity step is timed, one untimed warm-up per way) runs through:
- `exact`: `DENSE_EXACT` (queries/search/channels.py), what the channel runs up to `MEMORA_EXACT_SCAN_MAX_CHUNKS`;
- `index_old`: a plain index path (global top-`fetch`, scope filter, index scores, `fetch` grown until `limit`
  visible hits), kept here only to measure what the served path gains over it, on the first `--old-queries` queries only
  (its plan takes seconds per statement once `fetch` reaches thousands);
- `index m=N`: `queries.search.dense.dense` with the threshold forced to 0 and `INDEX_MARGIN` = N (the first fetch aims
  at N x `limit` visible candidates).
Both index ways include the two counts the channel reads before choosing the index (chunks in the project, visible
chunks in scope), as a search pays them; `exact` is the exact statement alone.
Recall is top-10 against `exact`, tie-aware (a hit counts when its exact score reaches exact's 10th). `--json OUT`
writes every row; the table goes to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.percentiles import nearest_rank  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph import generations  # noqa: E402
from graph.db import Graph, get_graph  # noqa: E402
from graph.members import set_member  # noqa: E402
from graph.runtime import Neo4jRuntime  # noqa: E402
from graph.schema import ensure_vector_index, migrate, vector_index_name, vector_property  # noqa: E402
from graph.settings import Settings, get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402
from queries.search import channels as ch  # noqa: E402
from queries.search import dense as dense_module  # noqa: E402
from queries.search.fusion import Hit  # noqa: E402
from queries.search.request import SearchOptions  # noqa: E402
from queries.search.scope import SearchScope  # noqa: E402

LIMIT = SearchOptions().dense_candidates  # the dense channel's depth in a search
BATCH = 1000
WRITE = """
UNWIND $rows AS row
CREATE (e:Entry {id: row.id, project_id: $p, intimacy: row.intimacy, author_id: row.author, kind: row.kind,
                 body: row.text, created_at: datetime()})
CREATE (c:Chunk {id: row.id + '#0', entry_id: row.id, project_id: $p, ord: 0, text: row.text,
                 embedding_model: $model, embedding_status: 'done', created_at: datetime()})
CREATE (c)-[:OF]->(e)
WITH c, row
CALL db.create.setNodeVectorProperty(c, $prop, row.vector)
"""
DROP = """
MATCH (n) WHERE n.project_id = $p OR (n:Project AND n.id = $p)
CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
"""
DROP_USERS = "MATCH (u:User) WHERE u.id IN $users DETACH DELETE u"
# A plain index path (index scores, stop at `limit` visible hits): measured, never served.
DENSE_INDEX_OLD = f"""
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node AS c, score
MATCH (c)-[:OF]->(e:Entry)
WHERE {ch.QUERY_SCOPE}
WITH e, c, score ORDER BY score DESC
WITH e, head(collect({{id: c.id, sim: score}})) AS best
RETURN e.id AS id, best.sim AS score, best.id AS chunk_id
ORDER BY score DESC, id LIMIT $limit
"""


def old_index_path(
    graph: Graph, params: dict[str, Any], indexed: int, base: dict[str, Any]
) -> tuple[list[Hit], dict[str, str]]:
    graph.read(ch.PROJECT_CHUNKS, base)  # the counts the old `_dense` read before choosing the index, as the new
    graph.read(ch.SCOPE_CHUNKS, base)  # one does: both index ways pay for them
    fetch = max(LIMIT * 10, 200)
    while True:
        hits, chunks = ch.run_channel(graph, DENSE_INDEX_OLD, {**params, "fetch": fetch})
        if len(hits) >= LIMIT or fetch >= indexed:
            return hits, chunks
        if fetch >= 20000:
            return ch.run_channel(graph, ch.DENSE_EXACT, params)
        fetch *= 4


class Writer:
    """Bulk-writes synthetic entries (one chunk each, hash-embedded) into one project, in order, as asked."""

    def __init__(
        self, graph: Graph, embedder: CheckedEmbedder, project: str, size: int, seed: int, user_prefix: str
    ) -> None:
        self.graph, self.embedder, self.project = graph, embedder, project
        self.synth = generate(size, seed, project, user_prefix=user_prefix)
        self.written = 0
        for m in self.synth.members:
            set_member(graph, project, m["user_id"], m["role"])

    @property
    def owner(self) -> str:
        return str(self.synth.members[0]["user_id"])

    def grow_to(self, n: int) -> None:
        prop = vector_property(self.embedder.slug)
        while self.written < min(n, len(self.synth.entries)):
            batch = self.synth.entries[self.written : min(n, self.written + BATCH)]
            vectors = self.embedder.embed_passages([e["text"] for e in batch])
            rows = [
                {
                    "id": e["entry_id"],
                    "intimacy": e["intimacy"],
                    "author": e["author"],
                    "kind": e["kind"],
                    "text": e["text"],
                    "vector": [float(x) for x in v],
                }
                for e, v in zip(batch, vectors, strict=True)
            ]
            self.graph.write(WRITE, {"rows": rows, "p": self.project, "prop": prop, "model": self.embedder.model_id})
            self.written += len(batch)
        generations.bump(self.graph, [self.project])  # as every write path does: kept views are stale now
        self.graph.run_auto("CALL db.awaitIndexes(600)")

    def drop(self) -> None:
        self.graph.run_auto(DROP, {"p": self.project})
        self.graph.write(DROP_USERS, {"users": [m["user_id"] for m in self.synth.members]})


def recall_at_10(exact: list[Hit], found: list[Hit]) -> float:
    """Share of exact's top 10 that `found`'s top 10 holds, ties at exact's 10th score counted as found."""
    if not exact:
        return 1.0
    truth = {h.id: h.score for h in exact}
    cut = exact[min(10, len(exact)) - 1].score - 1e-6
    good = sum(1 for h in found[:10] if truth.get(h.id, -2.0) >= cut)
    return min(good, min(10, len(exact))) / min(10, len(exact))


def measure(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    project: str,
    owner: str,
    questions: list[str],
    margins: list[int],
    layout: str,
    old_queries: int,
) -> list[dict[str, Any]]:
    """One row per way: p50/p95 ms per query, top-10 recall against exact, index round trips per query."""
    viewer = Viewer(user_id=owner)
    prop = vector_property(embedder.slug)
    scope = SearchScope(viewer, (project,))
    base = scope.params()
    params = {
        **base,
        "prop": prop,
        "model": embedder.model_id,
        "limit": LIMIT,
        "index": vector_index_name(embedder.slug),
    }
    visible = int(graph.read(ch.SCOPE_CHUNKS, base)[0]["n"])
    in_project = int(graph.read(ch.PROJECT_CHUNKS, base)[0]["n"])
    indexed = int(graph.read(ch.INDEXED_CHUNKS, {"prop": prop})[0]["n"])
    forced = settings.model_copy(update={"exact_scan_max_chunks": 0, "dense_matrix_viewers": 0})
    in_numpy = settings.model_copy(update={"dense_matrix_viewers": max(settings.dense_matrix_viewers, 1)})
    dense_module.indexed_counts(graph).clear()  # the index grew since the last size: count it again
    rounds = [0]
    real_read = graph.read

    def counting(statement: str, p: dict[str, Any] | None = None) -> Any:
        rounds[0] += statement in (ch.DENSE_INDEX, DENSE_INDEX_OLD)
        return real_read(statement, p)

    ways: dict[str, Callable[[dict[str, Any]], tuple[list[Hit], dict[str, str]]]] = {
        "exact": lambda q: ch.run_channel(graph, ch.DENSE_EXACT, q),
        "index_old": lambda q: old_index_path(graph, q, indexed, base),
        # queries/search/dense_matrix.py: the viewer's visible vectors kept in the service (listed once, in the warm-up)
        "numpy": lambda q: dense_module.dense(graph, embedder, in_numpy, scope, q["vector"], LIMIT),
    }
    for m in margins:

        def run(q: dict[str, Any], m: int = m) -> tuple[list[Hit], dict[str, str]]:
            dense_module.INDEX_MARGIN = m
            return dense_module.dense(graph, embedder, forced, scope, q["vector"], LIMIT)

        ways[f"index m={m}"] = run
    vectors = [[float(x) for x in embedder.embed_query(q)] for q in questions]
    times: dict[str, list[float]] = {w: [] for w in ways}
    recalls: dict[str, list[float]] = {w: [] for w in ways}
    trips: dict[str, int] = dict.fromkeys(ways, 0)
    margin_before = dense_module.INDEX_MARGIN
    graph.read = counting  # type: ignore[method-assign,assignment]
    try:
        for fn in ways.values():  # warm-up, untimed
            fn({**params, "vector": vectors[0]})
        for n, v in enumerate(vectors):
            q = {**params, "vector": v}
            truth: list[Hit] = []
            for w, fn in ways.items():
                if w == "index_old" and n >= old_queries:
                    continue
                rounds[0] = 0
                t = time.perf_counter()
                hits, _ = fn(q)
                times[w].append((time.perf_counter() - t) * 1000)
                trips[w] += rounds[0]
                if w == "exact":
                    truth = hits
                recalls[w].append(recall_at_10(truth, hits))
    finally:
        graph.read = real_read  # type: ignore[method-assign]
        dense_module.INDEX_MARGIN = margin_before
    return [
        {
            "layout": layout,
            "visible_chunks": visible,
            "project_chunks": in_project,
            "indexed_chunks": indexed,
            "project_share": round(in_project / max(1, indexed), 3),
            "way": w,
            "queries": len(times[w]),
            "p50_ms": nearest_rank(times[w], 0.5, digits=2),
            "p95_ms": nearest_rank(times[w], 0.95, digits=2),
            "mean_ms": round(statistics.fmean(times[w]), 2),
            "recall_at_10": round(statistics.fmean(recalls[w]), 4),
            "index_round_trips": round(trips[w] / len(times[w]), 2),
        }
        for w in ways
    ]


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| layout | visible chunks | project share of index | way | p50 ms | p95 ms | top-10 recall vs exact "
        "| index round trips |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['layout']} | {r['visible_chunks']:,} | {r['project_share']:.0%} | {r['way']} | "
            f"{r['p50_ms']} | {r['p95_ms']} | {r['recall_at_10']:.3f} | {r['index_round_trips']} |"
        )
    return "\n".join(lines)


def crossovers(rows: list[dict[str, Any]], way: str) -> dict[str, int | None]:
    """Per layout, the smallest visible chunk count at which `way` has a lower p50 than exact."""
    out: dict[str, int | None] = {}
    for layout in dict.fromkeys(r["layout"] for r in rows):
        here = [r for r in rows if r["layout"] == layout]
        exact = {r["visible_chunks"]: r["p50_ms"] for r in here if r["way"] == "exact"}
        faster = sorted(
            r["visible_chunks"] for r in here if r["way"] == way and r["p50_ms"] < exact[r["visible_chunks"]]
        )
        out[layout] = faster[0] if faster else None
    return out


def grow_and_measure(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    writer: Writer,
    sizes: list[int],
    questions: list[str],
    margins: list[int],
    layout: str,
    old_queries: int,
) -> list[dict[str, Any]]:
    """The writer's project grown to each size in turn and measured there, each size's table printed."""
    rows: list[dict[str, Any]] = []
    for size in sizes:
        writer.grow_to(size)
        print(f"[{layout} {size}] measuring", file=sys.stderr, flush=True)
        rows += measure(
            graph, embedder, settings, writer.project, writer.owner, questions, margins, layout, old_queries
        )
        print(table(rows[-len(margins) - 2 :]), file=sys.stderr, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000,20000,40000", help="entries (= chunks) of the project")
    parser.add_argument("--others", type=int, default=60000, help="chunks of other projects in the shared layout")
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument(
        "--old-queries",
        type=int,
        default=5,
        help="queries timed on the old index path (its plan is slow: seconds per query)",
    )
    parser.add_argument("--margins", default="2", help="INDEX_MARGIN values to measure (comma-separated)")
    parser.add_argument("--layouts", default="alone,shared")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--prefix", default="xover", help="of every project and user id (tests pass their own)")
    parser.add_argument("--keep", action="store_true", help="keep the projects written")
    args = parser.parse_args(argv)
    try:
        sizes = sorted(int(s) for s in args.sizes.split(",") if s.strip())
        margins = [int(m) for m in args.margins.split(",") if m.strip()]
    except ValueError:
        parser.error("--sizes and --margins are comma-separated integers")
    layouts = [x for x in args.layouts.split(",") if x]
    if not sizes or min(sizes) < 20 or not margins or min(margins) < 1 or set(layouts) - {"alone", "shared"}:
        parser.error("sizes of at least 20, margins of at least 1, layouts among alone,shared")
    settings = get_settings()
    if settings.managed_neo4j:
        Neo4jRuntime(settings).start()
    graph = get_graph(settings)
    migrate(graph)
    embedder = CheckedEmbedder(HashEmbedder())
    ensure_vector_index(graph, embedder.slug, embedder.dimensions)
    run = f"{args.prefix}{uuid.uuid4().hex[:6]}-"
    result: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "load_average_start": os.getloadavg(),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "limit": LIMIT,
        "sizes": sizes,
        "others": args.others,
        "margins": margins,
        "rows": [],
    }
    writers: list[Writer] = []
    try:
        alone = Writer(graph, embedder, f"{run}alone", max(sizes), args.seed, f"{run}a-")
        writers.append(alone)
        questions = [q["question"] for q in alone.synth.queries][: args.queries]
        if "alone" in layouts:
            result["rows"] += grow_and_measure(
                graph, embedder, settings, alone, sizes, questions, margins, "alone", args.old_queries
            )
        if "shared" in layouts:
            alone.grow_to(max(sizes))
            background = Writer(
                graph, embedder, f"{run}background", max(1, args.others - max(sizes)), args.seed + 1, f"{run}b-"
            )
            writers.append(background)
            if args.others > max(sizes):
                background.grow_to(args.others - max(sizes))
            shared = Writer(graph, embedder, f"{run}shared", max(sizes), args.seed + 2, f"{run}s-")
            writers.append(shared)
            questions = [q["question"] for q in shared.synth.queries][: args.queries]
            result["rows"] += grow_and_measure(
                graph, embedder, settings, shared, sizes, questions, margins, "shared", args.old_queries
            )
    finally:
        if not args.keep:
            for w in writers:
                w.drop()
    result["load_average_end"] = os.getloadavg()
    result["crossover_visible_chunks"] = {f"index m={m}": crossovers(result["rows"], f"index m={m}") for m in margins}
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result["rows"]))
    print(
        "crossover (smallest visible chunk count where the index path's p50 beats exact):",
        json.dumps(result["crossover_visible_chunks"]),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
