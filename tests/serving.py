"""The real HTTP service on a free loopback port, in a thread: what tests that need a socket (a generated client,
concurrent clients) talk to."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from api.app import Services, create_app
from api.ratelimit import UNLIMITED
from bench.serving import served_in_thread
from graph.db import Graph
from graph.settings import Settings
from inference.embedders import CheckedEmbedder


@contextmanager
def serve(settings: Settings, graph: Graph, embedder: CheckedEmbedder, limits: bool = False) -> Iterator[str]:
    """`memora serve`'s app without its worker; rate limits off unless `limits` (tests measure the service)."""
    cfg = settings if limits else settings.model_copy(update=UNLIMITED)
    with served_in_thread(create_app(Services(cfg, graph=graph, embedder=embedder))) as url:
        yield url
