"""The real HTTP service on a free loopback port, in a thread: what tests that need a socket (a generated client,
concurrent clients) talk to."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from api.app import Services, create_app
from api.ratelimit import UNLIMITED
from graph.db import Graph
from graph.settings import Settings
from ingest.embedders import CheckedEmbedder


@contextmanager
def serve(settings: Settings, graph: Graph, embedder: CheckedEmbedder, limits: bool = False) -> Iterator[str]:
    """`memora serve`'s app without its worker; rate limits off unless `limits` (tests measure the service)."""
    app = create_app(Services(settings if limits else settings.model_copy(update=UNLIMITED), graph=graph,
                              embedder=embedder))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    if not server.started:
        raise RuntimeError("the server did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
