"""An LRU cache partitioned by viewer, for caches whose hits and misses a viewer can time.

With one LRU shared by everyone, a viewer who fills it with their own keys learns when anyone else misses: another
viewer's insert (after a write hidden from the first viewer changed the other's generations) evicts one of theirs.
Here each viewer's entries are evicted only by that viewer's own inserts, and whole partitions only by the arrival of
viewers (least recently used first), which no write decides.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

MAX_VIEWERS = 128


class ViewerLRU:
    def __init__(self, max_viewers: int = MAX_VIEWERS) -> None:
        self.max_viewers = max_viewers
        self._lock = threading.Lock()
        self._parts: OrderedDict[Hashable, OrderedDict[str, tuple[float, Any]]] = OrderedDict()
        self._epochs: dict[Hashable, Hashable] = {}

    def get(self, viewer: Hashable, key: str, ttl: float) -> tuple[bool, Any]:
        """(found, value) of a fresh entry of this viewer; touches the viewer's partition either way."""
        now = time.monotonic()
        with self._lock:
            part = self._parts.get(viewer)
            if part is None:
                return False, None
            self._parts.move_to_end(viewer)
            found = part.get(key)
            if found is None:
                return False, None
            if now - found[0] >= ttl:
                del part[key]
                return False, None
            part.move_to_end(key)
            return True, found[1]

    def put(self, viewer: Hashable, key: str, value: Any, per_viewer: int, epoch: Hashable | None = None) -> None:
        """Keep `value`; with an `epoch` (the viewer's generations), a partition filled under another epoch is
        emptied first: its keys can never be asked for again, and would only crowd out the live ones."""
        with self._lock:
            part = self._parts.get(viewer)
            if part is None:
                part = self._parts[viewer] = OrderedDict()
                while len(self._parts) > self.max_viewers:
                    gone, _ = self._parts.popitem(last=False)
                    self._epochs.pop(gone, None)
            if epoch is not None and self._epochs.get(viewer, epoch) != epoch:
                part.clear()
            if epoch is not None:
                self._epochs[viewer] = epoch
            self._parts.move_to_end(viewer)
            part[key] = (time.monotonic(), value)
            part.move_to_end(key)
            while len(part) > per_viewer:
                part.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()
            self._epochs.clear()

    def size(self) -> int:
        with self._lock:
            return sum(len(p) for p in self._parts.values())
