"""Peak memory of one process writing a 200 KB entry, acknowledged on commit vs embedded first.

    .venv/bin/python bench/bench_memory.py

Each variant runs in a fresh child process (peak RSS is per process): load the stack and the embedder, warm it on
one sentence, then write the entry; the child reports its peak resident set before and after the write.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, random, resource, sys, uuid
sys.path.insert(0, sys.argv[2])
from api.cli import connect
from graph.settings import get_settings
from inference.embedders import get_embedder
from ingest.pipeline import Ingestor
from ingest.records import parse_line

def peak_mb():
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)

settings = get_settings()
graph = connect(settings)
embedder = get_embedder(settings)
embedder.embed_passages(["warm up"])
before = peak_mb()
rng = random.Random(7)
words = "casa perro verano playa abuela cocina lluvia tren carta jardin hospital escuela mercado rio".split()
project = f"bench-memory-{uuid.uuid4().hex[:8]}"
text = " ".join(rng.choice(words) for _ in range(40_000))[:199_000]
rec = {"entry_id": f"{project}/long", "project_id": project, "kind": "chronicle", "text": text}
try:
    Ingestor(graph, embedder, embed=sys.argv[1] == "wait").ingest([(1, parse_line(1, json.dumps(rec)))])
    print(json.dumps({"variant": sys.argv[1], "peak_before_write_mb": before, "peak_after_write_mb": peak_mb()}))
finally:
    graph.write("MATCH (n) WHERE n.project_id = $p OR (n:Project AND n.id = $p) DETACH DELETE n", {"p": project})
"""


def main() -> int:
    for variant in ("ack", "wait"):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, variant, str(ROOT)], capture_output=True, text=True, timeout=900
        )
        print(out.stdout.strip() or out.stderr[-2000:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
