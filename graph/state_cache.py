"""A short-lived copy of the `EmbeddingState` node, which every search read once per request (to know whether a model
migration is under way).

Within one process a `set_state` forgets the copy at once; another process (`memora embeddings` while `memora serve`
runs) is seen within `MEMORA_STATE_CACHE_SECONDS` (default 2 s). Until then a search keeps querying the model it knew,
whose index still exists: a switch only retires the old index later (`drop_retired`).
"""

from __future__ import annotations

import threading
import time

from graph.db import Graph
from graph.embeddings import EmbeddingState, get_state

_lock = threading.Lock()
_states: dict[tuple[int, str], tuple[float, EmbeddingState | None]] = {}


def recent_state(graph: Graph, max_age: float) -> EmbeddingState | None:
    """The embedding state as read at most `max_age` seconds ago (0 reads it now)."""
    key = (id(graph.driver), graph.database)
    now = time.monotonic()
    with _lock:
        cached = _states.get(key)
    if cached is not None and now - cached[0] < max_age:
        return cached[1]
    state = get_state(graph)
    with _lock:
        _states[key] = (now, state)
    return state


def forget() -> None:
    """Drop every cached copy (this process just changed the state)."""
    with _lock:
        _states.clear()
