"""What reading the times entries tell costs at ingest: write-only ingest (the provider fails at once, so chunks are
stored pending and nothing hides the reading's share) of the first N LoCoMo turns, each run into a fresh project,
alternating runs with the reading on and off in the same process (after one round of each to warm up); and the
reading alone on the same texts.

Usage: .venv/bin/python bench/bench_event_times.py [--entries 600] [--rounds 3] [--embed] [--json OUT]

With `--embed` the default embedder embeds every chunk (texts made unique, so no stored vector is reused): the
reading's share of an ingest as a user runs it.

LoCoMo turns are dated to their session's day, so every turn is read. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import ingest.pipeline as pipeline  # noqa: E402
from api.cli import connect  # noqa: E402
from bench.bench_ingest import LOCOMO, Down  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from inference.embedders import CheckedEmbedder, get_embedder  # noqa: E402
from ingest.event_times import event_times  # noqa: E402
from ingest.pipeline import Ingestor  # noqa: E402
from ingest.records import parse_line  # noqa: E402

DROP = "MATCH (n) WHERE n.project_id = $p OR (n:Project AND n.id = $p) DETACH DELETE n"


def _rows(n: int, project: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with LOCOMO.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            row["project_id"] = project
            row["entry_id"] = f"{project}/{len(rows)}"
            row["text"] = f"{row['text']} ({project} {len(rows)})"  # unique: no stored vector is reused
            rows.append(row)
            if len(rows) == n:
                break
    return rows


def _ingest(graph: Any, rows: list[dict[str, Any]], embedder: CheckedEmbedder) -> float:
    items = [(i, parse_line(i, json.dumps(r))) for i, r in enumerate(rows, 1)]
    started = time.perf_counter()
    report = Ingestor(graph, embedder, embed=True).ingest(items)
    seconds = time.perf_counter() - started
    assert report.written == len(rows) and not report.errors, report
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--embed", action="store_true", help="embed with the default embedder (not write-only)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    settings = get_settings()
    graph = connect(settings)
    embedder = get_embedder(settings) if args.embed else CheckedEmbedder(Down())
    reading = pipeline.times_told
    timings: dict[str, list[float]] = {"on": [], "off": []}
    for n in range(args.rounds + 1):  # the first round warms up and is not counted; the order alternates
        for mode in ("off", "on") if n % 2 else ("on", "off"):
            project = f"bench-told-{uuid.uuid4().hex[:8]}"
            pipeline.times_told = reading if mode == "on" else (lambda *a, **k: [])
            try:
                seconds = _ingest(graph, _rows(args.entries, project), embedder)
                if n:
                    timings[mode].append(seconds)
            finally:
                pipeline.times_told = reading
                graph.write(DROP, {"p": project})
    texts = [(r["text"], date.fromisoformat(str(r["occurred_at"])[:10])) for r in _rows(args.entries, "x")]
    started = time.perf_counter()
    told = sum(len(event_times(text, day)) for text, day in texts)
    alone = time.perf_counter() - started
    on, off = statistics.median(timings["on"]), statistics.median(timings["off"])
    report = {
        "entries": args.entries,
        "embedder": embedder.model_id,
        "rounds": args.rounds,
        "entries_per_s_on": round(args.entries / on, 1),
        "entries_per_s_off": round(args.entries / off, 1),
        "ratio_on_over_off": round(on / off, 3),
        "reading_alone_ms_per_entry": round(1000 * alone / args.entries, 3),
        "times_read": told,
    }
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
