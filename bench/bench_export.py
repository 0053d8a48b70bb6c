"""Export and import time for N generated entries (docs/RELIABILITY.md): ingest N short entries into a fresh
project, time `memora export` and `memora import --as-project` (vectors reused: the copy's chunks have the same
content), then delete both projects. Usage: MEMORA_HOME=... python bench/bench_export.py [N]"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import uuid
from pathlib import Path

from api.cli import main
from graph.db import get_graph
from graph.settings import get_settings

CLEANUP = "MATCH (n) WHERE n.project_id STARTS WITH $p OR (n:Project AND n.id STARTS WITH $p) DETACH DELETE n"


def run(n: int) -> None:
    prefix = f"bench-export-{uuid.uuid4().hex[:8]}-"
    source, copy = f"{prefix}src", f"{prefix}copy"
    graph = get_graph(get_settings())
    places = ["Cádiz", "Berlín", "Lavapiés", "Girona"]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            entries, first = Path(tmp) / "entries.jsonl", Path(tmp) / "export.jsonl"
            entries.write_text(
                "".join(
                    json.dumps(
                        {
                            "entry_id": f"{source}/e{i}",
                            "project_id": source,
                            "author": f"{prefix}ana",
                            "occurred_on": f"{2000 + i % 25}-{1 + i % 12:02d}",
                            "places": [places[i % 4]],
                            "text": f"Entrada {i}: aquel día en {places[i % 4]} hablamos del piso y de la abuela "
                            f"({i}).",
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                    for i in range(n)
                ),
                encoding="utf-8",
            )
            t = time.monotonic()
            assert main(["ingest", str(entries), "--owner", f"{prefix}ana"]) == 0
            ingest_s = time.monotonic() - t
            t = time.monotonic()
            assert main(["export", "--project", source, "--out", str(first)]) == 0
            export_s = time.monotonic() - t
            t = time.monotonic()
            assert main(["import", str(first), "--as-project", copy]) == 0
            import_s = time.monotonic() - t
            print(
                json.dumps(
                    {
                        "entries": n,
                        "ingest_s": round(ingest_s, 1),
                        "export_s": round(export_s, 2),
                        "export_bytes": first.stat().st_size,
                        "import_as_copy_s": round(import_s, 1),
                    }
                )
            )
    finally:
        graph.write(CLEANUP, {"p": prefix})


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
