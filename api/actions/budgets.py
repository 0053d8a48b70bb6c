"""Who an action serves and the budgets it spends from.

An action calls `Budgets.spend` once, with the budget its kind of work costs and the caller's key, whichever door
called it: a door passes the app's buckets (`Budgets(limits)`), or none at all (`Budgets.unlimited()`, the CLI,
whose user can read the graph anyway). The API pays before the body is validated, so that a malformed request
counts (`prepaid`): the action then finds its spend covered instead of paying twice.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from api.ratelimit import BUDGET_NAMES, Budget, Limits, RateLimited, buckets_of
from graph.visibility import Viewer
from graph.witnesses import Grant

P = TypeVar("P")


@dataclass(frozen=True)
class Who:
    """The viewer an action reads as, and the key of the buckets it pays from (a verified user or a witness grant;
    a user's budgets are theirs whatever token or door they come through)."""

    viewer: Viewer
    key: Hashable

    @classmethod
    def user(cls, viewer: Viewer) -> Who:
        return cls(viewer, ("user", viewer.user_id))

    @classmethod
    def witness(cls, grant: Grant) -> Who:
        return cls(Viewer(witness_period_id=grant.period_id), ("witness", grant.id))


class Budgets:
    """The buckets a door's actions spend from; `limits=None` spends nothing."""

    def __init__(self, limits: Limits | None) -> None:
        self.limits = limits
        self._paid: list[tuple[Budget, Hashable]] = []
        self._lock = threading.Lock()

    @classmethod
    def unlimited(cls) -> Budgets:
        return cls(None)

    def spend(self, kind: Budget, key: Hashable) -> None:
        """One from the `kind` budget of `key`, or `RateLimited` (nothing spent); a prepaid one is used up first."""
        with self._lock:
            if (kind, key) in self._paid:
                self._paid.remove((kind, key))
                return
        if self.limits is None:
            return
        buckets = buckets_of(self.limits, kind)
        wait = buckets.take(key)
        if wait:
            raise RateLimited(
                f"too many {BUDGET_NAMES[kind]} by this caller (at most {buckets.limit.rate:g} a second, in bursts "
                f"of {buckets.limit.burst:g})",
                wait,
                kind,
            )

    def prepaid(self, kind: Budget, key: Hashable) -> Budgets:
        """Spend now, for an action run later by the same door (after its input is read); the action's own spend
        of it is then covered."""
        self.spend(kind, key)
        with self._lock:
            self._paid.append((kind, key))
        return self


def given(params: P | Callable[[], P]) -> P:
    """An action's input, or the door's way to read it once the budget is paid (a malformed call counts, as on
    the API)."""
    return params() if callable(params) else params
