"""What every web test starts from: `memora serve`'s app on the real Neo4j, and a small family to sign in as."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from graph.db import Graph
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from tests.serving import serve
from tests.web_world import WebWorld, build_world


@pytest.fixture()
def served(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> Iterator[str]:
    with serve(settings, graph, embedder) as url:
        yield url


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> WebWorld:
    return build_world(graph, prefix, ingest)
