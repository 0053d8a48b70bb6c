"""CPU a search, in this process and in the Neo4j server, over the dev sets' questions through the default search.

    .venv/bin/python bench/search_cpu.py [--data DIR] [--rounds 2]

diary-es and (with `--data`) LoCoMo are ingested as `memora eval` does, searched once to warm, then `--rounds` times
with the result cache off; prints wall time, this process's CPU and the Neo4j server's CPU (from /proc, the local
server only) per search. Run it in two trees, alternated, to compare code on one machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.cli import connect  # noqa: E402
from api.evaluation import run_eval  # noqa: E402
from bench.run_evals import dataset_files, load_set  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from inference.embedders import get_embedder  # noqa: E402

CHANNELS = ("dense", "fulltext", "structured")


def neo4j_cpu_seconds() -> float:
    """User and system CPU of the local Neo4j server processes so far."""
    found = subprocess.run(["pgrep", "-f", "org.neo4j"], capture_output=True, text=True).stdout.split()
    total = 0
    for pid in found:
        fields = Path(f"/proc/{pid}/stat").read_text().split()
        total += int(fields[13]) + int(fields[14])
    return total / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=os.environ.get("MEMORA_BENCH_DATA") or None)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    settings = get_settings().model_copy(update={"search_cache_size": 0})
    graph = connect(settings)
    embedder = get_embedder(settings)
    sets = {n: f for n, f in dataset_files(args.data).items() if n in ("diary-es", "locomo") and f[0].is_file()}
    questions = {n: load_set(graph, embedder, n, f) for n, f in sets.items()}
    for qs in questions.values():
        run_eval(graph, embedder, settings, qs, CHANNELS, understanding=True)
    cpu, neo, wall, count = time.process_time(), neo4j_cpu_seconds(), time.perf_counter(), 0
    for _ in range(args.rounds):
        for qs in questions.values():
            run_eval(graph, embedder, settings, qs, CHANNELS, understanding=True)
            count += len(qs)
    cpu, neo, wall = time.process_time() - cpu, neo4j_cpu_seconds() - neo, time.perf_counter() - wall
    print(
        f"{', '.join(sets)}: {count} searches; ms a search: wall {1000 * wall / count:.2f}, "
        f"this process's CPU {1000 * cpu / count:.2f}, Neo4j's CPU {1000 * neo / count:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
