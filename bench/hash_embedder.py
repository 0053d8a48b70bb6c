"""A fast deterministic lexical embedder for benchmarks only: embedding 100,000 entries with the
real model would take hours on 2 cores, and the scale benchmark measures storage, indexes and serving, not
meaning.

Each accent-folded, lower-cased word and each pair of neighbouring words is hashed (BLAKE2b, so the same text gives
the same vector in every process, unlike Python's salted `hash`) to one of 384 dimensions with a sign: a signed
random projection of the bag of word n-grams (feature hashing). Rows are normalised to unit length. Texts sharing
words are close, texts sharing none are near-orthogonal.

It is wired only by bench code (`bench/scale.py`, `bench/scale_server.py`), which hands it to the ingest pipeline and
to `api.services.Services` explicitly: it is not a provider of `MEMORA_EMBEDDER`, so no configuration of the service
can select it, and the graph's active model (`EmbeddingState`) is never set to it.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

import numpy as np

from inference.providers.base import model_slug, normalise

DIMENSIONS = 384
_WORD = re.compile(r"\w+")


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _features(text: str) -> list[str]:
    words = _WORD.findall(_fold(text))
    # a constant feature keeps an empty text from being a zero vector (which the canary rejects)
    return ["\0bias", *words, *(f"{a} {b}" for a, b in zip(words, words[1:], strict=False))]


class HashEmbedder:
    """Hashed word unigrams and bigrams projected to 384 signed dimensions, normalised (see the module)."""

    model_id = "bench-hash:word-ngrams-384@1"
    slug = model_slug("benchhash", "word-ngrams", "1")
    dimensions = DIMENSIONS

    def __init__(self) -> None:
        self._cache: dict[str, tuple[int, float]] = {}

    def _slot(self, feature: str) -> tuple[int, float]:
        slot = self._cache.get(feature)
        if slot is None:
            digest = int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest(), "little")
            slot = (digest % DIMENSIONS, 1.0 if (digest >> 32) & 1 else -1.0)
            if len(self._cache) < 500_000:
                self._cache[feature] = slot
        return slot

    def _embed(self, text: str) -> np.ndarray:
        vector = np.zeros(DIMENSIONS, dtype=np.float32)
        for feature in _features(text):
            index, sign = self._slot(feature)
            vector[index] += sign
        if not vector.any():  # the bias feature cancelled out: extremely unlikely, never a zero row
            vector[0] = 1.0
        return vector

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return normalise(np.vstack([self._embed(t) for t in texts]))

    def embed_query(self, text: str) -> np.ndarray:
        return normalise(self._embed(text))[0]
