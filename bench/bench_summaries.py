"""Summary refresh and chapter-context latency: ingest N generated entries (12 periods, three members,
mixed intimacy) into a fresh project, then time a full `summaries refresh` (every audience variant), the serving of a
fresh summary, an edit followed by the refresh of what it made stale, the inline extractive rebuild a viewer gets
when a variant is stale, and `chapter_context` for two viewers and three themes; the project is deleted afterwards.
With `--automatic` the entries declare no chapter and fall in their months' automatic ones (30 years of dates); with
`--no-embed` their chunks are left unembedded (summaries read the entries' text, not their vectors).
Usage: MEMORA_HOME=... python bench/bench_summaries.py [N] [REPEATS] [--automatic] [--no-embed]"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import uuid
from collections.abc import Callable
from datetime import date
from typing import Any

from graph import summaries as gs
from graph.db import get_graph
from graph.ids import period_id
from graph.members import set_member
from graph.periods import automatic_period
from graph.settings import get_settings
from graph.visibility import Viewer
from ingest.embedding_jobs import active_embedder
from ingest.pipeline import Ingestor
from ingest.records import parse_line
from ingest.summary_jobs import Summaries
from queries.context.chapter import chapter_context

CLEANUP = "MATCH (n) WHERE n.project_id STARTS WITH $p OR (n:Project AND n.id STARTS WITH $p) DETACH DELETE n"
PLACES = ["Cádiz", "Berlín", "Lavapiés", "Girona", "Tarifa", "Sevilla"]
PERSONS = ["Marta", "Pep", "Josep", "Carmen", "Claire", "Lola"]
LEVELS = ["circle", "circle", "public", "intimate", "private"]
THEMES = ["toda la era Madrid", "los veranos en Cádiz", "la nieve y el piso nuevo"]


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 1),
    }


def _timed(fn: Callable[[], Any]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def run(n: int, repeats: int, automatic: bool = False, embed: bool = True) -> None:
    settings = get_settings()
    graph = get_graph(settings)
    embedder = active_embedder(graph, settings)
    prefix = f"bench-summ-{uuid.uuid4().hex[:8]}-"
    project = f"{prefix}p"
    users = {"ana": "owner", "pep": "coauthor", "lola": "reader"}
    try:
        for user, role in users.items():
            set_member(graph, project, f"{prefix}{user}", role)
        periods = ["Madrid"] + [f"Capítulo {i}" for i in range(11)]
        records = []
        for i in range(n):
            year, place, person = 1990 + i * 30 // n, PLACES[i % 6], PERSONS[(i * 7) % 6]
            records.append(
                {
                    "entry_id": f"{project}/e{i}",
                    "project_id": project,
                    "author": f"{prefix}{list(users)[i % 3]}",
                    "intimacy": LEVELS[i % 5],
                    "occurred_on": f"{year}-{1 + i % 12:02d}-{1 + i % 27:02d}",
                    **({} if automatic else {"period": periods[i * 12 // n]}),
                    "persons": [person],
                    "places": [place],
                    "text": (
                        f"En {place} con {person}, día {i}. Hablamos del piso, de la nieve y de los veranos. "
                        f"{person} se rió de la maleta azul número {i}; luego cenamos en {place}."
                    ),
                }
            )
        items = [(i, parse_line(i, json.dumps(r, ensure_ascii=False))) for i, r in enumerate(records, start=1)]
        ingest_s = _timed(lambda: Ingestor(graph, embedder, embed=embed).ingest(items))
        summaries = Summaries(graph, embedder)
        t = time.perf_counter()
        built = summaries.refresh(project).built
        refresh_s = time.perf_counter() - t
        lola, ana = Viewer(user_id=f"{prefix}lola"), Viewer(user_id=f"{prefix}ana")
        madrid = period_id(project, "Madrid") if not automatic else automatic_period(project, date(1990, 1, 1), None).id
        scopes = len(gs.project_scopes(graph, project)) - 1
        serve = [_timed(lambda: summaries.for_viewer(lola, project, madrid)) for _ in range(repeats)]
        stale_refresh, inline = [], []
        for k in range(repeats):
            edit = dict(records[0], text=records[0]["text"] + f" Edición {k}.")
            Ingestor(graph, embedder, embed=embed).ingest([(1, parse_line(1, json.dumps(edit, ensure_ascii=False)))])
            if k % 2:
                stale_refresh.append(_timed(lambda: summaries.refresh_stale(project)))
            else:
                inline.append(_timed(lambda: summaries.for_viewer(lola, project, madrid)))
                summaries.refresh_stale(project)
        chapter: list[float] = []
        for _ in range(repeats):
            for viewer in (ana, lola):
                for theme in THEMES:
                    chapter.append(
                        _timed(
                            lambda v=viewer, th=theme: chapter_context(
                                graph, embedder, settings, summaries, v, project, th, 2000
                            )
                        )
                    )
        print(
            json.dumps(
                {
                    "entries": n,
                    "periods": scopes,
                    "chapters": "automatic" if automatic else "declared",
                    "ingest_s": round(ingest_s, 1),
                    "full_refresh": {
                        "variants": built,
                        "seconds": round(refresh_s, 2),
                        "per_variant_ms": round(refresh_s / max(1, built) * 1000, 1),
                    },
                    "serve_fresh": _ms(serve),
                    "inline_rebuild_after_edit": _ms(inline),
                    "refresh_stale_after_edit": _ms(stale_refresh),
                    "chapter_context_2000_tokens": _ms(chapter),
                }
            )
        )
    finally:
        graph.write(CLEANUP, {"p": prefix})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=240)
    parser.add_argument("repeats", nargs="?", type=int, default=6)
    parser.add_argument("--automatic", action="store_true", help="entries declare no chapter")
    parser.add_argument("--no-embed", dest="embed", action="store_false", help="leave the chunks unembedded")
    args = parser.parse_args()
    run(args.n, args.repeats, args.automatic, args.embed)
