"""Live interview context latency (queries/context/live.py) on a synthetic 10,000-entry project (docs/BENCHMARKS.md).

The project is built deterministically (seeded) straight into the graph: entries with persons and places drawn from
a skewed pool (so some are named by hundreds of entries and some by one or two), four intimacy levels and three
authors, one chunk each. Its vectors are seeded random unit vectors written directly, not 10,000 texts embedded
(that alone would take an hour on 2 cores): the latency of a matrix product and a lookup does not depend on what the
vectors mean, and the transcript is embedded by the real active model, as in production.

A session is simulated: a transcript grows by about 12 words (3 seconds of speech) per call, and each call asks
for the live context of the whole transcript so far, as a reader (who sees circle and public entries), calls back
to back. Twice: with writes checked in the background (`MEMORA_LIVE_CACHE_CHECK_SECONDS` > 0) and strict (the
default: the stamp, the audiences' generations of graph/generations.py, checked before every answer). The first
call (index and segment vectors cold) is reported apart; p50/p95 are over the rest. Then one visible write and the
next strict call (the index is rebuilt). The project is deleted at the end unless KEEP_PREFIX names one to reuse.

Usage: MEMORA_HOME=... python bench/bench_live.py [ENTRIES] [CALLS] [KEEP_PREFIX]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import uuid

import numpy as np

from graph import generations
from graph.db import get_graph
from graph.members import set_member
from graph.schema import vector_property
from graph.settings import get_settings
from graph.visibility import Viewer
from ingest.embedding_jobs import active_embedder
from queries.context.live import LiveCache, live_context

CLEANUP = "MATCH (n) WHERE n.project_id STARTS WITH $p OR (n:Project AND n.id STARTS WITH $p) DETACH DELETE n"
CLEANUP_USERS = "MATCH (u:User) WHERE u.id STARTS WITH $p DETACH DELETE u"
WRITE = """
UNWIND $rows AS row
MERGE (p:Project {id: $project_id}) ON CREATE SET p.name = $project_id, p.hemisphere = 'north'
CREATE (e:Entry {id: row.id, project_id: $project_id, author_id: row.author, intimacy: row.intimacy, kind: 'diary',
                 body: row.text, title: null, occurred_start: date(row.day), occurred_end: date(row.day),
                 occurred_precision: 'day', tags: [], created_at: datetime(), updated_at: datetime()})
CREATE (c:Chunk {id: row.id + '#0', entry_id: row.id, project_id: $project_id, ord: 0, text: row.text,
                 embedding_status: 'done', embedding_model: $model, created_at: datetime()})
CREATE (c)-[:OF]->(e)
WITH e, c, row
CALL db.create.setNodeVectorProperty(c, $prop, row.vector)
WITH e, row
UNWIND row.mentions AS m
MERGE (x:Person {id: m.id}) ON CREATE SET x.project_id = $project_id, x.kind = m.kind, x.name = m.name,
                                          x.aliases = [], x.aliases_text = ''
MERGE (e)-[r:MENTIONS]->(x) SET r.count = 1, r.name = m.name
"""
NAMES = [
    "Josep",
    "Maria",
    "Lucia",
    "Pep",
    "Marta",
    "Carmen",
    "Jordi",
    "Anna",
    "Pilar",
    "Toni",
    "Rosa",
    "Joan",
    "Elena",
    "Miquel",
    "Teresa",
    "Andreu",
    "Nuria",
    "Ramon",
    "Montse",
    "Xavi",
]
PLACES = ["Cadiz", "Berlin", "Girona", "Lavapies", "Sevilla", "Madrid", "Sitges", "Lisboa", "Napoles", "Oporto"]
WORDS = (
    "aquel verano fuimos a la playa con la abuela y comimos paella mientras el perro corria por la arena "
    "luego volvimos en tren a casa y papa conto historias del piso de la calle mayor"
).split()


def build(graph, project: str, users: list[str], n: int, model: str, prop: str, dims: int) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(20261130)
    persons = [f"{a} {b}" for a in NAMES for b in ("Puig", "Vidal", "Soler", "Ferrer", "Roca")]  # 100
    places = [f"{p}{'' if i == 0 else f' {i}'}" for p in PLACES for i in range(5)]  # 50
    levels = ["public", "circle", "intimate", "private"]
    for start in range(0, n, 500):
        rows: dict[str, list[dict[str, object]]] = {"person": [], "place": []}
        for i in range(start, min(n, start + 500)):
            vector = rng.standard_normal(dims).astype(np.float32)
            vector /= np.linalg.norm(vector)
            person = persons[min(int(rng.zipf(1.3)) - 1, len(persons) - 1)]
            place = places[min(int(rng.zipf(1.3)) - 1, len(places) - 1)]
            text = " ".join(rng.choice(WORDS, 30)) + f" con {person} en {place}."
            base = {
                "id": f"{project}/e{i:05d}",
                "author": users[i % 3],
                "intimacy": levels[int(rng.integers(4))],
                "text": text,
                "day": f"{1990 + i % 30}-{1 + i % 12:02d}-{1 + i % 28:02d}",
                "vector": vector.tolist(),
            }
            rows["person"].append(
                {**base, "mentions": [{"id": f"{project}:person:{person}", "kind": "person", "name": person}]}
            )
            rows["place"].append(
                {**base, "mentions": [{"id": f"{project}:place:{place}", "kind": "place", "name": place}]}
            )
        graph.write(WRITE, {"rows": rows["person"], "project_id": project, "model": model, "prop": prop})
        graph.write(
            """UNWIND $rows AS row MATCH (e:Entry {id: row.id}) UNWIND row.mentions AS m
                       MERGE (x:Place {id: m.id}) ON CREATE SET x.project_id = $project_id, x.kind = 'place',
                             x.name = m.name, x.aliases = [], x.aliases_text = ''
                       MERGE (e)-[r:MENTIONS]->(x) SET r.count = 1, r.name = m.name""",
            {"rows": rows["place"], "project_id": project},
        )


def transcript_words(n: int) -> list[str]:
    rng = np.random.default_rng(7)
    names = [f"{a} {b}" for a in NAMES for b in ("Puig", "Vidal", "Soler", "Ferrer", "Roca")]
    out: list[str] = []
    while len(out) < n:
        out += list(rng.choice(WORDS, 10)) + [
            "con",
            str(names[int(rng.integers(len(names)))]),
            "en",
            PLACES[int(rng.integers(len(PLACES)))] + ".",
        ]
    return out


def run(n: int, calls: int, keep: str | None = None) -> None:
    """`keep`: a prefix whose project is reused if it exists (built otherwise) and not deleted afterwards."""
    settings = get_settings()
    graph = get_graph(settings)
    embedder = active_embedder(graph, settings)
    prefix = keep or f"bench-live-{uuid.uuid4().hex[:8]}-"
    project = f"{prefix}p"
    users = [f"{prefix}owner", f"{prefix}coauthor", f"{prefix}reader"]
    try:
        t = time.monotonic()
        if not graph.read("MATCH (e:Entry) WHERE e.project_id = $p RETURN count(e) AS n", {"p": project})[0]["n"]:
            for user, role in zip(users, ("owner", "coauthor", "reader"), strict=True):
                set_member(graph, project, user, role)
            build(graph, project, users, n, embedder.model_id, vector_property(embedder.slug), embedder.dimensions)
        build_s = time.monotonic() - t
        viewer = Viewer(user_id=users[2])
        words = transcript_words(400 + 12 * (calls + 2))
        report: dict[str, object] = {"entries": n, "calls": calls, "build_s": round(build_s, 1), "viewer": "reader"}
        for mode, check in (("service", settings.live_cache_check_seconds), ("strict", 0.0)):
            cache = LiveCache(size=4, ttl_seconds=3600, check_seconds=check)
            t = time.perf_counter()
            first = live_context(graph, embedder, viewer, project, " ".join(words[:400]), cache)
            cold_ms = (time.perf_counter() - t) * 1000
            warm: list[float] = []
            stages: dict[str, list[float]] = {}
            for i in range(1, calls + 1):
                text = " ".join(words[: 400 + 12 * i])
                t = time.perf_counter()
                ctx = live_context(graph, embedder, viewer, project, text, cache)
                warm.append((time.perf_counter() - t) * 1000)
                for k, v in ctx.latency_ms.items():
                    stages.setdefault(k, []).append(v)
            report[mode] = {
                "check_seconds": check,
                "cold_first_call_ms": round(cold_ms, 1),
                "warm_p50_ms": round(statistics.median(warm), 1),
                "warm_p95_ms": round(statistics.quantiles(warm, n=20)[18], 1),
                "warm_max_ms": round(max(warm), 1),
                "stage_p50_ms": {k: round(statistics.median(v), 1) for k, v in stages.items()},
                "stage_p95_ms": {k: round(statistics.quantiles(v, n=20)[18], 1) for k, v in stages.items()},
                "entries_returned": len(first.entries),
                "ask_about_last": [a.name for a in ctx.ask_about],
            }
        graph.write(
            "MATCH (e:Entry {project_id: $p, intimacy: 'public'}) WITH e ORDER BY e.id LIMIT 1 "
            "SET e.body = e.body + ' (editado)', e.updated_at = datetime()",
            {"p": project},
        )
        # The service's write paths bump the audiences' generations (graph/generations.py); this direct edit does too.
        generations.bump_levels(graph, [{"project_id": project, "intimacy": "public", "author_id": None}])
        t = time.perf_counter()
        live_context(graph, embedder, viewer, project, " ".join(words[: 400 + 12 * (calls + 1)]), cache)
        report["strict_first_call_after_a_visible_write_ms"] = round((time.perf_counter() - t) * 1000, 1)
        report["visible_entries_in_index"] = len(cache.index(graph, embedder, viewer, project).entry_ids)
        print(json.dumps(report, indent=1))
    finally:
        if keep is None:
            graph.write(CLEANUP, {"p": prefix})
            graph.write(CLEANUP_USERS, {"p": prefix})


if __name__ == "__main__":
    run(
        int(sys.argv[1]) if len(sys.argv) > 1 else 10_000,
        int(sys.argv[2]) if len(sys.argv) > 2 else 60,
        sys.argv[3] if len(sys.argv) > 3 else None,
    )
