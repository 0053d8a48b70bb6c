"""What a request needs (settings, the graph, the active embedder), built once per app and found by every route
through `api.deps.get_services`."""

from __future__ import annotations

import threading
import time

from graph.db import Graph, get_graph
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from ingest.embedding_jobs import active_embedder
from ingest.relink import RelinkJobs

_RELINK_LOCK = threading.Lock()


class Services:
    """What a request needs, built once per app. What the service keeps about the database's content (answers,
    aggregates, query vectors, views, live indexes) lives on its graph handle, `graph.kept` (graph/kept.py)."""

    def __init__(self, settings: Settings, graph: Graph | None = None, embedder: CheckedEmbedder | None = None):
        self.settings = settings
        self._graph = graph
        self._embedder = embedder
        self._relink: RelinkJobs | None = None
        self._active: tuple[float, CheckedEmbedder] | None = None

    @property
    def graph(self) -> Graph:
        if self._graph is None:
            self._graph = get_graph(self.settings)
        return self._graph

    @property
    def embedder(self) -> CheckedEmbedder:
        """The model the graph names as active (a completed migration switches it without a restart)."""
        if self._embedder is not None:
            return self._embedder
        # One graph read per request was the price of seeing a switch at once; MEMORA_STATE_CACHE_SECONDS bounds it.
        now, cached = time.monotonic(), self._active
        if cached is None or now - cached[0] >= self.settings.state_cache_seconds:
            cached = self._active = (now, active_embedder(self.graph, self.settings))
        return cached[1]

    @property
    def relink_jobs(self) -> RelinkJobs:
        """Background re-linking after entity changes (one thread, started on the first job)."""
        with _RELINK_LOCK:
            if self._relink is None:
                self._relink = RelinkJobs(self.graph, lambda: self.embedder)
            return self._relink
