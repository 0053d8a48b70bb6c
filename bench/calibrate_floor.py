"""Calibrate the dense similarity floor of the fallback chain for the default embedder.

Answerable: each dev question against its own corpus (the relevant memory exists). Unanswerable: LoCoMo questions
against XQuAD paragraphs and XQuAD questions against a LoCoMo conversation (nothing relevant exists). Scores are
Neo4j's normalised cosine, (1 + cos) / 2, as the dense channel reports them. Prints percentiles as JSON.

Usage: .venv/bin/python bench/calibrate_floor.py [--data DIR]   (DIR holds locomo-dev/ and xquad-es-dev/; default
$MEMORA_BENCH_DATA)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

from graph.settings import get_settings
from inference.embedders import get_embedder
from ingest.context import chunk_context
from ingest.dates import parse_occurred


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


def _passage(e: dict[str, object]) -> str:
    when = parse_occurred(str(e["occurred_on"])) if e.get("occurred_on") else None
    ctx = chunk_context(
        title=e.get("title"),
        author=e.get("author"),
        occurred=when,  # type: ignore[arg-type]
        period=None,
        persons=list(e.get("persons", [])),
        places=[],
    )  # type: ignore[call-overload]
    return f"{ctx}\n{e['text']}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=os.environ.get("MEMORA_BENCH_DATA") or None)
    data = parser.parse_args().data
    if data is None or not (data / "locomo-dev").is_dir() or not (data / "xquad-es-dev").is_dir():
        sys.exit("calibration needs --data DIR (or MEMORA_BENCH_DATA) holding locomo-dev/ and xquad-es-dev/")
    emb = get_embedder(get_settings())
    loc_entries = [e for e in _lines(data / "locomo-dev" / "entries.jsonl") if e["project_id"] == "conv-26"]
    loc_queries = [q for q in _lines(data / "locomo-dev" / "queries.jsonl") if q["project_id"] == "conv-26"]
    xq_entries = _lines(data / "xquad-es-dev" / "entries_en.jsonl")
    xq_queries = _lines(data / "xquad-es-dev" / "queries.jsonl")
    e_loc = emb.embed_passages([_passage(e) for e in loc_entries])
    e_xq = emb.embed_passages([_passage(e) for e in xq_entries])

    def tops(queries: list[dict[str, object]], matrix: np.ndarray) -> list[float]:
        return [(1 + float((matrix @ emb.embed_query(str(q["question"]))).max())) / 2 for q in queries]

    answerable = tops(loc_queries, e_loc) + tops(xq_queries, e_xq)
    unanswerable = tops(loc_queries, e_xq) + tops(xq_queries, e_loc)
    pct = (0, 1, 5, 50, 95, 99, 100)
    print(
        json.dumps(
            {
                "model": emb.model_id,
                "answerable": {f"p{p}": round(float(np.percentile(answerable, p)), 4) for p in pct},
                "unanswerable": {f"p{p}": round(float(np.percentile(unanswerable, p)), 4) for p in pct},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
