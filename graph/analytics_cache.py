"""Per-viewer entity aggregates (importance, every entity's count of visible entries, an entity's companions and
timeline, the entries behind an answer) reused until a write the viewer may see happens: an aggregate over every
visible entry of a 10,000-entry project costs hundreds of milliseconds, an entity question must answer in tens.

The key is a digest of the aggregate's name and arguments, the project, the viewer's user id, and their role and
search generations in the project (`graph/generations.py`, read once per request inside `generations.read_once`):
every write path bumps the generations of exactly the viewers it can change something for (the entity-vector refresh
too), so a stored aggregate is never served after a write that changes it, and a write hidden from the viewer
(another author's private entry) changes nothing of theirs, so whether a lookup hits or misses tells them nothing
about it. The value was computed by a statement with the visibility predicate inside it, and is only ever returned
for the same key; witnesses are not cached (their results depend on a generation every circle write of the project
bumps, as in `queries/search/result_cache.py`). The TTL (`MEMORA_ANALYTICS_CACHE_SECONDS`) is a backstop for a write
that
bypassed every bump (a hand-written statement).
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from graph import generations
from graph.db import Graph
from graph.settings import get_settings
from graph.viewer_lru import ViewerLRU
from graph.visibility import Viewer

T = TypeVar("T")

ROOM = "analytics.aggregates"


def _entries(graph: Graph) -> ViewerLRU:
    return graph.kept.room(ROOM, ViewerLRU)


def cached(
    graph: Graph,
    viewer: Viewer,
    project_id: str,
    name: str,
    args: dict[str, Any],
    compute: Callable[[], T],
    immutable: bool = False,
) -> T:
    """`compute()` for this viewer, reused while their generations of `project_id` stay the same; an `immutable`
    value (tuples of frozen dataclasses) is handed out as kept, others as copies."""
    settings = get_settings()
    viewer_id = viewer.user_id
    if viewer_id is None or not enabled(viewer):
        return compute()
    gens = generations.read(graph, [project_id], viewer_id)
    epoch = json.dumps(gens, sort_keys=True, default=str)
    key = hashlib.sha256(
        json.dumps([name, args, project_id, viewer_id, epoch], sort_keys=True, default=str).encode()
    ).hexdigest()
    part = (viewer_id, project_id)
    found, value = _entries(graph).get(part, key, settings.analytics_cache_seconds)
    if found:
        return value if immutable else copy.deepcopy(value)
    value = compute()
    # Stored only if no write the viewer depends on (a role change included) landed while it was computed.
    if generations.read(graph, [project_id], viewer_id, fresh=True) == gens:
        _entries(graph).put(
            part, key, value if immutable else copy.deepcopy(value), settings.analytics_cache_size, epoch
        )
    return value


def enabled(viewer: Viewer) -> bool:
    """Whether this viewer's aggregates are kept (not for witnesses, nor with the cache turned off)."""
    settings = get_settings()
    return not viewer.is_witness and settings.analytics_cache_seconds > 0 and settings.analytics_cache_size > 0


def clear(graph: Graph) -> None:
    _entries(graph).clear()


def size(graph: Graph) -> int:
    return _entries(graph).size()
