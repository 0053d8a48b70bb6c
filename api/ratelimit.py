"""Rate limits per caller, in process: token buckets for searches, writes and expensive reads (per verified user,
or per witness grant) and for failed authentications (per client address). A refused request gets 429, a JSON
`{"detail": ...}` that says which budget ran out, and `Retry-After` in whole seconds (at least 1).

The buckets live on `app.state.limits` (one `Limits` per app, built by `create_app` from the app's settings), so
two apps never share a budget. A limit whose rate is 0 is off. The state is per process: with several worker
processes, each keeps its own buckets (so N workers allow N times each budget), and a restart forgets them.

Searches, writes and expensive reads are spent by the actions (`api.actions`), each from its own budget, whichever
door called it; the API's routes pay theirs in a dependency (`api.deps`), before the route, its body validation and
the graph, and the action finds it paid:

- every authenticated request first checks its address's failed-authentication budget and is refused while that
  is spent, before its token is even read; each invalid or expired user token, and each invalid, expired or revoked
  witness link (a 401 from a `/v1/w/{token}` route), spends one. A missing token spends nothing;
- searches (POST /v1/search) and writes (POST/PUT/DELETE /v1/entries, POST entities) spend one from the verified
  user's search or write budget; witness searches and accounts, from the budget of the grant their correctly signed
  link names;
- expensive reads (periods, which may rebuild stale summaries, the summary, analytics, candidates, entry listings,
  neighbours) spend one from the user's read budget: cheap one-row reads (an entry, the projects) spend nothing.

The client address is `request.client.host`. `memora serve` runs uvicorn with its defaults, which take it from
`X-Forwarded-For` when the connection comes from 127.0.0.1 (FORWARDED_ALLOW_IPS): right behind a reverse proxy on
the same machine; a proxy elsewhere must be listed there, or every client shares the proxy's budget.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import HTTPException, Request

from api.models.core import RateLimitedOut
from graph.settings import Settings

UNLIMITED: dict[str, Any] = {
    "rate_search_per_second": 0,
    "rate_write_per_second": 0,
    "rate_read_per_second": 0,
    "rate_auth_failures_per_minute": 0,
}
"""`settings.model_copy(update=UNLIMITED)`: every limit off (tests that hammer the API on purpose)."""

MAX_KEYS = 100_000
Budget = Literal["search", "write", "read"]


@dataclass(frozen=True)
class Limit:
    """`burst` requests at once, then `rate` per second; a rate or burst of 0 turns the limit off."""

    rate: float
    burst: float

    @property
    def enabled(self) -> bool:
        return self.rate > 0 and self.burst > 0


class Buckets:
    """One token bucket per key, all under one lock. A bucket idle long enough to be full again is the same as no
    bucket, so full ones are forgotten as they are met (oldest first) and at most `max_keys` are kept."""

    def __init__(self, limit: Limit, max_keys: int = MAX_KEYS, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.max_keys = max_keys
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()  # key -> (tokens, as of)

    def take(self, key: Hashable) -> float:
        """Spend one token: 0.0 when there was one, otherwise the seconds until there will be (nothing spent)."""
        return self._spend(key, take=True, force=False)

    def wait(self, key: Hashable) -> float:
        """Like `take` but spends nothing: 0.0 while a token is available."""
        return self._spend(key, take=False, force=False)

    def charge(self, key: Hashable) -> None:
        """Spend one token if there is one (a failure that already happened: never refused, never below zero)."""
        self._spend(key, take=True, force=True)

    def __len__(self) -> int:
        return len(self._buckets)

    def _spend(self, key: Hashable, take: bool, force: bool) -> float:
        if not self.limit.enabled:
            return 0.0
        rate, burst = self.limit.rate, self.limit.burst
        with self._lock:
            now = self.clock()
            tokens = self._tokens(self._buckets.pop(key, None), now)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / rate
            if take and (wait == 0.0 or force):
                tokens = max(tokens - 1, 0.0)
            if tokens < burst:
                self._buckets[key] = (tokens, now)  # most recently used last
            self._forget(now)
            return wait

    def _tokens(self, state: tuple[float, float] | None, now: float) -> float:
        if state is None:
            return self.limit.burst
        tokens, stamp = state
        return min(self.limit.burst, tokens + max(now - stamp, 0.0) * self.limit.rate)

    def _forget(self, now: float) -> None:
        """Drop the least recently used buckets that have refilled, and any beyond `max_keys`."""
        while self._buckets:
            key, state = next(iter(self._buckets.items()))
            if len(self._buckets) <= self.max_keys and self._tokens(state, now) < self.limit.burst:
                return
            del self._buckets[key]


class Limits:
    """The app's budgets, from its settings."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.searches = Buckets(Limit(settings.rate_search_per_second, settings.rate_search_burst), clock=clock)
        self.writes = Buckets(Limit(settings.rate_write_per_second, settings.rate_write_burst), clock=clock)
        self.reads = Buckets(Limit(settings.rate_read_per_second, settings.rate_read_burst), clock=clock)
        per_minute = settings.rate_auth_failures_per_minute
        self.auth_failures = Buckets(Limit(per_minute / 60, per_minute), clock=clock)


def limits_of(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


def too_many(reason: str, wait: float) -> HTTPException:
    refused = RateLimited(reason, wait)
    return HTTPException(429, str(refused), headers={"Retry-After": str(refused.retry_after)})


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def check_address(request: Request) -> None:
    """Refuse every authenticated request from an address whose failed-authentication budget is spent."""
    limits = limits_of(request)
    wait = limits.auth_failures.wait(client_address(request))
    if wait:
        raise too_many(
            f"too many failed authentications from this address (at most "
            f"{limits.settings.rate_auth_failures_per_minute} a minute)",
            wait,
        )


def note_auth_failure(request: Request) -> None:
    limits_of(request).auth_failures.charge(client_address(request))


class RateLimited(Exception):
    """A budget is spent: the domain's refusal, answered 429 with `Retry-After` by the HTTP doors and as the same
    reason by the MCP server (`api.errors.as_http`)."""

    def __init__(self, reason: str, wait: float, kind: Budget | None = None) -> None:
        self.reason = reason
        self.kind = kind  # which budget, for a door that words the refusal itself (the web's pages)
        self.retry_after = max(1, math.ceil(wait))
        super().__init__(f"{reason}; retry after {self.retry_after} s")


BUDGET_NAMES: dict[Budget, str] = {"search": "searches", "write": "writes", "read": "expensive reads"}


def buckets_of(limits: Limits, kind: Budget) -> Buckets:
    return {"search": limits.searches, "write": limits.writes, "read": limits.reads}[kind]


def rate_limited(what: str) -> dict[int | str, dict[str, Any]]:
    """The 429 answer, for a route's or router's `responses=`."""
    return {
        429: {
            "model": RateLimitedOut,
            "description": f"Too many requests: {what}. Retry after the seconds given in `Retry-After`.",
            "headers": {
                "Retry-After": {
                    "description": "seconds to wait, at least 1",
                    "required": True,
                    "schema": {"type": "integer", "minimum": 1},
                }
            },
        }
    }


READ_LIMITED = rate_limited("the caller's read budget is spent")
"""The 429 of the routes that spend from the read budget (`api.deps.ReadBudget`)."""
