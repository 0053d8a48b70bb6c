"""What the first search after a write costs a member of a large project, on a project `bench/scale.py --keep` left.

    .venv/bin/python bench/view_relist.py [--project ID] [--writes 3] [--json OUT] [--warm-start]

As the project's owner: the view is listed once cold (every visible entry and every vector fetched). Then, `--writes`
times:
- in part: one circle entry is written through the ingest pipeline (its chunk embedded by the benchmark's hash
  embedder); its generation step names it, and the view is taken again, listing only that entry;
- in full: the generations are bumped without naming entries (as an entity merge does) and
  the view is taken again, every visible entry listed (only new vectors are fetched), which every search of the
  viewer waits for when the view is small;
- behind (`MEMORA_DENSE_MATRIX_BACKGROUND_ENTRIES` below the view's size): after another such bump one search is
  timed (Cypher answers it while the view is listed in full in the background), then how long until the view serves;
- the first search after a write, as served by default (in part), timed through `hybrid_search`;
- the first search after a membership change (a reader joins, then leaves), as served by default;
- the changed member's own searches, as served by default, from the change until their view serves: after they
  join (no view yet) and after their role changes (reader to coauthor), a content question and filtered ones (a
  person, a place and a year) in turn.
Also, in the same process, the full listing statement alone against the shape it had before (a record per chunk,
dates as dates), and a kept view's lookup when nothing was written. The written entries are deleted at the end
(through the pipeline too), also on failure. With `--warm-start`, the process first prepares what a served one
prepares before it says it is ready (api/warmup.py: the statements planned, the last searchers' views listed).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.services import Services  # noqa: E402
from api.warmup import warm  # noqa: E402
from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.kept_project import kept_project  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph import generations  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.embeddings import stores_key  # noqa: E402
from graph.members import remove_member, set_member  # noqa: E402
from graph.schema import vector_property  # noqa: E402
from graph.settings import Settings, get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402
from ingest.pipeline import Ingestor  # noqa: E402
from ingest.records import parse_line  # noqa: E402
from queries.search import visible_view  # noqa: E402
from queries.search.channels import ENTRY_SCOPE  # noqa: E402
from queries.search.door import _lexicons, hybrid_search  # noqa: E402
from queries.search.request import Filters, Scope, SearchOptions  # noqa: E402
from queries.search.scope import SearchScope  # noqa: E402

# The listing as a record per chunk, dates decoded as dates: the baseline of the statement's A/B (against records of
# LISTED_BLOCK entries).
RECORD_PER_CHUNK = f"""
MATCH (e:Entry) WHERE {ENTRY_SCOPE}
WITH e, COLLECT {{ MATCH (e)-[m:MENTIONS]->(x) RETURN [x.id, coalesce(m.count, 0)] }} AS mentions
OPTIONAL MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
RETURN e.id AS entry_id, c.id AS chunk_id, coalesce(c.embedding_hash, '') AS hash,
       coalesce(c[$stores_key], 0) AS stores, e.occurred_start AS start, e.occurred_end AS end,
       toLower(e.author_id) AS author_key, mentions
ORDER BY entry_id, chunk_id
"""
QUESTION = "¿Qué pasó con la casa del pueblo y la huerta?"  # no date nor name: the view serves it


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", help="default: the project with the most entries")
    parser.add_argument("--writes", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--warm-start", action="store_true", help="first prepare what `memora serve` prepares before /ready"
    )
    args = parser.parse_args()
    base_settings = get_settings().model_copy(update={"search_cache_size": 0, "query_embed_cache_size": 0})
    waited = base_settings.model_copy(update={"dense_matrix_background_entries": 10**12})
    behind = base_settings.model_copy(update={"dense_matrix_background_entries": 0})
    graph = get_graph(base_settings)
    project, owner = kept_project(graph, args.project)
    viewer = Viewer(user_id=owner)
    embedder = CheckedEmbedder(HashEmbedder())
    if args.warm_start:  # the statements planned and the last searchers' views listed, as a served process does
        warm(Services(base_settings, graph=graph, embedder=embedder))
    params: dict[str, Any] = {
        **SearchScope.of(viewer, [project], Filters(), _lexicons(graph, [project], viewer)).params(),
        "prop": vector_property(embedder.slug),
    }
    key = stores_key(embedder.slug)

    def take(settings: Settings) -> tuple[float, visible_view.View | None]:
        t = time.perf_counter()
        view = visible_view.view_for(graph, settings, viewer, params, key, 0)
        return (time.perf_counter() - t) * 1000, view

    def ready() -> tuple[float, visible_view.View]:
        t = time.perf_counter()
        while time.perf_counter() - t < 600:
            view = visible_view.view_for(graph, behind, viewer, params, key, 0)
            if view is not None:
                return (time.perf_counter() - t) * 1000, view
            time.sleep(0.01)
        raise SystemExit("the background relisting never finished")

    cold, view = take(waited)
    kept, _ = take(waited)
    if view is None:
        raise SystemExit("no view: is the owner a member, and MEMORA_DENSE_MATRIX_VIEWERS above 0?")
    statement: dict[str, list[float]] = {"blocks": [], "record_per_chunk": []}
    for _ in range(3):
        for name, stmt in (("blocks", visible_view.VISIBLE_CHUNKS), ("record_per_chunk", RECORD_PER_CHUNK)):
            t = time.perf_counter()
            graph.read(stmt, {**params, "stores_key": key, "project_id": project, "block": visible_view.LISTED_BLOCK})
            statement[name].append((time.perf_counter() - t) * 1000)
    ingestor = Ingestor(graph, embedder, embed=True)
    written: list[str] = []
    in_part: list[float] = []
    in_full: list[float] = []
    first_search: list[float] = []
    behind_first: list[float] = []
    after_member: list[float] = []
    member_searches: dict[str, list[float]] = {"joined": [], "role_changed": []}
    questions = [QUESTION, *(q["question"] for q in generate(40, 1, project).queries if q["category"] == "filtered")]
    served_again: list[float] = []
    listed_new = 0

    def write(n: int) -> str:
        entry_id = f"{project}/relist-{uuid.uuid4().hex[:8]}"
        record = {
            "entry_id": entry_id,
            "project_id": project,
            "author": owner,
            "intimacy": "circle",
            "text": f"Una nota breve número {n} para medir la vista.",
        }
        report = ingestor.ingest([(1, parse_line(1, json.dumps(record, ensure_ascii=False)))])
        if report.errors:
            raise SystemExit(f"the write failed: {report.errors}")
        written.append(entry_id)
        return entry_id

    def search(settings: Settings, who: Viewer = viewer, question: str = QUESTION) -> float:
        t = time.perf_counter()
        hybrid_search(
            graph,
            embedder,
            settings,
            who,
            question,
            Scope(project_id=project),
            SearchOptions(k=10),
            project_ids=[project],
        )
        return (time.perf_counter() - t) * 1000

    def changed_member(who: Viewer) -> list[float]:
        """The changed member's searches, as served by default, from the change until their view serves: each of
        the questions in turn (Cypher answers while the view is listed behind)."""
        times: list[float] = []
        t = time.perf_counter()
        while time.perf_counter() - t < 600:
            times.append(search(base_settings, who, questions[len(times) % len(questions)]))
            if visible_view.view_for(graph, base_settings, who, {**params, "viewer_id": who.user_id}, key, 0):
                return times
        raise SystemExit("the changed member's view never served")

    try:
        for n in range(args.writes):
            entry_id = write(n)
            listings = visible_view.counters["listings"]
            ms, relisted = take(waited)
            in_part.append(ms)
            listed_new += relisted is not None and entry_id in relisted.entry_ids
            if visible_view.counters["listings"] != listings:
                raise SystemExit("a write through the pipeline was listed in full: its step did not name it")
            generations.bump(graph, [project])
            in_full.append(take(waited)[0])
            generations.bump(graph, [project])
            behind_first.append(search(behind))
            ms, _ = ready()
            served_again.append(behind_first[-1] + ms)
            entry_id = write(n)
            first_search.append(search(waited))
            _, relisted = take(waited)
            listed_new += relisted is not None and entry_id in relisted.entry_ids
            newcomer = f"bench-relist-{uuid.uuid4().hex[:8]}"
            set_member(graph, project, newcomer, "reader")
            after_member.append(search(base_settings))
            member_searches["joined"].extend(changed_member(Viewer(user_id=newcomer)))  # no view yet
            set_member(graph, project, newcomer, "coauthor")
            member_searches["role_changed"].extend(changed_member(Viewer(user_id=newcomer)))
            remove_member(graph, project, newcomer)
            after_member.append(search(base_settings))
    finally:
        for entry_id in written:
            ingestor.delete(entry_id)

    def p50(values: list[float]) -> float | None:
        return round(statistics.median(values), 1) if values else None

    out = {
        "project": project,
        "visible_entries": len(view.entry_ids),
        "cold_listing_ms": round(cold, 1),
        "kept_lookup_ms": round(kept, 3),
        "listed_new": listed_new,
        "relist_in_part_ms": [round(x, 1) for x in in_part],
        "relist_in_part_p50_ms": p50(in_part),
        "relist_ms": [round(x, 1) for x in in_full],
        "relist_p50_ms": p50(in_full),
        "first_search_after_write_ms": [round(x, 1) for x in first_search],
        "first_search_after_write_p50_ms": p50(first_search),
        "first_search_after_membership_ms": [round(x, 1) for x in after_member],
        "first_search_after_membership_p50_ms": p50(after_member),
        "changed_member": {
            phase: {
                "searches": len(times),
                "p50_ms": p50(times),
                "max_ms": round(max(times), 1) if times else None,
                "over_1s": sum(x > 1000 for x in times),
                "ms": [round(x) for x in times],
            }
            for phase, times in member_searches.items()
        },
        "behind": {
            "first_search_ms": [round(x, 1) for x in behind_first],
            "first_search_p50_ms": p50(behind_first),
            "served_again_p50_ms": p50(served_again),
        },
        "listing_statement_p50_ms": {k: p50(v) for k, v in statement.items()},
    }
    print(json.dumps(out))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
