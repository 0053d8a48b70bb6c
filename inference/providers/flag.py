"""FlagEmbedding's BGEM3FlagModel (BAAI/bge-m3 or a local copy): dense vectors for the index, and lexical weights
(`embed_sparse`) for the sparse channel.

FlagEmbedding and torch are imported here, only when this provider is chosen.

Queries have their own lock and their own view of the model, so a search never waits for passages being embedded:
the view shares the weights (inference only reads them) but has its own tokenizer, since the truncation length is
tokenizer state that query (512 tokens) and passage (8192) calls set differently. Passages are embedded in forward
passes of at most `PASSAGE_BATCH` texts, in one call per list (FlagEmbedding probes the batch size on every call).
"""

from __future__ import annotations

import copy
import threading
from typing import Any

import numpy as np

from inference.providers.base import (
    PASSAGE_BATCH,
    EmbedderSettings,
    default_prompts,
    matryoshka,
    model_id_for,
    model_slug,
    truncation,
)
from inference.providers.common import display_name, model_version

PROVIDER = "flagembedding"
MAX_PASSAGE_TOKENS = 8192
MAX_QUERY_TOKENS = 512


class FlagEmbeddingEmbedder:
    def __init__(self, model: str, options: EmbedderSettings) -> None:
        from FlagEmbedding import BGEM3FlagModel

        # fp32: fp16 on CPU is slower and FlagEmbedding casts back anyway; one device: no worker-process pool.
        self._model = BGEM3FlagModel(
            model,
            use_fp16=False,
            devices=options.device,
            normalize_embeddings=True,
            batch_size=min(options.batch_size, PASSAGE_BATCH),
            return_dense=True,
            return_sparse=False,
            return_colbert_vecs=False,
            trust_remote_code=options.trust_remote_code,
        )
        self._model.target_devices = self._model.target_devices[:1]
        limit = int(getattr(self._model.tokenizer, "model_max_length", MAX_QUERY_TOKENS) or MAX_QUERY_TOKENS)
        self._model.passage_max_length = min(limit, MAX_PASSAGE_TOKENS)
        self._model.query_max_length = min(limit, MAX_QUERY_TOKENS)
        self._lock = threading.Lock()  # passages
        self._query_model = copy.copy(self._model)  # same weights and settings ...
        self._query_model.tokenizer = copy.deepcopy(self._model.tokenizer)  # ... but its own tokenizer
        self._query_lock = threading.Lock()
        self.query_prompt, self.passage_prompt = default_prompts(model, options)
        native = int(self._dense(["dimension probe"], query=True).shape[1])
        self._truncate = truncation(options.dimensions, native, PROVIDER)
        self.dimensions = self._truncate or native
        name = display_name(model)
        version = model_version(model, options.model_version)
        self.model_id = model_id_for(PROVIDER, name, version, self._truncate)
        self.slug = model_slug("fl", name, f"{version}\0{native}\0{self.passage_prompt}", self._truncate)

    def _encode(self, texts: list[str], *, query: bool, dense: bool, sparse: bool) -> dict[str, Any]:
        prefix = self.query_prompt if query else self.passage_prompt
        inputs = [prefix + t for t in texts]
        encode = self._query_model.encode_queries if query else self._model.encode_corpus
        with self._query_lock if query else self._lock:
            return encode(inputs, return_dense=dense, return_sparse=sparse, return_colbert_vecs=False)

    def _dense(self, texts: list[str], *, query: bool) -> np.ndarray:
        out = self._encode(texts, query=query, dense=True, sparse=False)["dense_vecs"]
        return np.atleast_2d(np.asarray(out, dtype=np.float32))

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return matryoshka(self._dense(texts, query=False), self._truncate)

    def embed_query(self, text: str) -> np.ndarray:
        return matryoshka(self._dense([text], query=True), self._truncate)[0]

    def embed_sparse(self, texts: list[str], *, query: bool = False) -> list[dict[str, float]]:
        """Token -> weight per text (special tokens dropped; a token seen twice keeps its highest weight)."""
        weights = self._encode(texts, query=query, dense=False, sparse=True)["lexical_weights"]
        tokenizer = self._model.tokenizer
        out: list[dict[str, float]] = []
        for row in weights:
            tokens: dict[str, float] = {}
            for token_id, weight in row.items():
                token = tokenizer.decode([int(token_id)]).strip()
                if token:
                    tokens[token] = max(tokens.get(token, 0.0), float(weight))
            out.append(tokens)
        return out
