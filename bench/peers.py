"""Peers side by side: this project's search door and neo4j-graphrag's retrievers, in one process, on the
same Neo4j, with the same embedder and the same data.

Usage: .venv/bin/python -m bench.peers [--data DIR] [--only locomo|xquad-es|xquad-en|diary-es] [--json OUT]
       [--exact-queries N]            (or `make bench BENCH_ARGS=...`; needs the `bench` extra: neo4j-graphrag)

Per dev set (loaded like `make eval`: bench.run_evals' `dataset_files` and `ingest_set`), one table of recall@5/10/30,
MRR@10, nDCG@10 and p50/p95 wall-clock milliseconds per query for:
- this project's `hybrid_search` (the search door, with and without understanding), and its fulltext and dense
  channels alone, exactly as `memora eval` runs them;
- neo4j-graphrag's `HybridRetriever` and `VectorRetriever` over their natural setup (bench/peer_corpora.py: their own
  nodes, one vector and one fulltext index per project), with (a) plain passage embeddings of each chunk's text and
  (b) the contextualised vectors this project stores.

Fairness: the systems take turns query by query (load from other processes hits them alike); every time includes
embedding the query (this project's query-embedding cache is off, its result cache is emptied before each search, so
each search takes the production path of a cache miss); one untimed warm-up query per system. The peers get the
question's words as a Lucene OR query (escaped: queries/search/lucene.py), since a raw `?` or `(` would be Lucene
syntax.
A chunk answer is counted as its entry; the peers are asked for enough chunks to return 30 entries.

Then the exact-scan cost (bench/exact_scan.py) on the largest project of the run and on all of its projects as one
scope. Everything the peers created is deleted at the end, also on failure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from api.cli import connect
from api.evaluation import EVAL_VIEWER, EvalQuery, _metrics, _summary, ask
from bench import exact_scan
from bench.run_evals import EXTERNAL, TABLE_HEAD, dataset_files, ingest_set
from graph.db import Graph
from graph.schema import vector_property
from graph.settings import Settings, get_settings
from inference.embedders import CheckedEmbedder, get_embedder
from queries.search import result_cache
from queries.search.lucene import to_lucene
from queries.search.request import SearchOptions

try:
    from bench.peer_corpora import PeerRun
except ImportError as exc:  # the `bench` extra is not installed
    sys.exit(f"error: {exc.name or 'neo4j_graphrag'} is missing: pip install -e '.[bench]' (or run `make bench`)")

K = 30
SETS = ("diary-es",) + EXTERNAL
Search = Callable[[EvalQuery], list[str]]
DOOR = "memora hybrid + understanding (search door)"


def _entries(ranked: list[str | None]) -> list[str]:
    """Chunk answers as entries, first occurrence kept, cut at K."""
    out: list[str] = []
    for e in ranked:
        if e and e not in out:
            out.append(e)
    return out[:K]


def systems(graph: Graph, embedder: CheckedEmbedder, settings: Settings, run: PeerRun) -> list[tuple[str, Search]]:
    cold = settings.model_copy(update={"query_embed_cache_size": 0})

    def memora(channels: tuple[str, ...], understand: bool) -> Search:
        def search(q: EvalQuery) -> list[str]:
            result_cache.clear(graph)
            options = SearchOptions(k=K, channels=channels, understand=understand, now=q.now)
            r = ask(graph, embedder, cold, q, options)
            return [x.entry_id for x in r.results]

        return search

    def hybrid(variant: str) -> Search:
        def search(q: EvalQuery) -> list[str]:
            corpus = run.corpora.get((q.project_id, variant))
            if corpus is None or corpus.hybrid is None or corpus.vector is None:
                return []
            text = to_lucene(q.question)
            if not text:  # nothing for Lucene: the vector half alone
                found = corpus.vector.search(query_text=q.question, top_k=corpus.top_k)
            else:
                vector = corpus.hybrid.embedder.embed_query(q.question) if corpus.hybrid.embedder else None
                found = corpus.hybrid.search(query_text=text, query_vector=vector, top_k=corpus.top_k)
            return _entries([i.metadata.get("entry_id") if i.metadata else None for i in found.items])

        return search

    def vector(variant: str) -> Search:
        def search(q: EvalQuery) -> list[str]:
            corpus = run.corpora.get((q.project_id, variant))
            if corpus is None or corpus.vector is None:
                return []
            found = corpus.vector.search(query_text=q.question, top_k=corpus.top_k)
            return _entries([i.metadata.get("entry_id") if i.metadata else None for i in found.items])

        return search

    return [
        (DOOR, memora(("dense", "fulltext", "structured"), True)),
        ("memora hybrid, no understanding", memora(("dense", "fulltext", "structured"), False)),
        ("memora fulltext alone", memora(("fulltext",), False)),
        ("memora dense alone", memora(("dense",), False)),
        ("graphrag HybridRetriever, contextualised vectors", hybrid("ctx")),
        ("graphrag HybridRetriever, plain vectors", hybrid("plain")),
        ("graphrag VectorRetriever, contextualised vectors", vector("ctx")),
        ("graphrag VectorRetriever, plain vectors", vector("plain")),
    ]


def run_set(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, run: PeerRun, qs: list[EvalQuery]
) -> dict[str, dict[str, Any]]:
    """Every system on every query of one set, taking turns query by query."""
    t = time.perf_counter()
    projects = sorted({q.project_id for q in qs})
    for project in projects:
        run.add_project(graph, embedder, EVAL_VIEWER, project, vector_property(embedder.slug))
    run.open(graph, embedder)
    setup_s = time.perf_counter() - t
    table = systems(graph, embedder, settings, run)
    if qs:
        for name, search in table:  # warm-up, untimed
            t = time.perf_counter()
            search(qs[0])
            print(f"  warm-up {name}: {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
    rows: dict[str, list[dict[str, float]]] = {name: [] for name, _ in table}
    latencies: dict[str, list[float]] = {name: [] for name, _ in table}
    for n, q in enumerate(qs, start=1):
        if n % 50 == 0:
            print(f"  {n}/{len(qs)} queries", file=sys.stderr, flush=True)
        for name, search in table:
            t = time.perf_counter()
            ranked = search(q)
            latencies[name].append((time.perf_counter() - t) * 1000)
            rows[name].append(_metrics(ranked, q.relevant))
    out = {name: _summary(rows[name], latencies[name]) for name, _ in table}
    for name, _ in table:
        ordered = sorted(latencies[name])
        if ordered:
            out[name]["latency_ms"]["p50"] = round(ordered[len(ordered) // 2], 1)
            out[name]["latency_ms"]["p95"] = round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 1)
    out["_setup"] = {
        "peer_setup_s": round(setup_s, 1),
        "peer_chunks": sum(c.chunks for c in run.corpora.values() if c.variant == "plain" and c.project_id in projects),
    }
    return out


def print_table(results: dict[str, dict[str, Any]]) -> None:
    print(TABLE_HEAD.replace("configuration", "system"))
    for name, r in results.items():
        if name.startswith("_"):
            continue
        lat = r.get("latency_ms", {})
        print(
            f"| {name} | {r['recall@5']:.3f} | {r['recall@10']:.3f} | {r['recall@30']:.3f} | {r['mrr@10']:.3f} | "
            f"{r['ndcg@10']:.3f} | {lat.get('p50', 0):.1f} | {lat.get('p95', 0):.1f} |"
        )
    door = results.get(DOOR, {}).get("latency_ms", {}).get("p50")
    peer = results.get("graphrag HybridRetriever, contextualised vectors", {}).get("latency_ms", {}).get("p50")
    if door and peer:
        print(f"\nsearch door p50 / graphrag HybridRetriever (contextualised) p50 = {door / peer:.2f}x")
    sys.stdout.flush()


def exact_scans(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, loaded: dict[str, list[EvalQuery]], n_queries: int
) -> list[dict[str, Any]]:
    """The exact-scan ways on the largest project of the run, then on every project of the run as one scope."""
    by_project: dict[str, list[str]] = {}
    for qs in loaded.values():
        for q in qs:
            by_project.setdefault(q.project_id, []).append(q.question)
    if not by_project or n_queries <= 0:
        return []
    sizes = {p: int(graph.read(exact_scan.ch.PROJECT_CHUNKS, {"project_ids": [p]})[0]["n"]) for p in by_project}
    largest = max(sizes, key=lambda p: (sizes[p], p))
    questions = by_project[largest][:n_queries]
    scopes = [(f"largest project ({largest.rsplit(':', 1)[-1]})", [largest])]
    if len(by_project) > 1:
        scopes.append((f"all {len(by_project)} projects of the run", sorted(by_project)))
    out = []
    for label, projects in scopes:
        r = exact_scan.measure(graph, embedder, settings, EVAL_VIEWER, projects, questions)
        out.append({"label": label, **r})
    return out


def _sample(qs: list[EvalQuery], most: int) -> list[EvalQuery]:
    """Every n-th query, deterministic, so a shorter run still spans the set's categories and projects."""
    if most <= 0 or len(qs) <= most:
        return qs
    step = len(qs) / most
    return [qs[int(i * step)] for i in range(most)]


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _cleanup_only(run_id: str) -> int:
    if not re.fullmatch(r"[0-9a-f]{10}", run_id):
        print(f"error: {run_id!r} is not a peer run id (10 hex digits)", file=sys.stderr)
        return 2
    graph = connect(get_settings())
    run = PeerRun(run_id=run_id)
    run.cleanup(graph)
    print(f"peer run {run_id}: left {run.leftovers(graph)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--data",
        type=Path,
        default=os.environ.get("MEMORA_BENCH_DATA") or None,
        help="folder with locomo-dev/ and xquad-es-dev/ (default: $MEMORA_BENCH_DATA)",
    )
    parser.add_argument("--only", choices=sorted(SETS), action="append", help="run only this set (repeatable)")
    parser.add_argument(
        "--exact-queries",
        type=int,
        default=60,
        help="queries timed per exact-scan way (0: skip the exact-scan measurement)",
    )
    parser.add_argument(
        "--max-queries",
        type=int,
        default=0,
        help="per set, every n-th query so that at most this many run (default 0: all)",
    )
    parser.add_argument(
        "--exact-only",
        action="store_true",
        help="load the sets but measure only the exact-scan cost (no peers, no tables)",
    )
    parser.add_argument("--json", help="write every figure to this file")
    parser.add_argument(
        "--cleanup", metavar="RUN", help="only delete what the peer run RUN left (a run killed with SIGKILL) and exit"
    )
    args = parser.parse_args(argv)
    if args.cleanup:
        return _cleanup_only(args.cleanup)
    sets = {
        name: files for name, files in dataset_files(args.data).items() if files[0].is_file() and files[1].is_file()
    }
    where = f"under {args.data}" if args.data else "(no --data DIR or MEMORA_BENCH_DATA given)"
    missing = [name for name in SETS if name not in sets]
    if missing:
        print(f"absent, skipped {where}: {', '.join(missing)}", file=sys.stderr)
    wanted = [name for name in sets if not args.only or name in args.only]
    for name in args.only or []:
        if name not in sets:
            print(f"error: the set {name} is absent {where}", file=sys.stderr)
            return 2
    settings = get_settings()
    graph = connect(settings)
    embedder = get_embedder(settings)
    embedder.embed_query("warm-up")
    run = PeerRun()
    print(
        f"peer run {run.run_id} (if killed with SIGKILL: python -m bench.peers --cleanup {run.run_id})", file=sys.stderr
    )
    signal.signal(signal.SIGTERM, _terminate)  # `timeout` and kill end it through the cleanup below
    everything: dict[str, Any] = {
        "run": run.run_id,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cores",
        "absent": missing,
        "sets": {},
    }
    loaded: dict[str, list[EvalQuery]] = {}
    try:
        for name in wanted:
            t = time.perf_counter()
            qs = ingest_set(graph, embedder, sets[name])
            print(f"{name}: loaded in {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
            total = len(qs)
            qs = _sample(qs, args.max_queries)
            print(f"\n### {name} ({len(qs)} queries" + (f" of {total}, every n-th" if len(qs) < total else "") + ")\n")
            loaded[name] = qs
            if args.exact_only:
                continue
            t = time.perf_counter()
            results = run_set(graph, embedder, settings, run, qs)
            print(
                f"{name}: peers set up in {results['_setup']['peer_setup_s']} s, all searched in "
                f"{time.perf_counter() - t:.1f} s",
                file=sys.stderr,
                flush=True,
            )
            everything["sets"][name] = results
            print_table(results)
        t = time.perf_counter()
        scans = exact_scans(graph, embedder, settings, loaded, args.exact_queries)
        print(f"exact-scan ways measured in {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
        everything["exact_scan"] = scans
        if scans:
            print("\n### Dense exact-scan cost\n")
            print(exact_scan.table(scans))
    finally:
        run.cleanup(graph)
        everything["leftovers"] = run.leftovers(graph)
        if args.json:
            Path(args.json).write_text(json.dumps(everything, indent=2, default=str))
    if everything["leftovers"]["nodes"] or everything["leftovers"]["indexes"]:
        print(f"error: peer leftovers after cleanup: {everything['leftovers']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
