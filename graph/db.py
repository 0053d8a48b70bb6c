"""The Neo4j driver, pointed at NEO4J_URI when set and at the managed local server otherwise.

With a `neo4j://` (or `neo4j+s://`) URI the driver routes: `Graph.read` runs in read mode, which a cluster
or Aura sends to its secondaries, and everything else goes to the leader. Every session of a routing driver shares
one bookmark manager, so a read made in this process after a write made in this process waits on a secondary until
that write has reached it (read-your-writes within a process; across processes see docs/SCALING.md). A direct
`bolt://` driver talks to one server, which holds every commit: it chains nothing, so a process that outlives a
restore of that server's database from an older backup never waits for commits the restored database lacks."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from neo4j import (
    READ_ACCESS,
    Driver,
    GraphDatabase,
    ManagedTransaction,
    Neo4jDriver,
    NotificationMinimumSeverity,
    Record,
    Session,
    unit_of_work,
)
from neo4j.api import BookmarkManager
from neo4j.exceptions import (
    ConnectionAcquisitionTimeoutError,
    DriverError,
    IncompleteCommit,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from graph.kept import Kept
from graph.plan_cache import one_plan
from graph.runtime import Neo4jRuntime
from graph.settings import Settings, get_settings

UNAVAILABLE: tuple[type[Exception], ...] = (
    ServiceUnavailable,
    SessionExpired,
    ConnectionAcquisitionTimeoutError,
    TransientError,
)
"""What the driver raises when Neo4j cannot answer now (down, restarting, its pool exhausted, or a transient failure
that outlived the bounded retries): the API answers 503 with Retry-After, the CLI exits with UNAVAILABLE_EXIT."""
UNAVAILABLE_EXIT = 6

T = TypeVar("T")
_lock = threading.Lock()
_drivers: dict[tuple[str, str], Driver] = {}
_bookmarks: weakref.WeakKeyDictionary[Any, BookmarkManager] = weakref.WeakKeyDictionary()


def credentials(settings: Settings) -> tuple[str, str]:
    if settings.managed_neo4j:
        return "neo4j", Neo4jRuntime(settings).password()
    return settings.neo4j_user, settings.neo4j_password or ""


def get_driver(settings: Settings | None = None) -> Driver:
    """One pooled driver per server and user, shared by the whole process.

    Connecting, waiting for a connection and retrying a failed transaction are all bounded (MEMORA_NEO4J_*_TIMEOUT,
    MEMORA_NEO4J_RETRY_SECONDS; the driver's defaults would hold a request for 30 to 60 s), so with Neo4j down every
    request is refused within a few seconds; the pool reconnects by itself once Neo4j is back."""
    settings = settings or get_settings()
    user, password = credentials(settings)
    key = (settings.bolt_uri, user)
    with _lock:
        drv = _drivers.get(key)
        if drv is None:
            drv = GraphDatabase.driver(
                settings.bolt_uri,
                auth=(user, password),
                max_connection_pool_size=50,
                notifications_min_severity=NotificationMinimumSeverity.OFF,
                connection_timeout=settings.neo4j_connect_timeout,
                connection_acquisition_timeout=settings.neo4j_acquire_timeout,
                max_transaction_retry_time=settings.neo4j_retry_seconds,
            )
            _drivers[key] = drv
        return drv


def bookmarks_of(driver: Driver) -> BookmarkManager | None:
    """The one bookmark manager of every session on a routing `driver` (causal chaining of this process's
    transactions across cluster members); None for a direct driver."""
    if not isinstance(driver, Neo4jDriver):
        return None
    with _lock:
        manager = _bookmarks.get(driver)
        if manager is None:
            manager = _bookmarks[driver] = GraphDatabase.bookmark_manager()
        return manager


def close_all() -> None:
    with _lock:
        for drv in _drivers.values():
            drv.close()
        _drivers.clear()


class Graph:
    """Thin wrapper that runs named, parameterised statements in managed transactions; `kept` holds what the process
    keeps about this database's content (graph/kept.py)."""

    def __init__(self, driver: Driver, database: str) -> None:
        self.driver = driver
        self.database = database
        self.bookmarks = bookmarks_of(driver)
        self.kept = Kept()

    def session(self, read: bool = False, **options: Any) -> Session:
        """A session chained to this process's earlier transactions; `read` opens it in read mode (auto-commit
        statements then go to a secondary too), for a result streamed outside a managed transaction."""
        if read:
            options["default_access_mode"] = READ_ACCESS
        return self.driver.session(database=self.database, bookmark_manager=self.bookmarks, **options)

    def read(self, query: str, params: Mapping[str, Any] | None = None) -> list[Record]:
        """A read in read mode: on a cluster it runs on a secondary, and the server refuses any write in it. It is
        sent auto-commit, one round trip without BEGIN and COMMIT (a search reads three to six times in a row:
        docs/BENCHMARKS.md). A failure the driver calls retryable (a server restarting, a leader changing) sends it
        again in a managed read transaction, which retries within MEMORA_NEO4J_RETRY_SECONDS. Parameters travel as
        one map (graph/plan_cache.py), so the statement is planned once whatever their values."""
        query, p = one_plan(query, params)
        try:
            with self.session(read=True) as session:
                return list(session.run(query, p))
        except (Neo4jError, DriverError) as exc:
            if not exc.is_retryable():
                raise
        with self.session() as session:
            return session.execute_read(_collect, query, p)

    def write(self, query: str, params: Mapping[str, Any] | None = None) -> list[Record]:
        """One statement in a write transaction, its parameters sent as one map like a read's."""
        query, p = one_plan(query, params)
        return self.transact(lambda tx: _collect(tx, query, p))

    def transact(self, work: Callable[[ManagedTransaction], T], timeout: float | None = None) -> T:
        """Several statements in one write transaction (a lock taken by the first holds for the next; the whole
        function is retried on a transient error such as a deadlock). With `timeout`, the server ends the
        transaction after that many seconds, so one left open by a killed client does not keep its locks.

        When Neo4j goes away, the driver reports its last attempt's error; if an earlier attempt had already sent
        its commit, that commit may have landed, so the failure is raised as IncompleteCommit (outcome unknown),
        never as a plain "unavailable" that callers report as "nothing was written"."""
        committing: list[bool] = []

        def tracked(tx: ManagedTransaction) -> T:
            result = work(tx)
            committing.append(True)
            return result

        try:
            with self.session() as session:
                return session.execute_write(unit_of_work(timeout=timeout)(tracked) if timeout else tracked)
        except UNAVAILABLE as exc:
            if committing and not isinstance(exc, IncompleteCommit):
                raise IncompleteCommit(
                    f"a commit was sent before the graph database became unavailable; its "
                    f"outcome is unknown ({type(exc).__name__}: {exc})"
                ) from exc
            raise

    def run_auto(self, query: str, params: Mapping[str, Any] | None = None) -> list[Record]:
        """Schema statements and `db.awaitIndexes` must run outside an explicit transaction."""
        with self.session() as session:
            return list(session.run(query, dict(params or {})))


def _collect(tx: ManagedTransaction, query: str, params: dict[str, Any]) -> list[Record]:
    return list(tx.run(query, params))


def get_graph(settings: Settings | None = None) -> Graph:
    settings = settings or get_settings()
    return Graph(get_driver(settings), settings.neo4j_database)
