"""One search in flight: what every step of the door reads (the graph, the model, the settings, the viewer, the
options) and what every step adds to (stage timings, warnings), carried as one object instead of a dozen
parameters."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from graph.db import Graph
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search.request import SearchOptions

# The channels of one search run side by side here: the request's own thread embeds the query meanwhile.
SEARCH_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="memora-search")


@dataclass
class SearchRun:
    graph: Graph
    embedder: CheckedEmbedder
    settings: Settings
    viewer: Viewer
    options: SearchOptions
    query: str
    started: float = field(default_factory=time.perf_counter)
    latency: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # The vector the dense channel searched with, when it ran: the ranker's `alike` fact reuses it for every candidate.
    dense_vector: list[float] | None = None

    def took(self, stage: str, since: float) -> None:
        """Record a stage's time in milliseconds (`latency` of the answer)."""
        self.latency[stage] = ms(since)

    @property
    def embed_cache_size(self) -> int:
        """Witnesses get no query-embedding cache: several links may share one chapter and nothing tells them
        apart."""
        return 0 if self.viewer.is_witness else self.settings.query_embed_cache_size


def ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)
