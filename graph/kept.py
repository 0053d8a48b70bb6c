"""What the process keeps about one database's content: answers, aggregates, query vectors, live indexes, the
embedding state, the recent searches behind feedback. It hangs on the database handle (`Graph.kept`), and the
handle belongs to the service that made it (`api.services.Services`), so a second service in the same process, or
a test on a graph of its own, shares none of it, and closing the service drops it all.

Module level keeps only what is the same for every database: loaded models, drivers, compiled patterns, memos of
pure functions. Each module that keeps something names one room here and always builds it with the same factory, so
a room's name fixes its type."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")


class Kept:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rooms: dict[str, Any] = {}

    def room(self, name: str, make: Callable[[], T]) -> T:
        """The room `name`, built by `make` on first use."""
        with self._lock:
            found = self._rooms.get(name)
            if found is None:
                found = self._rooms[name] = make()
            return cast(T, found)

    def names(self) -> list[str]:
        with self._lock:
            return sorted(self._rooms)

    def clear(self) -> None:
        """Forget everything kept (the next use of a room starts it empty)."""
        with self._lock:
            self._rooms.clear()
