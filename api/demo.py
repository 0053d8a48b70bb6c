"""`memora demo`: load the bundled family diary and search it as different viewers. Idempotent."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from graph.db import Graph
from graph.entities import upsert_entity
from graph.ids import entity_id
from graph.member_people import link
from graph.members import set_member
from graph.settings import REPO_ROOT, Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.embedding_jobs import active_embedder
from ingest.pipeline import Ingestor
from ingest.records import read_jsonl
from queries.search.door import hybrid_search
from queries.search.request import Filters, Scope, SearchOptions

PROJECT = "demo-family"
DEMO_DIR = REPO_ROOT / "demo"
MEMBERS = {"ana": "owner", "pep": "coauthor", "lola": "reader"}
PERSONS = {"ana": "Ana", "pep": "Pep"}
"""The person of the diary each member is (lola writes nothing and nobody names her): their entries count them."""
SEARCHES: list[tuple[str, str, Filters]] = [
    ("ana", "medicina para el dolor de cabeza", Filters()),
    ("lola", "medicina para el dolor de cabeza", Filters()),
    ("pep", "¿qué dijo papá del piso?", Filters()),
    ("ana", "when did we cry in Berlin?", Filters()),
    ("lola", "when did we cry in Berlin?", Filters()),
    ("pep", "playa y viento", Filters(persons=["Marta"], date_from=date(2008, 6, 21), date_to=date(2008, 9, 22))),
]
CHAPTER_THEME, CHAPTER_BUDGET, CHAPTER_VIEWERS = "toda la era Madrid", 700, ("ana", "lola")


def _load(graph: Graph, settings: Settings) -> str:
    for user, role in MEMBERS.items():
        set_member(graph, PROJECT, user, role)
    for item in json.loads((DEMO_DIR / "entities.json").read_text(encoding="utf-8")):
        upsert_entity(graph, PROJECT, item["kind"], item["name"], item.get("aliases", []))
    for user, person in PERSONS.items():
        link(graph, PROJECT, user, entity_id(PROJECT, "person", person), "ana")
    report = Ingestor(graph, active_embedder(graph, settings)).ingest(read_jsonl(DEMO_DIR / "sample_diary.jsonl"))
    return f"demo diary: {report.written} entries written, {report.unchanged} unchanged, {len(report.errors)} bad lines"


def _chapter_contexts(graph: Graph, settings: Settings, embedder: CheckedEmbedder) -> None:
    """The chapter generator's context for one theme, as the owner and as a reader: each built from what they see."""
    from api.commands.summaries import print_context
    from api.models.summaries import ChapterContextOut
    from ingest.summary_jobs import serving_summaries
    from queries.context.chapter import chapter_context

    summaries = serving_summaries(graph, settings, embedder)
    for user in CHAPTER_VIEWERS:
        ctx = chapter_context(
            graph, embedder, settings, summaries, Viewer(user_id=user), PROJECT, CHAPTER_THEME, CHAPTER_BUDGET
        )
        print(f"\n» chapter context for {CHAPTER_THEME!r} as {user} ({MEMBERS[user]}), budget {CHAPTER_BUDGET} tokens:")
        print_context(ChapterContextOut.model_validate(ctx.as_dict()).model_dump(), indent="  ")


def run_demo(graph: Graph, settings: Settings, out: Path | None = None) -> int:
    print(_load(graph, settings))
    print(f"members of {PROJECT}: " + ", ".join(f"{u} ({r})" for u, r in MEMBERS.items()))
    print("who they are in the diary: " + ", ".join(f"{u} is {p}" for u, p in PERSONS.items()))
    embedder = active_embedder(graph, settings)
    for user, query, filters in SEARCHES:
        resp = hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=user),
            query,
            Scope(project_id=PROJECT),
            SearchOptions(k=3, filters=filters),
        )
        print(
            f"\n» {user} ({MEMBERS[user]}) searches {query!r}: {resp.total_candidates} candidates, source {resp.source}"
        )
        for i, r in enumerate(resp.results, start=1):
            print(f"  {i}. [{r.intimacy_level:8s}] {r.entry_id} ({r.occurred_on}, by {r.author_id})")
            print(f"     {r.snippet_md[:160]}")
    counts = {}
    for user in MEMBERS:
        resp = hybrid_search(
            graph, embedder, settings, Viewer(user_id=user), "", Scope(project_id=PROJECT), SearchOptions(k=100)
        )
        counts[user] = {
            lvl: sum(1 for r in resp.results if r.intimacy_level == lvl)
            for lvl in ("private", "intimate", "circle", "public")
        }
    print("\nwhat each viewer can see (entries by intimacy):")
    for user, c in counts.items():
        print(f"  {user:5s} ({MEMBERS[user]:8s}) " + "  ".join(f"{k} {v}" for k, v in c.items()))
    print("\nThe reader never sees private or intimate entries, nor counts them.")
    _chapter_contexts(graph, settings, embedder)
    base = f"http://{settings.api_host}:{settings.api_port}"
    print(f"\nStart the service:  MEMORA_HOME={settings.home} .venv/bin/memora serve   (or `make serve`)")
    print(
        "Then open the one-time sign-in link it prints (`memora signin-link` makes another) in a browser and pick "
        + ", ".join(f"{u} ({r})" for u, r in MEMBERS.items())
        + "."
    )
    print(f"The API: {base}/docs; a token for it: MEMORA_HOME={settings.home} .venv/bin/memora token ana")
    return 0
