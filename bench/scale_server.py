"""`memora serve` for the scale benchmark: the same app (`api.app.create_app`, every router, middleware and check),
served by uvicorn on loopback, with the embedder chosen by the benchmark handed in explicitly.

    .venv/bin/python bench/scale_server.py --port N --embedder hash|default

`hash` is `bench/hash_embedder.py` (never selectable through `MEMORA_EMBEDDER`); `default` resolves the graph's
active model exactly as `memora serve` does. The background workers (embedding, summaries, entity vectors) are off:
the benchmark embeds at ingest and measures searches alone. `bench/scale.py` starts this in a subprocess, so its
resident memory is the service's alone.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main() -> int:
    import uvicorn

    from api.app import Services, create_app
    from api.cli import connect
    from bench.hash_embedder import HashEmbedder
    from graph.settings import get_settings
    from inference.embedders import CheckedEmbedder

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--embedder", choices=("hash", "default"), default="hash")
    args = parser.parse_args()
    settings = get_settings()
    graph = connect(settings)
    embedder = CheckedEmbedder(HashEmbedder()) if args.embedder == "hash" else None
    app = create_app(Services(settings, graph=graph, embedder=embedder), worker=False, warm=settings.warm_start)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
