"""Latency of the entity analytics (docs/entities.md, "Entity questions"): co-occurrence by measure and date range,
month timelines, changes and the timeline picture, on a generated mid-size project, as a reader and as the owner.

    MEMORA_HOME=... .venv/bin/python bench/bench_analytics.py [--entries 2000] [--repeat 30]

Besides p50/p95 latencies it prints the database hits of one PROFILEd run of each statement, which the machine's
load does not change. Entries are ingested without embedding (chunks left pending: the analytics read entries and
mentions only) with 3 of 40 persons each (Zipf-like: a few everywhere, many rare), dates over 2005..2020 (days,
months, some years only) and 70 % circle, 15 % intimate, 15 % private. The project is deleted afterwards. Prints
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.actions.pictures import timeline_document  # noqa: E402
from api.date_range import date_range  # noqa: E402
from graph import analytics, timelines  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.members import set_member  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer, visibility_params  # noqa: E402
from ingest.embedding_jobs import active_embedder  # noqa: E402
from ingest.pipeline import Ingestor  # noqa: E402
from ingest.records import parse_line  # noqa: E402

CLEANUP = "MATCH (n) WHERE n.project_id STARTS WITH $p OR (n:Project AND n.id STARTS WITH $p) DETACH DELETE n"
PERSONS = [f"Persona{i:02d}" for i in range(40)]


def _records(project: str, owner: str, n: int) -> list[dict[str, Any]]:
    rnd = random.Random(11)
    weights = [1 / (i + 1) for i in range(len(PERSONS))]
    rows = []
    for i in range(n):
        year, month, day = 2005 + i * 16 // n, rnd.randint(1, 12), rnd.randint(1, 28)
        when = rnd.choice([f"{year}-{month:02d}-{day:02d}"] * 6 + [f"{year}-{month:02d}"] * 3 + [str(year)])
        persons = sorted(set(rnd.choices(PERSONS, weights, k=3)))
        rows.append(
            {
                "entry_id": f"{project}/e{i}",
                "project_id": project,
                "author": owner,
                "occurred_on": when,
                "intimacy": rnd.choice(["circle"] * 14 + ["intimate"] * 3 + ["private"] * 3),
                "persons": persons,
                "text": f"Entrada {i}: un día con {', '.join(persons)}.",
            }
        )
    return rows


def _percentiles(fn: Callable[[], Any], repeat: int) -> dict[str, float]:
    fn()  # warm: plan cache, matplotlib fonts
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return {
        "p50_ms": round(times[len(times) // 2] * 1000, 1),
        "p95_ms": round(times[min(len(times) - 1, int(0.95 * len(times)))] * 1000, 1),
    }


def _db_hits(graph: Any, query: str, params: dict[str, Any]) -> int:
    """Database hits of one PROFILEd run: a figure the machine's load does not move (latencies here do)."""

    def total(plan: dict[str, Any]) -> int:
        return int(plan.get("dbHits", 0)) + sum(total(c) for c in plan.get("children", []))

    with graph.driver.session(database=graph.database) as session:
        profile = session.run("PROFILE " + query, params).consume().profile
    return total(profile or {})


def _picture(graph: Any, viewer: Viewer, project: str, entity_id: str) -> bytes:
    """What `GET .../timeline.svg?resolution=month` does after finding the entity: query, then draw."""
    return timeline_document("Persona00", timelines.timeline_months(graph, viewer, project, entity_id)[0], "month")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    settings = get_settings()
    graph = get_graph(settings)
    prefix = f"bench-analytics-{uuid.uuid4().hex[:8]}-"
    project, owner, reader = f"{prefix}p", f"{prefix}ana", f"{prefix}lola"
    try:
        set_member(graph, project, owner, "owner")
        set_member(graph, project, reader, "reader")
        t = time.monotonic()
        lines = [json.dumps(r, ensure_ascii=False) for r in _records(project, owner, args.entries)]
        report = Ingestor(graph, active_embedder(graph, settings), embed=False).ingest(
            [(i, parse_line(i, line)) for i, line in enumerate(lines, 1)]
        )
        assert not report.errors, report.errors[:3]
        ingest_s = time.monotonic() - t
        pep = graph.read(
            "MATCH (e:Entry {project_id: $p})-[:MENTIONS]->(x) WITH x, count(e) AS n "
            "RETURN x.id AS id ORDER BY n DESC LIMIT 1",
            {"p": project},
        )[0]["id"]
        start, end = date_range("2010", "2012")
        out: dict[str, Any] = {
            "entries": args.entries,
            "persons": len(PERSONS),
            "repeat": args.repeat,
            "ingest_s": round(ingest_s, 1),
        }
        for who, user in (("reader", reader), ("owner", owner)):
            viewer = Viewer(user_id=user)
            cases: dict[str, Callable[[], Any]] = {
                "cooccurrence_jaccard": partial(analytics.co_occurrence, graph, viewer, project, pep),
                "cooccurrence_pmi": partial(analytics.co_occurrence, graph, viewer, project, pep, measure="pmi"),
                "cooccurrence_pmi_2010_2012": partial(
                    analytics.co_occurrence, graph, viewer, project, pep, measure="pmi", date_from=start, date_to=end
                ),
                "timeline_month": partial(timelines.timeline_months, graph, viewer, project, pep),
                "timeline_month_written": partial(timelines.timeline_months, graph, viewer, project, pep, "written"),
                "changes_all": partial(timelines.changes, graph, viewer, project),
                "changes_2010_2012": partial(timelines.changes, graph, viewer, project, start, end),
                "timeline_svg_month": partial(_picture, graph, viewer, project, pep),
            }
            out[who] = {name: _percentiles(fn, args.repeat) for name, fn in cases.items()}
            base = {"project_id": project, "entity_id": pep, "kind": None, "limit": 10, "time": "event"}
            base.update(visibility_params(viewer))
            total, counts = analytics.entity_counts(graph, viewer, project)
            together = {"measure": "jaccard", "date_from": None, "date_to": None, "total": total, "counts": counts}
            out[who]["db_hits"] = {
                "cooccurrence_jaccard": _db_hits(graph, analytics.CO_OCCURRENCE, {**base, **together}),
                "timeline_month": _db_hits(graph, timelines.TIMELINE_MONTHS, base),
                "changes_all": _db_hits(
                    graph,
                    timelines.CHANGES,
                    {
                        **base,
                        "date_from": None,
                        "date_to": None,
                        "factor": 4.0,
                        "min_entries": timelines.MIN_ENTRIES,
                        "min_gap_days": timelines.MIN_GAP_DAYS,
                    },
                ),
            }
        print(json.dumps(out, indent=2))
    finally:
        graph.write(CLEANUP, {"p": prefix})
        graph.write("MATCH (u:User) WHERE u.id STARTS WITH $p DETACH DELETE u", {"p": prefix})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
