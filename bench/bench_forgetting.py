"""How long forgetting takes at N entries (docs/SECURITY.md, docs/BENCHMARKS.md "Forgetting"): one project of N
entries by an owner (most), a coauthor and a member who leaves (5 %), 2 % of them naming the person forgotten. Times,
in this order: single entry deletes (as `DELETE /v1/entries/{id}` runs them), a forget by the owner (the dry run's
plan, the rewrite of every entry naming the person, the re-linking of the project, embedding the rewritten chunks
again), a member leaving with their entries, the purge that takes what was deleted off the disk (`memora db purge`,
only with `purge` as the third argument: it stops and starts the managed Neo4j), and the delete of the whole
project. The hash embedder stands in for the
model (bench/hash_embedder.py): what is timed is the graph's work; embedding again costs what writing that many
entries costs with the real model.

Usage: MEMORA_HOME=... python bench/bench_forgetting.py [N] [DELETES] [purge]"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.hash_embedder import HashEmbedder  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.entities import find_visible_entity  # noqa: E402
from graph.members import set_member  # noqa: E402
from graph.project_deletion import delete_project  # noqa: E402
from graph.purge import purge  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402
from ingest.departure import leave_project  # noqa: E402
from ingest.embedding_jobs import backfill  # noqa: E402
from ingest.forget import forget, plan_forget  # noqa: E402
from ingest.pipeline import Ingestor  # noqa: E402
from ingest.records import parse_line  # noqa: E402
from ingest.relink import relink_project  # noqa: E402

FORGOTTEN = "Odile Marchetti"
PERSONS = ("Pep", "Lola", "Marta", "Josep", "Abuela Carmen", "Tío Andrés")
PLACES = ("Cádiz", "Berlín", "Lavapiés", "Girona", "Vigo", "Oporto")
T = TypeVar("T")
LEVELS = ("public", "circle", "circle", "intimate", "private")


def record(project: str, prefix: str, i: int) -> dict[str, object]:
    author = "leo" if i % 20 == 7 else ("pep" if i % 3 == 1 else "ana")
    person, place = PERSONS[(i * 7) % len(PERSONS)], PLACES[i % len(PLACES)]
    persons = [person, FORGOTTEN] if i % 50 == 3 else [person]
    return {
        "entry_id": f"{project}/e{i}",
        "project_id": project,
        "author": f"{prefix}{author}",
        "intimacy": LEVELS[i % len(LEVELS)],
        "occurred_on": f"{1990 + i * 30 // 10_000 % 30}-{1 + i % 12:02d}-{1 + i % 27:02d}",
        "persons": persons,
        "places": [place],
        "text": f"En {place} con {' y '.join(persons)}, día {i}. Hablamos del piso y de los veranos; "
        f"{person} se rió de la maleta azul número {i}.",
    }


def victim_numbers(n: int, deletes: int) -> list[int]:
    """The entries deleted one by one: spread over the project."""
    return list(range(0, n, max(1, n // deletes)))[:deletes]


def _timed(fn: Callable[[], T]) -> tuple[float, T]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def run(n: int, deletes: int, purge_too: bool = False) -> dict[str, object]:
    settings = get_settings()
    graph = get_graph(settings)
    embedder = CheckedEmbedder(HashEmbedder())
    prefix = f"bench-forget-{uuid.uuid4().hex[:8]}-"
    project = f"{prefix}p"
    for user, role in (("ana", "owner"), ("pep", "coauthor"), ("leo", "coauthor")):
        set_member(graph, project, f"{prefix}{user}", role)
    items = [(i, parse_line(i, json.dumps(record(project, prefix, i), ensure_ascii=False))) for i in range(n)]
    ingest_s, _ = _timed(lambda: Ingestor(graph, embedder).ingest(items))
    owner = Viewer(user_id=f"{prefix}ana")
    out: dict[str, object] = {"project": project, "entries": n, "ingest_s": round(ingest_s, 1)}
    try:
        victims = [f"{project}/e{i}" for i in victim_numbers(n, deletes)]
        ingestor = Ingestor(graph, embedder, embed=False, source="api", writer=owner)
        times = [_timed(lambda v=v: ingestor.delete(v))[0] * 1000 for v in victims]  # type: ignore[misc]
        out["entry_delete_ms"] = {
            "n": len(times),
            "p50": round(statistics.median(times), 1),
            "p95": round(sorted(times)[int(0.95 * (len(times) - 1))], 1),
        }
        entity = find_visible_entity(graph, project, owner, FORGOTTEN)
        assert entity is not None
        plan_s, plan = _timed(lambda: plan_forget(graph, entity, owner, True))
        rewrite_s, _ = _timed(lambda: forget(graph, embedder, plan, owner))
        relink_s, _ = _timed(lambda: relink_project(graph, embedder, project))
        embed_s, _ = _timed(lambda: backfill(graph, embedder, project_id=project))
        out["forget"] = {
            "entries_redacted": len(plan.entries),
            "not_editable": plan.not_editable,
            "plan_s": round(plan_s, 2),
            "rewrite_s": round(rewrite_s, 2),
            "relink_s": round(relink_s, 2),
            "embed_again_s": round(embed_s, 2),
        }
        leave_s, departure = _timed(lambda: leave_project(graph, embedder, project, f"{prefix}leo", True))
        out["leave"] = {"entries_deleted": departure.entries_deleted, "s": round(leave_s, 2)}
        if purge_too:
            out["purge"] = purge(settings)
        delete_s, removed = _timed(lambda: delete_project(graph, project))
        out["project_delete"] = {"entries": removed.get("Entry", 0), "s": round(delete_s, 2)}
    finally:
        delete_project(graph, project)
    out["machine"] = f"{platform.machine()}, {platform.system()}, Python {platform.python_version()}"
    return out


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    purging = len(sys.argv) > 3 and sys.argv[3] == "purge"
    print(json.dumps(run(size, count, purging), ensure_ascii=False, indent=1))
