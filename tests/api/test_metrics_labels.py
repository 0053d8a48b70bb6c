"""Request metrics keep a bounded set of series whatever clients send (api/metrics.py): thousands of requests with
random methods and paths, through the ASGI app and through a real socket, add no series and no memory, so nobody can
grow the service's memory without a token."""

from __future__ import annotations

import random
import string
import tracemalloc
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
from fastapi.testclient import TestClient

from api.app import Services, create_app
from api.metrics import REGISTRY
from graph.db import Graph
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from tests.serving import serve

TEMPLATED = ("/v1/entries/{}", "/p/{}/timeline", "/e/{}", "/static/{}")


def requests(seed: int, count: int, method_length: int) -> Iterator[tuple[str, str]]:
    """Random method tokens (and lower-case or unusual spellings), random paths and paths that a route template
    matches with a random id. The paths and the kind of each method depend on `seed` alone, so two runs with one
    seed reach the same labels whatever `method_length`."""
    paths, methods = random.Random(seed), random.Random(seed + 1)
    for n in range(count):
        segment = "".join(paths.choices(string.ascii_letters + string.digits, k=paths.randint(1, 60)))
        path = paths.choice(TEMPLATED).format(segment) if n % 2 else f"/{segment}/{n}"
        if n % 10 == 0:
            yield paths.choice(("get", "Post", "PROPFIND", "TRACE")), path
        else:
            yield "".join(methods.choices(string.ascii_uppercase, k=method_length)), path


def registry_size() -> tuple[int, int]:
    """The samples the registry would expose, and the characters of all their label values."""
    samples = [s for metric in REGISTRY.collect() for s in metric.samples]
    return len(samples), sum(len(v) for s in samples for v in s.labels.values())


def test_random_methods_and_paths_add_no_series_and_no_memory(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings
) -> None:
    with TestClient(create_app(Services(settings, graph=graph, embedder=embedder))) as client:
        for method, path in requests(1, 800, 8):  # every label the measured requests reach, once
            client.request(method, path)
        before = registry_size()
        tracemalloc.start()
        try:
            start, _ = tracemalloc.get_traced_memory()
            for method, path in requests(1, 800, 8000):
                assert client.request(method, path).status_code < 500
            grown = tracemalloc.get_traced_memory()[0] - start
        finally:
            tracemalloc.stop()
        assert registry_size() == before, "a client-chosen method or path became a label"
        assert grown < 2_000_000, f"{grown} bytes kept after 6 MB of methods"
        answer = client.request("BREW", "/v1/entries/x/y")
        assert answer.status_code == 405, "metrics change no answer"


def test_a_real_server_keeps_its_series_whatever_the_socket_sends(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings
) -> None:
    with serve(settings, graph, embedder) as url, httpx.Client(base_url=url, timeout=30) as client:

        def send(batch: Iterator[tuple[str, str]]) -> list[int]:
            with ThreadPoolExecutor(8) as pool:  # a socket round trip is slow; eight at once
                return list(pool.map(lambda r: client.request(*r).status_code, batch))

        send(requests(3, 1000, 8))
        before = registry_size()
        assert max(send(requests(3, 1000, 4000))) < 500
        assert registry_size() == before
        assert client.get("/health").status_code == 200
