"""Per-viewer entity aggregates (importance, every entity's count of visible entries, an entity's companions and
timeline, the entries behind an answer) reused until a write the viewer may see happens: an aggregate over every
visible entry of a 10,000-entry project costs hundreds of milliseconds, an entity question must answer in tens.

The key is a digest of the aggregate's name and arguments, the project, the viewer's user id, and their role and
search generations in the project (`graph/generations.py`, read in one statement per lookup): every write path bumps
the generations of exactly the viewers it can change something for, so a stored aggregate is never served after a
write that changes it, and a write hidden from the viewer (another author's private entry) changes nothing of theirs,
so whether a lookup hits or misses tells them nothing about it. The value was computed by a statement with the
visibility predicate inside it, and is only ever returned for the same key; witnesses are not cached (their results
depend on a generation every circle write of the project bumps, as in `queries/result_cache.py`). The TTL
(`MEMORA_ANALYTICS_CACHE_SECONDS`) is a backstop for a write that bypassed every bump (a hand-written statement).
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from graph import generations
from graph.db import Graph
from graph.settings import get_settings

T = TypeVar("T")

_lock = threading.Lock()
_entries: OrderedDict[str, tuple[float, Any]] = OrderedDict()


def cached(graph: Graph, viewer_params: dict[str, Any], project_id: str, name: str, args: dict[str, Any],
           compute: Callable[[], T]) -> T:
    """`compute()` for this viewer, reused while their generations of `project_id` stay the same."""
    settings = get_settings()
    viewer_id = viewer_params.get("viewer_id")
    if viewer_id is None or viewer_params.get("witness_period_id") is not None \
            or settings.analytics_cache_seconds <= 0 or settings.analytics_cache_size <= 0:
        return compute()
    material = [name, args, project_id, viewer_id, generations.read(graph, [project_id], viewer_id)]
    key = hashlib.sha256(json.dumps(material, sort_keys=True, default=str).encode()).hexdigest()
    now = time.monotonic()
    with _lock:
        found = _entries.get(key)
        if found is not None and now - found[0] < settings.analytics_cache_seconds:
            _entries.move_to_end(key)
            return copy.deepcopy(found[1])
    value = compute()
    with _lock:
        _entries[key] = (now, copy.deepcopy(value))
        _entries.move_to_end(key)
        while len(_entries) > settings.analytics_cache_size:
            _entries.popitem(last=False)
    return value


def clear() -> None:
    with _lock:
        _entries.clear()
