"""What every embedding provider shares, and the registry in `inference.embedders` builds on: the options
(`EmbedderSettings`, read once from `MEMORA_EMBEDDER_*`), the error type, the provider protocols, and the helpers
for unit vectors, Matryoshka truncation, prompts, model ids and slugs.

Providers (`inference.providers.*`) import this module; `inference.embedders` imports the providers. Nothing here
imports
either, so there is no import circle.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Protocol, runtime_checkable

import numpy as np
from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

_STEM = re.compile(r"[^a-z0-9]+")

# At most this many passages per model call (and per forward pass) in the local providers: a large entry (hundreds of
# chunks) then embeds in bounded memory, and the passage lock is held one batch at a time.
PASSAGE_BATCH = 16


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
    """Optional: lexical weights (token -> weight) for the sparse channel (queries/search/channels.py, `SPARSE`)."""

    def embed_sparse(self, texts: list[str], *, query: bool = False) -> list[dict[str, float]]: ...


class EmbedderSettings(BaseSettings):
    """Provider options from `MEMORA_EMBEDDER_*`, read once (the provider and model names live in `Settings`)."""

    model_config = SettingsConfigDict(env_prefix="MEMORA_EMBEDDER_", extra="ignore")

    base_url: str | None = Field(default=None, description="openai-compatible: e.g. http://127.0.0.1:8000/v1")
    api_key: SecretStr | None = Field(default=None, description="openai-compatible: sent as a bearer token")
    dimensions: int | None = Field(
        default=None,
        ge=1,
        le=4096,
        description="Matryoshka truncation (renormalised); openai-compatible also sends it as `dimensions`.",
    )
    send_dimensions: bool = Field(default=True, description="openai-compatible: send `dimensions` in the request")
    timeout_seconds: float = Field(default=30.0, gt=0, description="openai-compatible: per request attempt")
    max_retries: int = Field(default=3, ge=0, le=10, description="retries on connect errors, timeouts, 429, 5xx")
    retry_backoff_seconds: float = Field(default=0.5, ge=0, description="first retry delay; doubles each time")
    batch_size: int = Field(
        default=64,
        ge=1,
        le=4096,
        description=f"texts per request / forward pass (local providers: at most {PASSAGE_BATCH} per forward pass)",
    )
    query_instruction: str | None = Field(
        default=None, description="prefix for queries; None = the model's own prompt, e5's 'query: ', or none"
    )
    passage_instruction: str | None = Field(default=None, description="prefix for passages; None = as above")
    input_type_field: str = Field(
        default="input_type", description="openai-compatible: request field telling query from document; '' = none"
    )
    query_input_type: str = "query"
    passage_input_type: str = "document"
    model_version: str | None = Field(
        default=None, description="overrides the version in model_id (default: a fingerprint of the local files)"
    )
    device: str | None = Field(default=None, description="torch device for local providers (default: automatic)")
    trust_remote_code: bool = Field(default=False, description="local providers: run code shipped with the model")

    def cache_key(self) -> str:
        data = self.model_dump(mode="json", exclude={"api_key"})
        secret = self.api_key.get_secret_value() if self.api_key else ""
        return f"{sorted(data.items())}|{hashlib.sha256(secret.encode()).hexdigest()[:16]}"


@lru_cache(maxsize=1)
def get_embedder_settings() -> EmbedderSettings:
    return EmbedderSettings()


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


def default_prompts(
    model: str, options: EmbedderSettings, model_prompts: dict[str, str] | None = None
) -> tuple[str, str]:
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


def in_batches(texts: list[str], size: int, embed: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    """`embed` over consecutive slices of at most `size` texts, one call each, rows in input order."""
    if len(texts) <= size:
        return embed(texts)
    return np.vstack([embed(texts[i : i + size]) for i in range(0, len(texts), size)])
