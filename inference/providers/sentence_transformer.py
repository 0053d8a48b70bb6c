"""sentence-transformers: any model by hub name or local path, with query/passage prompts and unit vectors.

torch and sentence-transformers are imported here, only when this provider is chosen.

Queries and passages share the model but not a lock, so a search never waits for passages being embedded: inference
only reads the weights, and the tokenizer is called with the same settings on both paths (its truncation and padding
state is set by the warm-up call at load and never changes afterwards). Passages go to the model at most
`PASSAGE_BATCH` at a time.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from inference.providers.base import (
    PASSAGE_BATCH,
    EmbedderSettings,
    default_prompts,
    in_batches,
    matryoshka,
    model_id_for,
    model_slug,
    truncation,
)
from inference.providers.common import display_name, model_version

PROVIDER = "sentence-transformers"


class SentenceTransformerEmbedder:
    def __init__(self, model: str, options: EmbedderSettings) -> None:
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(model, device=options.device, trust_remote_code=options.trust_remote_code)
        self._batch = min(options.batch_size, PASSAGE_BATCH)
        self._lock = threading.Lock()  # passages
        self._query_lock = threading.Lock()
        native = self._native_dimensions()
        self._truncate = truncation(options.dimensions, native, PROVIDER)
        self.dimensions = self._truncate or native
        prompts: dict[str, str] = dict(getattr(self._model, "prompts", None) or {})
        self.query_prompt, self.passage_prompt = default_prompts(model, options, prompts)
        name = display_name(model)
        version = model_version(model, options.model_version)
        self.model_id = model_id_for(PROVIDER, name, version, self._truncate)
        self.slug = model_slug("st", name, f"{version}\0{native}\0{self.passage_prompt}", self._truncate)
        self._encode(["warm-up"], self.query_prompt, self._query_lock)  # before any concurrent call, see above

    def _native_dimensions(self) -> int:
        for attr in ("get_embedding_dimension", "get_sentence_embedding_dimension"):
            fn = getattr(self._model, attr, None)
            if callable(fn) and (dims := fn()):
                return int(dims)
        return int(self._encode(["dimension probe"], "", self._lock).shape[1])

    def _encode(self, texts: list[str], prompt: str, lock: threading.Lock) -> np.ndarray:
        # An explicit prompt (even "") keeps the model's default_prompt_name from applying to both sides.
        kwargs: dict[str, Any] = {
            "prompt": prompt,
            "batch_size": self._batch,
            "convert_to_numpy": True,
            "normalize_embeddings": False,
            "show_progress_bar": False,
        }
        with lock:
            out = self._model.encode(list(texts), **kwargs)
        return np.atleast_2d(np.asarray(out, dtype=np.float32))

    def _passage_batch(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, self.passage_prompt, self._lock)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return matryoshka(in_batches(list(texts), self._batch, self._passage_batch), self._truncate)

    def embed_query(self, text: str) -> np.ndarray:
        return matryoshka(self._encode([text], self.query_prompt, self._query_lock), self._truncate)[0]
