"""What the first search after a write costs a member of a large project: the kept view listed again, on a project
`bench/scale.py --keep` left.

    .venv/bin/python bench/view_relist.py [--project ID] [--writes 3] [--json OUT]

As the project's owner: the view is listed once cold (every visible entry and every vector fetched), then, `--writes`
times, one circle entry is written through the ingest pipeline (its chunk embedded by the benchmark's hash embedder),
which moves the owner's generations, and the view is taken again: listed again, with only the new vector fetched.
Prints the cold listing, each relisting (and how many of them held the new entry), and a kept view's lookup when
nothing was written. The written entries are
deleted at the end (through the pipeline too), also on failure.
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

from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.kept_project import kept_project  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.embeddings import stores_key  # noqa: E402
from graph.schema import vector_property  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.visibility import Viewer  # noqa: E402
from ingest.embedders import CheckedEmbedder  # noqa: E402
from ingest.pipeline import Ingestor, parse_line  # noqa: E402
from queries import visible_view  # noqa: E402
from queries.search import Filters, _base_params, _lexicons  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", help="default: the project with the most entries")
    parser.add_argument("--writes", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    settings = get_settings()
    graph = get_graph(settings)
    project, owner = kept_project(graph, args.project)
    viewer = Viewer(user_id=owner)
    embedder = CheckedEmbedder(HashEmbedder())
    params: dict[str, Any] = {**_base_params(viewer, [project], Filters(), _lexicons(graph, [project], viewer)),
                              "prop": vector_property(embedder.slug)}
    key = stores_key(embedder.slug)

    def take() -> tuple[float, visible_view.View]:
        t = time.perf_counter()
        view = visible_view.view_for(graph, settings, viewer, params, key, 0)
        if view is None:
            raise SystemExit("no view: is the owner a member, and MEMORA_DENSE_MATRIX_VIEWERS above 0?")
        return (time.perf_counter() - t) * 1000, view

    cold, view = take()
    kept, _ = take()
    ingestor = Ingestor(graph, embedder, embed=True)
    written: list[str] = []
    relists: list[float] = []
    listed_new = 0
    try:
        for n in range(args.writes):
            entry_id = f"{project}/relist-{uuid.uuid4().hex[:8]}"
            record = {"entry_id": entry_id, "project_id": project, "author": owner, "intimacy": "circle",
                      "text": f"Una nota breve número {n} para medir la vista."}
            report = ingestor.ingest([(1, parse_line(1, json.dumps(record, ensure_ascii=False)))])
            if report.errors:
                raise SystemExit(f"the write failed: {report.errors}")
            written.append(entry_id)
            ms, view = take()
            relists.append(ms)
            listed_new += entry_id in view.entry_ids
    finally:
        for entry_id in written:
            ingestor.delete(entry_id)
    out = {"project": project, "visible_entries": len(view.entry_ids), "cold_listing_ms": round(cold, 1),
           "kept_lookup_ms": round(kept, 3), "relist_ms": [round(x, 1) for x in relists], "listed_new": listed_new,
           "relist_p50_ms": round(statistics.median(relists), 1) if relists else None}
    print(json.dumps(out))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
