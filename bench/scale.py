"""Scale benchmark: one synthetic project per size, ingested, indexed, served and searched.

    .venv/bin/python bench/scale.py --sizes 1000,10000 --json scale.json [--embedder hash|default] [--seconds 15]
                                    [--plot scale.png] [--seed 1] [--keep] [--server-log scale-server.log]

For each size (`bench/synth.py`, one project each, deleted afterwards unless `--keep`):
1. ingest throughput: the same entries written once without embedding (into a throwaway copy, chunks left pending)
   and once with the chosen embedder inline (`ingest.pipeline.Ingestor`, batches of 64), in entries/s;
2. index population: a fresh vector index over the stored vectors of that model, from CREATE to ONLINE (it covers
   every chunk of the database holding that model's vector: run on a Neo4j of its own, see docs/BENCHMARKS.md);
3. searches through the HTTP API of `bench/scale_server.py` (the app of `memora serve`, workers off, search and
   query-embedding caches off so that every search does all its work) as the project's owner: one client in turn,
   then 8 concurrent async clients, each phase bounded by `--seconds`; the entity questions one at a time;
4. the dense channel's top-10 (`channels: ["dense"]`, by its own score) against an exact numpy scan over the same
   stored vectors of the entries the owner may see, and that scan's own time (the floor any index must approach);
5. resident memory (VmRSS) of the service process and of the managed Neo4j after the searches.

`--embedder hash` (default) embeds with `bench/hash_embedder.py`, fast enough for 100,000 entries and never the
graph's active model; `default` uses the graph's active model (e5 by default) as `memora serve` does. `--json OUT`
writes `{"sizes": [...]}` with the figures of docs/BENCHMARKS.md, "Scale"; `--plot` draws latency against size.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api import auth  # noqa: E402
from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.scale_load import ExactScan, dense_recall, load, percentile, rss_mb  # noqa: E402
from bench.serving import free_port, stop_process, wait_ready  # noqa: E402
from bench.synth import SynthProject, generate  # noqa: E402
from graph.db import Graph  # noqa: E402
from graph.entities import upsert_entity  # noqa: E402
from graph.members import set_member  # noqa: E402
from graph.runtime import Neo4jRuntime, listener_pid  # noqa: E402
from graph.schema import ensure_vector_index, vector_property  # noqa: E402
from graph.settings import Settings, get_settings  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402
from ingest.pipeline import Ingestor  # noqa: E402
from ingest.records import parse_line  # noqa: E402
from queries.search.dense_channel import DENSE_FLOORS  # noqa: E402

SERVER_ENV = {
    "MEMORA_RATE_SEARCH_PER_SECOND": "0",
    "MEMORA_RATE_WRITE_PER_SECOND": "0",
    "MEMORA_RATE_AUTH_FAILURES_PER_MINUTE": "0",
    "MEMORA_SEARCH_CACHE_SECONDS": "0",
    "MEMORA_QUERY_EMBED_CACHE_SIZE": "0",
    "MEMORA_EMBED_WORKER": "false",
    "MEMORA_SEARCH_LOG_SAMPLE": "0",
}
DROP_PROJECT = """
MATCH (n) WHERE n.project_id = $p OR (n:Project AND n.id = $p)
CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS
"""
WARM_UP_ENTRIES = 20  # ingested and dropped first: a process's first batch pays for loading the language pipelines
DROP_USERS = "MATCH (u:User) WHERE u.id IN $users DETACH DELETE u"
# The population index is built over a label of its own set on this size's chunks only: a second index on
# (:Chunk, property) is refused by Neo4j, and the model's own index must stay (it serves every other project).
POPULATION_LABEL = "BenchScalePopulation"
POPULATION_INDEX = "bench_scale_population"
LABEL_CHUNKS = f"""
MATCH (c:Chunk) WHERE c.project_id = $p AND c[$prop] IS NOT NULL
CALL {{ WITH c SET c:{POPULATION_LABEL} }} IN TRANSACTIONS OF 5000 ROWS
"""
UNLABEL_CHUNKS = f"""
MATCH (c:{POPULATION_LABEL})
CALL {{ WITH c REMOVE c:{POPULATION_LABEL} }} IN TRANSACTIONS OF 5000 ROWS
"""
COUNT_LABELLED = f"MATCH (c:{POPULATION_LABEL}) RETURN count(c) AS n"
INDEX_STATE = "SHOW INDEXES YIELD name, state WHERE name = $name RETURN state"


@contextmanager
def scale_server(
    embedder: str, log: Path, startup: float = 180, env: dict[str, str] | None = None
) -> Iterator[tuple[str, int]]:
    """`bench/scale_server.py` in a subprocess on a free loopback port: (its URL, its pid). `env` is added to the
    service's environment last (bench/serve_ab.py compares settings that way)."""
    port = free_port()
    sink = log.open("w", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "scale_server.py"), "--port", str(port), "--embedder", embedder],
        cwd=ROOT,
        env={**os.environ, **SERVER_ENV, **(env or {})},
        stdout=sink,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, url, log, startup, "the scale server")
        yield url, proc.pid
    finally:
        stop_process(proc, grace=20)
        sink.close()


def neo4j_pid(settings: Settings) -> int | None:
    """The managed Neo4j's process (None for a NEO4J_URI server elsewhere)."""
    if not settings.managed_neo4j:
        return None
    return Neo4jRuntime(settings).pid() or listener_pid(settings.neo4j_bolt_port)


def drop_project(graph: Graph, project: str, users: list[str]) -> None:
    graph.run_auto(DROP_PROJECT, {"p": project})
    graph.write(DROP_USERS, {"users": users})


def set_up(graph: Graph, project: str, synth: SynthProject) -> None:
    """The project's members and declared names (kinship aliases), before its entries are linked."""
    for m in synth.members:
        set_member(graph, project, m["user_id"], m["role"])
    for e in synth.entities:
        upsert_entity(graph, project, e["kind"], e["name"], e["aliases"])


def index_population(graph: Graph, project: str, prop: str, dimensions: int) -> dict[str, Any]:
    """Seconds from CREATE to ONLINE of a fresh vector index over this project's stored vectors (dropped after)."""
    graph.run_auto(f"DROP INDEX {POPULATION_INDEX} IF EXISTS")
    graph.run_auto(LABEL_CHUNKS, {"p": project, "prop": prop})
    try:
        chunks = int(graph.read(COUNT_LABELLED)[0]["n"])
        t = time.perf_counter()
        graph.run_auto(
            f"CREATE VECTOR INDEX {POPULATION_INDEX} FOR (n:{POPULATION_LABEL}) ON (n.{prop}) OPTIONS "
            f"{{indexConfig: {{`vector.dimensions`: {int(dimensions)}, "
            "`vector.similarity_function`: 'cosine'}}"
        )
        while True:
            rows = graph.read(INDEX_STATE, {"name": POPULATION_INDEX})
            if rows and rows[0]["state"] == "ONLINE":
                break
            if rows and rows[0]["state"] == "FAILED":
                raise RuntimeError("the population index failed")
            time.sleep(0.05)
        seconds = time.perf_counter() - t
    finally:
        graph.run_auto(f"DROP INDEX {POPULATION_INDEX} IF EXISTS")
        graph.run_auto(UNLABEL_CHUNKS)
    return {"seconds": round(seconds, 2), "chunks": chunks}


def ingest(
    graph: Graph, embedder: CheckedEmbedder, rows: list[dict[str, Any]], project: str, embed: bool
) -> tuple[float, Any]:
    records = [
        (
            i,
            parse_line(
                i,
                json.dumps(
                    {**r, "project_id": project, "entry_id": project + r["entry_id"][r["entry_id"].index("/") :]}
                ),
            ),
        )
        for i, r in enumerate(rows, start=1)
    ]
    t = time.perf_counter()
    report = Ingestor(graph, embedder, embed=embed).ingest(records)
    return time.perf_counter() - t, report


def run_size(
    graph: Graph, settings: Settings, embedder: CheckedEmbedder, kind: str, size: int, args: argparse.Namespace
) -> dict[str, Any]:
    prefix = f"{args.prefix}{uuid.uuid4().hex[:6]}-"
    project = f"{prefix}synth{size}"
    synth = generate(size, args.seed, project, user_prefix=prefix)
    users = [m["user_id"] for m in synth.members]
    owner = users[0]
    out: dict[str, Any] = {"entries": size, "embedder": embedder.model_id, "seed": args.seed}
    raw = f"{project}-raw"
    stages: dict[str, float] = out.setdefault("stage_seconds", {})
    clock = [time.perf_counter()]

    def stage(name: str) -> None:
        now = time.perf_counter()
        stages[name] = round(now - clock[0], 1)
        clock[0] = now

    try:
        # warm-up (language pipelines, lexicons, the embedder), not timed
        set_up(graph, raw, synth)
        ingest(graph, embedder, synth.entries[:WARM_UP_ENTRIES], raw, embed=True)
        drop_project(graph, raw, [])
        set_up(graph, raw, synth)
        set_up(graph, project, synth)
        stage("set_up_and_warm_up")
        seconds, report = ingest(graph, embedder, synth.entries, raw, embed=False)
        out["ingest_write_only_entries_per_s"] = round(report.written / seconds, 1)
        drop_project(graph, raw, [])
        seconds, report = ingest(graph, embedder, synth.entries, project, embed=True)
        out["ingest_entries_per_s"] = round(report.written / seconds, 1)
        out["ingest_seconds"] = round(seconds, 1)
        out["chunks_embedded"], out["chunks_pending"] = report.chunks_embedded, report.chunks_pending
        stage("ingest")
        print(
            f"[{size}] ingested: {out['ingest_write_only_entries_per_s']} entries/s write-only, "
            f"{out['ingest_entries_per_s']} with {kind} embedding",
            file=sys.stderr,
            flush=True,
        )
        prop = vector_property(embedder.slug)
        out["index_population"] = index_population(graph, project, prop, embedder.dimensions)
        out["index_population_s"] = out["index_population"]["seconds"]
        scan = ExactScan(graph, project, owner, prop)
        out["chunks_visible_to_owner"] = scan.chunks
        stage("index_population_and_exact_matrix")
        token = auth.issue(settings, owner)
        by_category: dict[str, list[str]] = {}
        for q in synth.queries:
            by_category.setdefault(q["category"], []).append(q["question"])
        searches = [{"q": q, "project_id": project, "k": 10} for q in by_category["content"] + by_category["filtered"]]
        entity = [{"q": q, "project_id": project, "k": 10} for q in by_category["entity"]]
        floor = settings.dense_floor if settings.dense_floor is not None else DENSE_FLOORS.get(embedder.slug, 0.0)
        with scale_server(kind, Path(args.server_log)) as (url, pid):
            stage("server_start")
            load(url, token, searches[:4], clients=1, seconds=60, max_calls=4)  # warm-up: connections, models
            one = load(url, token, searches, clients=1, seconds=args.seconds)
            # calls in flight at the end may take long under 8 clients: they finish (up to 2 minutes) rather than
            # being cancelled and left running in the service during the next phase
            eight = load(url, token, searches, clients=8, seconds=args.seconds, grace=120)
            stage("search_phases")
            answers: list[dict[str, Any]] = []
            questions = load(
                url, token, entity, clients=1, seconds=args.seconds, max_calls=len(entity) * 3, answers=answers
            )
            recall, numpy_ms, skipped = dense_recall(
                url, token, project, by_category["content"][: args.recall_queries], embedder, scan, floor
            )
            out["service_rss_mb"], out["service_peak_rss_mb"] = rss_mb(pid)
            stage("entity_questions_and_recall")
        out["neo4j_rss_mb"], out["neo4j_peak_rss_mb"] = rss_mb(neo4j_pid(settings))
        s1, s8, eq = one.summary(), eight.summary(), questions.summary()
        out["search_1"] = {
            k: s1[k]
            for k in (
                "n",
                "p50_ms",
                "p95_ms",
                "p99_ms",
                "errors",
                "unfinished",
                "server_p50_ms",
                "server_stages_p50_ms",
            )
        }
        out["search_8"] = {
            k: s8[k] for k in ("n", "qps", "p50_ms", "p95_ms", "p99_ms", "errors", "unfinished", "server_p50_ms")
        }
        out["entity_question"] = {k: eq[k] for k in ("n", "p50_ms", "p95_ms", "errors", "unfinished")}
        out["entity_question"]["answered"] = sum(1 for a in answers if a.get("answer"))
        out["numpy_exact"] = {
            "p50_ms": percentile(numpy_ms, 50),
            "p95_ms": percentile(numpy_ms, 95),
            "chunks": scan.chunks,
        }
        out["dense_recall_vs_exact"] = recall
        out["dense_recall_queries"] = len(numpy_ms)
        out["dense_recall_skipped"] = skipped  # the understanding found a constraint: another scope
        out["dense_floor"] = floor
        print(
            f"[{size}] search p50 {s1['p50_ms']} ms, 8 clients {s8['qps']}/s, recall {recall}",
            file=sys.stderr,
            flush=True,
        )
    finally:
        if not args.keep:
            drop_project(graph, project, users)
        drop_project(graph, raw, [])
    return out


def plot(sizes: list[dict[str, Any]], path: Path) -> None:
    """Latency against size (log-log): search p50/p95 with one client, p95 with 8, numpy exact p50."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for embedder in sorted({s["embedder"] for s in sizes}):
        rows = sorted((s for s in sizes if s["embedder"] == embedder), key=lambda s: s["entries"])
        x = [s["entries"] for s in rows]
        for label, get in (
            ("search p50, 1 client", lambda s: s["search_1"]["p50_ms"]),
            ("search p95, 1 client", lambda s: s["search_1"]["p95_ms"]),
            ("search p95, 8 clients", lambda s: s["search_8"]["p95_ms"]),
            ("numpy exact p50", lambda s: s["numpy_exact"]["p50_ms"]),
        ):
            ax.plot(x, [get(s) for s in rows], marker="o", label=f"{label} ({embedder.split(':')[0]})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("entries in the project")
    ax.set_ylabel("ms")
    ax.set_title("Memora Graph: latency against size")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--embedder", choices=("hash", "default"), default="hash")
    parser.add_argument("--seconds", type=float, default=15.0, help="per search phase (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--plot", type=Path, help="PNG of latency against size (needs the `plot` extra)")
    parser.add_argument("--keep", action="store_true", help="keep each size's project")
    parser.add_argument("--server-log", default="scale-server.log")
    parser.add_argument("--recall-queries", type=int, default=20, help="content questions for the recall check")
    parser.add_argument("--append", action="store_true", help="add to the sizes already in --json (another embedder)")
    parser.add_argument("--prefix", default="scale", help="of every project and user id (tests pass their own)")
    args = parser.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error("--sizes is a comma-separated list of entry counts")
    if not sizes or min(sizes) < 10:
        parser.error("every size must be at least 10 entries")
    from api.cli import connect
    from ingest.embedding_jobs import active_embedder

    settings = get_settings()
    graph = connect(settings)
    embedder = CheckedEmbedder(HashEmbedder()) if args.embedder == "hash" else active_embedder(graph, settings)
    ensure_vector_index(graph, embedder.slug, embedder.dimensions)
    result: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "settings": {"exact_scan_max_chunks": settings.exact_scan_max_chunks, **SERVER_ENV},
        "seconds_per_phase": args.seconds,
        "sizes": [],
    }
    if args.append and args.json and args.json.exists():
        result["sizes"] = json.loads(args.json.read_text(encoding="utf-8"))["sizes"]
    for size in sizes:
        result["sizes"].append(run_size(graph, settings, embedder, args.embedder, size, args))
        if args.json:  # written after every size, so a long run that stops keeps what it measured
            args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.plot:
        plot(result["sizes"], args.plot)
    print(json.dumps(result["sizes"][-len(sizes) :], indent=2))
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
