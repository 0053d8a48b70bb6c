"""What name recognition (ingest/recognition.py) costs at ingest.

Usage: .venv/bin/python bench/bench_recognition.py [--copies 3] [--locomo 300] [--kinds]
 1. Recognition alone (`recognize`, batched `nlp.pipe`) per language pipeline: bench/diary-es (Spanish, rule
    pipeline), the first --locomo LoCoMo turns (English, rule pipeline) and the French sentences below (statistical
    fr_core_news_sm); the first-call load time of each pipeline is reported apart.
 2. Ingest of diary-es × --copies (ids and texts made unique) into a fresh project, with recognition on and off, the
    embedder down (chunks stored pending) so only linking, recognition and the write are timed; the project is
    deleted afterwards.
With --kinds, only the kinds instead: of diary-es' candidates whose name the diary declares (entities.json, or an
entry's `persons`/`places`), how many got the declared kind; and how many name nothing declared.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from typing import Any

import numpy as np

from api.cli import connect
from graph.lexicon import ProjectLexicon
from graph.settings import REPO_ROOT, get_settings
from graph.textnorm import fold
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor
from ingest.recognition import recognize
from ingest.records import parse_line
from ingest.spacy_pipelines import pipeline

DIARY = REPO_ROOT / "bench" / "diary-es" / "entries.jsonl"
LOCOMO = REPO_ROOT.parent / "shared" / "bench" / "locomo-dev" / "entries.jsonl"
FRENCH = [
    "Hier, ma tante {a} est venue avec {b} à {c}. Nous avons dîné chez {d}, puis nous sommes rentrés tard.",
    "Ce matin, {a} m'a appelé de {c} : {b} va mieux, et {d} passera dimanche avec les enfants.",
    "Nous avons marché le long de la Seine avec {b} et {a}, avant de prendre le train pour {c}.",
]
DELETE_PROJECT = "MATCH (n) WHERE n.project_id = $p OR (n:Project AND n.id = $p) DETACH DELETE n"
FR_NAMES = ["Claire", "Jean-Pierre Dubois", "Lyon", "Paul", "Sophie Martin", "Marseille", "Hélène", "Bordeaux"]


class Down:
    """An embedder that fails at once: the chunks are stored pending, nothing is embedded."""

    model_id, slug, dimensions = "down", "e5small", 384

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        raise ConnectionError("down")

    def embed_query(self, text: str) -> np.ndarray:
        raise ConnectionError("down")


def _lines(path: Any, n: int | None = None) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    return rows[:n] if n else rows


def recognition_alone(texts: list[str], lang: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    _, name = pipeline(lang)
    load = time.perf_counter() - t0
    lex = ProjectLexicon("bench")
    t0 = time.perf_counter()
    found = recognize([(t, lex, []) for t in texts])
    spent = time.perf_counter() - t0
    return {
        "pipeline": name,
        "entries": len(texts),
        "load_s": round(load, 2),
        "entries_per_s": round(len(texts) / spent, 1),
        "ms_per_entry": round(1000 * spent / len(texts), 2),
        "names_per_entry": round(sum(len(r.spotted) for r in found) / len(texts), 2),
        "detected": {lg: sum(1 for r in found if r.language == lg) for lg in ("es", "en", "fr", None)},
    }


def ingest_run(copies: int, on: bool) -> dict[str, Any]:
    settings = get_settings()
    settings.recognition = on
    graph = connect(settings)
    project = f"bench-rec-{uuid.uuid4().hex[:8]}"
    items = []
    for c in range(copies):
        for row in _lines(DIARY):
            row = {
                **row,
                "project_id": project,
                "entry_id": f"{project}/{c}/{row['entry_id']}",
                "text": f"{row['text']} ({c})",
            }
            items.append((len(items) + 1, parse_line(len(items) + 1, json.dumps(row, ensure_ascii=False))))
    ingestor = Ingestor(graph, CheckedEmbedder(Down()), embed=True)  # type: ignore[arg-type]
    try:
        t0 = time.perf_counter()
        report = ingestor.ingest(items)
        spent = time.perf_counter() - t0
    finally:
        graph.write(DELETE_PROJECT, {"p": project})
    return {
        "recognition": on,
        "entries": report.written,
        "seconds": round(spent, 2),
        "entries_per_s": round(report.written / spent, 1),
    }


def kinds() -> dict[str, int]:
    """Candidate kinds against the kinds diary-es declares (nothing is known to the lexicon: every name is found)."""
    rows = _lines(DIARY)
    declared: dict[str, str] = {}
    for entity in json.loads((DIARY.parent / "entities.json").read_text(encoding="utf-8")):
        for name in (entity["name"], *entity.get("aliases", [])):
            declared[fold(name)] = entity["kind"]
    for r in rows:
        for kind, field in (("person", "persons"), ("place", "places")):
            for name in r.get(field) or []:
                declared.setdefault(fold(name), kind)
    out = {"right": 0, "wrong": 0, "undeclared": 0}
    for rec in recognize([(r["text"], ProjectLexicon("p"), []) for r in rows]):
        for s in rec.spotted:
            kind = declared.get(fold(s.name))
            out["undeclared" if kind is None else "right" if kind == s.kind else "wrong"] += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--locomo", type=int, default=300)
    parser.add_argument("--kinds", action="store_true", help="only the candidates' kinds against diary-es")
    args = parser.parse_args()
    if args.kinds:
        print(json.dumps(kinds(), indent=2))
        return
    diary = [f"{r.get('title') or ''}\n{r['text']}" for r in _lines(DIARY)]
    english = [r["text"] for r in _lines(LOCOMO, args.locomo)] if LOCOMO.exists() else []
    french = [
        FRENCH[i % 3].format(
            a=FR_NAMES[i % 8], b=FR_NAMES[(i + 1) % 8], c=FR_NAMES[(i + 2) % 8], d=FR_NAMES[(i + 3) % 8]
        )
        for i in range(200)
    ]
    out: dict[str, Any] = {
        "alone": {"es": recognition_alone(diary * args.copies, "es"), "fr": recognition_alone(french, "fr")}
    }
    if english:
        out["alone"]["en"] = recognition_alone(english, "en")
    ingest_run(1, True)  # warm-up: connection, statements, pipelines
    out["ingest"] = [ingest_run(args.copies, False), ingest_run(args.copies, True)]
    off, on = out["ingest"][0]["seconds"], out["ingest"][1]["seconds"]
    out["ingest_overhead_pct"] = round(100 * (on - off) / off, 1)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
