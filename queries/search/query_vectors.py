"""An in-process LRU of query embeddings, keyed by the viewer, the model (its id, which carries the version, and its
slug, which carries the width) and the exact text embedded.

Per viewer, because a hit is visible in a search's `latency_ms.embed` (near zero): a shared cache would tell anyone
whether someone else asked exactly that question lately.

A repeated or paginated question is embedded once per service (the LRU is kept on its database handle,
graph/kept.py): on CPU the e5-small query costs most of a search's time. Only successful embeddings are kept (a
failure is retried on the next search), and the cached vector is a tuple, so no caller can change what the next one
gets.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from graph.db import Graph
from inference.embedders import CheckedEmbedder


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0


# A query's first characters embedded (cut at a word), about 250 tokens, far more than any question: embedding a
# 10,000-character query window by window would cost seconds for nothing.
QUERY_EMBED_CHARS = 1000


@dataclass
class QueryVectors:
    """The query vectors kept on one database handle (graph/kept.py): the searches of its service embed a repeated
    question once."""

    vectors: OrderedDict[tuple[str, str, str, str], tuple[float, ...]] = field(default_factory=OrderedDict)
    stats: CacheStats = field(default_factory=CacheStats)
    lock: threading.Lock = field(default_factory=threading.Lock)


def kept_vectors(graph: Graph) -> QueryVectors:
    return graph.kept.room("search.query_vectors", QueryVectors)


def query_vector(graph: Graph, embedder: CheckedEmbedder, text: str, size: int, viewer: str) -> list[float]:
    """`embedder.embed_query(text)` as floats, from the cache when this model embedded this text before for this
    `viewer` (a user id, or a witness grant). Raises EmbeddingError like the embedder (nothing is cached then)."""
    key = (viewer, embedder.model_id, embedder.slug, text)
    cache = kept_vectors(graph)
    if size > 0:
        with cache.lock:
            hit = cache.vectors.get(key)
            if hit is not None:
                cache.vectors.move_to_end(key)
                cache.stats.hits += 1
                return list(hit)
            cache.stats.misses += 1
    vector = tuple(float(x) for x in embedder.embed_query(text))
    if size > 0:
        with cache.lock:
            cache.vectors[key] = vector
            cache.vectors.move_to_end(key)
            while len(cache.vectors) > size:
                cache.vectors.popitem(last=False)
    return list(vector)


def embeddable(text: str) -> str:
    """The part of a query that gets embedded: its first QUERY_EMBED_CHARS characters, cut at a word."""
    if len(text) <= QUERY_EMBED_CHARS:
        return text
    cut = text[:QUERY_EMBED_CHARS]
    return cut.rsplit(" ", 1)[0] if " " in cut else cut


def clear(graph: Graph) -> None:
    cache = kept_vectors(graph)
    with cache.lock:
        cache.vectors.clear()
        cache.stats.hits = cache.stats.misses = 0
