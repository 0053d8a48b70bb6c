"""An in-process LRU of query embeddings, keyed by the viewer, the model (its id, which carries the version, and its
slug, which carries the width) and the exact text embedded.

Per viewer, because a hit is visible in a search's `latency_ms.embed` (near zero): a shared cache would tell anyone
whether someone else asked exactly that question lately.

A repeated or paginated question is embedded once per process: on CPU the e5-small query costs most of a search's
time. Only successful embeddings are kept (a failure is retried on the next search), and the cached vector is a tuple,
so no caller can change what the next one gets.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from inference.embedders import CheckedEmbedder


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0


# A query's first characters embedded (cut at a word), about 250 tokens, far more than any question: embedding a
# 10,000-character query window by window would cost seconds for nothing.
QUERY_EMBED_CHARS = 1000
_lock = threading.Lock()
_vectors: OrderedDict[tuple[str, str, str, str], tuple[float, ...]] = OrderedDict()
stats = CacheStats()


def query_vector(embedder: CheckedEmbedder, text: str, size: int, viewer: str) -> list[float]:
    """`embedder.embed_query(text)` as floats, from the cache when this model embedded this text before for this
    `viewer` (a user id, or a witness grant). Raises EmbeddingError like the embedder (nothing is cached then)."""
    key = (viewer, embedder.model_id, embedder.slug, text)
    if size > 0:
        with _lock:
            hit = _vectors.get(key)
            if hit is not None:
                _vectors.move_to_end(key)
                stats.hits += 1
                return list(hit)
            stats.misses += 1
    vector = tuple(float(x) for x in embedder.embed_query(text))
    if size > 0:
        with _lock:
            _vectors[key] = vector
            _vectors.move_to_end(key)
            while len(_vectors) > size:
                _vectors.popitem(last=False)
    return list(vector)


def embeddable(text: str) -> str:
    """The part of a query that gets embedded: its first QUERY_EMBED_CHARS characters, cut at a word."""
    if len(text) <= QUERY_EMBED_CHARS:
        return text
    cut = text[:QUERY_EMBED_CHARS]
    return cut.rsplit(" ", 1)[0] if " " in cut else cut


def clear() -> None:
    with _lock:
        _vectors.clear()
        stats.hits = stats.misses = 0
