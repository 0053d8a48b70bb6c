"""Latency of entity questions and "similar to X" on a synthetic 10,000-entry project.

Run from the repository root with the managed Neo4j up:
``MEMORA_HOME=... python bench/bench_entities.py [--entries 10000] [--calls 200]``. Prints JSON: the build and refresh
times, and p50/p95/max in milliseconds of `similar` and of entity questions answered through `hybrid_search` (the
whole search door, visible lexicon included), for an owner and for a reader: as served (the viewer's entity aggregates
kept by graph/analytics_cache.py and a repeated question by the search-result cache, so only a viewer's first question
after a write they may see computes them) and cold (both caches emptied before every question,
`question_ms_cold_by_kind`; `similar_ms_cold` likewise). With a memora-managed Neo4j of this
MEMORA_HOME, each question's CPU time is also given (`question_cpu_ms_by_kind`, `..._cold_...`): the Neo4j process's
(every thread's run time, /proc/PID/task/*/schedstat) plus this process's, a figure other processes competing for the
cores barely move, unlike wall time; it counts everything that Neo4j runs meanwhile, so give the bench a Neo4j of its
own (another MEMORA_HOME and MEMORA_NEO4J_BOLT_PORT).

The project is deterministic (seeded) and built fast: entries, mentions, chapters and chunks are written with
UNWIND statements, and each chunk's vector is written directly (a topic centroid plus noise, unit length, the active
model's dimensions) instead of embedding 10,000 texts, so the vectors have realistic structure (entities sharing
topics are close) without an hour of model time. Entity mentions follow a Zipf law (a few people in every other
entry, a long tail); intimacy is 60 % circle, 10 % public, 15 % intimate, 15 % private over three authors. The project
is deleted at the end (unless --keep); `--reuse` measures a project an earlier `--keep` run left (no build, no refresh).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from contextlib import suppress
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graph import analytics_cache  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.entity_vectors import refresh_project  # noqa: E402
from graph.members import set_member  # noqa: E402
from graph.runtime import Neo4jRuntime  # noqa: E402
from graph.schema import migrate, vector_property  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from ingest.embedding_jobs import active_embedder  # noqa: E402
from queries.entities.similar import similar  # noqa: E402
from queries.search import result_cache  # noqa: E402
from queries.search.door import hybrid_search  # noqa: E402
from queries.search.request import Scope, SearchOptions  # noqa: E402

PROJECT = "bench-entities"
USERS = {"owner": "bench-ent-owner", "coauthor": "bench-ent-coauthor", "reader": "bench-ent-reader"}
LEVELS = ["circle"] * 60 + ["public"] * 10 + ["intimate"] * 15 + ["private"] * 15
TOPICS = 24

WRITE = """
UNWIND $rows AS row
CREATE (e:Entry {id: row.id, project_id: $project_id, intimacy: row.intimacy, author_id: row.author,
                 kind: 'diary', body: row.body, title: null, occurred_start: date(row.day), occurred_end: date(row.day),
                 occurred_precision: 'day', tags: [], created_at: datetime(), updated_at: datetime()})
WITH e, row
MATCH (u:User {id: row.author}) CREATE (u)-[:WROTE]->(e)
WITH e, row
MATCH (per:Period {id: row.period}) CREATE (e)-[:IN_PERIOD]->(per)
WITH e, row
CREATE (c:Chunk {id: row.id + '#0', entry_id: row.id, project_id: $project_id, ord: 0, text: row.body, context: '',
                 embedding_status: 'done', embedding_model: $model, created_at: datetime()})
CREATE (c)-[:OF]->(e)
SET c[$prop] = row.vector
WITH e, row
CALL { WITH e, row UNWIND row.persons AS m MATCH (x:Person {id: m.id})
       CREATE (e)-[:MENTIONS {count: 1, name: m.name}]->(x) }
CALL { WITH e, row UNWIND row.places AS m MATCH (x:Place {id: m.id})
       CREATE (e)-[:MENTIONS {count: 1, name: m.name}]->(x) }
"""
ENTITIES = """
UNWIND $rows AS row
CALL { WITH row WITH row WHERE row.kind = 'person'
       MERGE (x:Person {id: row.id}) SET x.project_id = $project_id, x.kind = 'person', x.name = row.name }
CALL { WITH row WITH row WHERE row.kind = 'place'
       MERGE (x:Place {id: row.id}) SET x.project_id = $project_id, x.kind = 'place', x.name = row.name }
"""
PERIODS = """
MATCH (p:Project {id: $project_id})
UNWIND $rows AS row
MERGE (per:Period {id: row.id})
SET per.project_id = $project_id, per.name = row.name, per.level = 'chapter'
MERGE (per)-[:PART_OF]->(p)
"""
REUSED = """
MATCH (x) WHERE (x:Person OR x:Place OR x:Period) AND x.project_id = $project_id
RETURN x.id AS id, x.name AS name, CASE WHEN x:Period THEN 'period' ELSE x.kind END AS kind
"""
CLEANUP = "MATCH (n) WHERE n.project_id = $project_id WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n"
CLEANUP_MEMBERS = "MATCH (n) WHERE (n:Project AND n.id = $project_id) OR (n:User AND n.id IN $users) DETACH DELETE n"

PERSON_NAMES = [
    f"{a}{b}"
    for a in ("Ma", "Jo", "Lu", "Pe", "Ca", "An", "Ro", "Ne", "Xa", "Be", "Hu", "Va")
    for b in (
        "rta",
        "sep",
        "cía",
        "pito",
        "rmen",
        "drés",
        "sa",
        "rea",
        "vier",
        "atriz",
        "go",
        "leria",
        "nia",
        "ndo",
        "lo",
        "rio",
        "lia",
        "món",
        "na",
        "tón",
        "cas",
        "mir",
        "ria",
        "bel",
        "no",
    )
]
PLACE_NAMES = [
    f"{a}{b}"
    for a in ("Ber", "Ca", "Ta", "Ma", "Se", "Gra", "Va", "Lon", "Pa", "Ly")
    for b in ("lín", "diz", "rifa", "drid", "villa", "nada", "lencia", "dres", "rís", "on")
]


def _cleanup(graph: Any) -> None:
    while graph.write(CLEANUP, {"project_id": PROJECT})[0]["n"]:
        pass
    graph.write(CLEANUP_MEMBERS, {"project_id": PROJECT, "users": list(USERS.values())})


def build(graph: Any, entries: int, dims: int, prop: str, model: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    _cleanup(graph)
    for role, user in USERS.items():
        set_member(graph, PROJECT, user, role)
    centroids = nrng.normal(size=(TOPICS, dims))
    persons = [(f"{PROJECT}/person/p{i}", name) for i, name in enumerate(PERSON_NAMES)]
    places = [(f"{PROJECT}/place/l{i}", name) for i, name in enumerate(PLACE_NAMES)]
    periods = [(f"{PROJECT}/period/c{i}", f"Época {i}") for i in range(20)]
    graph.write(
        ENTITIES,
        {
            "project_id": PROJECT,
            "rows": [{"id": i, "name": n, "kind": "person"} for i, n in persons]
            + [{"id": i, "name": n, "kind": "place"} for i, n in places],
        },
    )
    graph.write(PERIODS, {"project_id": PROJECT, "rows": [{"id": i, "name": n} for i, n in periods]})
    # Each entity and chapter leans to two topics; an entry's vector mixes the topics of what it names.
    lean = {eid: nrng.choice(TOPICS, size=2, replace=False) for eid, _ in persons + places + periods}
    zipf_p = [1.0 / (r + 1) for r in range(len(persons))]
    zipf_l = [1.0 / (r + 1) for r in range(len(places))]
    t0 = time.perf_counter()
    start = date(2000, 1, 1)
    batch: list[dict[str, Any]] = []
    for n in range(entries):
        chapter = periods[min(n * len(periods) // entries, len(periods) - 1)]
        who = rng.choices(persons, weights=zipf_p, k=rng.randint(1, 3))
        where = rng.choices(places, weights=zipf_l, k=1)
        named = {i: name for i, name in who + where}
        topics = [t for i in [*named, chapter[0]] for t in lean[i]]
        vec = centroids[topics].mean(axis=0) + nrng.normal(scale=0.8, size=dims)
        vec /= np.linalg.norm(vec)
        batch.append(
            {
                "id": f"{PROJECT}/e{n:05d}",
                "intimacy": rng.choice(LEVELS),
                "author": rng.choice(list(USERS.values())),
                "period": chapter[0],
                "day": (start + timedelta(days=n * 9131 // entries)).isoformat(),
                "body": " ".join(named.values()),
                "vector": vec.tolist(),
                "persons": [{"id": i, "name": nm} for i, nm in named.items() if "/person/" in i],
                "places": [{"id": i, "name": nm} for i, nm in named.items() if "/place/" in i],
            }
        )
        if len(batch) == 500:
            graph.write(WRITE, {"rows": batch, "project_id": PROJECT, "prop": prop, "model": model})
            batch = []
    if batch:
        graph.write(WRITE, {"rows": batch, "project_id": PROJECT, "prop": prop, "model": model})
    return {"persons": persons, "places": places, "periods": periods, "build_s": round(time.perf_counter() - t0, 1)}


def reused(graph: Any) -> dict[str, Any]:
    """The entities and chapters of a project a `--keep` run left, as `build` returns them."""
    rows = graph.read(REUSED, {"project_id": PROJECT})
    if not rows:
        sys.exit(f"no project {PROJECT} to reuse: run once with --keep")
    found: dict[str, list[tuple[str, str]]] = {"person": [], "place": [], "period": []}
    for r in rows:
        found[r["kind"]].append((r["id"], r["name"]))

    def built_order(item: tuple[str, str]) -> int:  # p12 after p2, as `build` made them
        return int(item[0].rsplit("/", 1)[1][1:])

    return {
        "persons": sorted(found["person"], key=built_order),
        "places": sorted(found["place"], key=built_order),
        "periods": sorted(found["period"], key=built_order),
        "build_s": None,
    }


def cpu_ns(server_pid: int | None) -> int:
    """CPU time so far of this process plus, when known, every thread of the Neo4j server."""
    total = time.process_time_ns()
    if server_pid is not None:
        for task in Path(f"/proc/{server_pid}/task").iterdir():
            with suppress(OSError, ValueError, IndexError):
                total += int((task / "schedstat").read_text().split()[0])
    return total


def pct(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 1),
        "p95": round(ordered[int(len(ordered) * 0.95) - 1], 1),
        "max": round(ordered[-1], 1),
        "n": len(ordered),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--entries", type=int, default=10000)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--keep", action="store_true", help="leave the project in the graph")
    ap.add_argument("--reuse", action="store_true", help="measure the project a --keep run left (same seed)")
    ap.add_argument(
        "--client-cpu", action="store_true", help="report CPU time even without a managed Neo4j (this process's only)"
    )
    args = ap.parse_args()
    settings = get_settings()
    graph = get_graph(settings)
    migrate(graph)
    embedder = active_embedder(graph, settings)
    slug, prop = embedder.slug, vector_property(embedder.slug)
    if args.reuse:
        built = reused(graph)
        stats, refresh_s, noop_s = None, None, None
    else:
        built = build(graph, args.entries, embedder.dimensions, prop, slug, args.seed)
        print(f"built in {built['build_s']} s; refreshing", file=sys.stderr)
        t = time.perf_counter()
        stats = refresh_project(graph, PROJECT, slug)
        refresh_s = round(time.perf_counter() - t, 1)
        t = time.perf_counter()
        refresh_project(graph, PROJECT, slug)
        noop_s = round(time.perf_counter() - t, 2)
    server_pid = Neo4jRuntime(settings).pid() if settings.managed_neo4j else None
    rng = random.Random(args.seed)
    out: dict[str, Any] = {
        "entries": args.entries,
        "entities": len(built["persons"]) + len(built["places"]),
        "chapters": len(built["periods"]),
        "build_s": built["build_s"],
        "refresh_s": refresh_s,
        "variants": stats.variants if stats else None,
        "refresh_unchanged_s": noop_s,
    }
    questions = [
        "¿con quién aparece {p}?",
        "who shows up with {p} most?",
        "¿cuándo desapareció {p}?",
        "quels lieux ressemblent à {l} ?",
        "¿quién es lo más importante en mi vida?",
        "people similar to {p}",
        "otra época como la de {c}",
    ]
    print(f"refreshed in {refresh_s} s; measuring", file=sys.stderr)
    for role in ("owner", "reader"):
        viewer = Viewer(user_id=USERS[role])
        sims, sims_cold, asks = [], [], []
        analytics_cache.clear(graph)
        targets = [rng.choice(built["persons"][:60] + built["places"][:30]) for _ in range(args.calls)]
        for kept in (True, False):  # as served, then with the viewer's kept answers emptied before each call
            for target in targets:
                if not kept:
                    analytics_cache.clear(graph)
                t = time.perf_counter()
                similar(graph, viewer, PROJECT, target[0], slug, None, 10)
                (sims if kept else sims_cold).append((time.perf_counter() - t) * 1000)
        answered, by_kind, cold = 0, dict[str, list[float]](), dict[str, list[float]]()
        cpu: dict[str, dict[str, list[float]]] = {"served": {}, "cold": {}}
        analytics_cache.clear(graph)
        result_cache.clear(graph)
        asked = [
            questions[n % len(questions)].format(
                p=rng.choice(built["persons"][:60])[1],
                l=rng.choice(built["places"][:30])[1],
                c=rng.choice(built["periods"])[1],
            )
            for n in range(args.calls)
        ]
        # Served first (the cache as a server keeps it), then the same questions cold (emptied before each one).
        for served in (True, False):
            for q in asked:
                if not served:
                    analytics_cache.clear(graph)
                    result_cache.clear(graph)
                c = cpu_ns(server_pid)
                t = time.perf_counter()
                resp = hybrid_search(
                    graph, embedder, settings, viewer, q, Scope(project_id=PROJECT), SearchOptions(k=10)
                )
                ms = (time.perf_counter() - t) * 1000
                used = (cpu_ns(server_pid) - c) / 1e6
                kind = resp.answer["kind"] if resp.answer else "none"
                cpu["served" if served else "cold"].setdefault(kind, []).append(used)
                if served:
                    asks.append(ms)
                    answered += resp.answer is not None
                    by_kind.setdefault(kind, []).append(ms)
                else:
                    cold.setdefault(kind, []).append(ms)
        out[role] = {
            "similar_ms": pct(sims),
            "similar_ms_cold": pct(sims_cold),
            "question_ms": pct(asks),
            "answered": f"{answered}/{args.calls}",
            "question_ms_by_kind": {k: pct(v) for k, v in sorted(by_kind.items())},
            "question_ms_cold_by_kind": {k: pct(v) for k, v in sorted(cold.items())},
        }
        if server_pid is not None or args.client_cpu:
            out[role]["question_cpu_ms_by_kind"] = {k: pct(v) for k, v in sorted(cpu["served"].items())}
            out[role]["question_cpu_ms_cold_by_kind"] = {k: pct(v) for k, v in sorted(cpu["cold"].items())}
    if not args.keep:
        _cleanup(graph)
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
