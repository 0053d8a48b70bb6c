"""The sampled retrieval log and click feedback (docs/operations.md, "Telemetry"), stored in the graph as
`(:SearchLog)` nodes.

Every API search gets a `search_id` (128 random bits). A share `MEMORA_SEARCH_LOG_SAMPLE` of them (default 0.1) is
written to the log: who searched (the user id, or only the fact that it was a witness link), the projects, the query
as an HMAC-SHA256 under a per-installation salt (never the text), candidates per channel, the rerank asked for,
latency per stage, whether the cache answered, and the result ids in order with the channels that found each.
Records older than `MEMORA_SEARCH_LOG_DAYS` are deleted as new ones are written.

A click (`POST /v1/feedback`) is accepted only from the user who made the search and only for an entry of its results
at the position it was shown; anything else reads as "no such search" (404) or a 422 about the caller's own search,
so feedback tells nobody anything about another user's searches. Searches are remembered by the service for an hour (so
a click on an unsampled search is answered, but not recorded); a sampled search is found in the graph after that or
from another process.

The salt lives in `$MEMORA_HOME/search-log.salt` (mode 0600, created on first use), not in the graph: a copy of the
database alone cannot test guessed queries against the hashes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from neo4j.exceptions import Neo4jError

from graph.db import UNAVAILABLE, Graph
from graph.local_secret import read_or_create
from graph.settings import Settings
from graph.visibility import Viewer
from queries.search.request import SearchResponse

log = logging.getLogger(__name__)

REMEMBER_SECONDS = 3600.0
REMEMBER_MAX = 10000
PRUNE_EVERY = 50  # one sampled write in this many also deletes expired records
LOG_FAILURES: tuple[type[Exception], ...] = (Neo4jError, OSError, *UNAVAILABLE)

SCHEMA = (
    "CREATE CONSTRAINT search_log_id IF NOT EXISTS FOR (s:SearchLog) REQUIRE s.id IS UNIQUE",
    "CREATE INDEX search_log_at IF NOT EXISTS FOR (s:SearchLog) ON (s.at)",
)
WRITE = """
CREATE (s:SearchLog {id: $id, at: datetime(), user_id: $user_id, witness: $witness, project_ids: $project_ids,
                     query_hash: $query_hash, candidates: $candidates, rerank: $rerank, latency: $latency,
                     cached: $cached, result_ids: $result_ids, result_channels: $result_channels, clicks: []})
"""
PRUNE = """
MATCH (s:SearchLog) WHERE s.at < datetime() - duration({days: $days})
WITH s LIMIT 1000
DELETE s
"""
# Who searched one project lately, newest first (each user and project once), from the latest logged searches.
RECENT_SEARCHERS = """
MATCH (s:SearchLog)
WHERE s.at IS NOT NULL AND s.user_id IS NOT NULL AND coalesce(s.witness, false) = false AND size(s.project_ids) = 1
WITH s ORDER BY s.at DESC LIMIT 500
WITH s.user_id AS user_id, s.project_ids[0] AS project_id, max(s.at) AS last
RETURN user_id, project_id ORDER BY last DESC, user_id, project_id LIMIT $limit
"""
FIND = "MATCH (s:SearchLog {id: $id}) RETURN s.user_id AS user_id, s.result_ids AS result_ids"
CLICK = """
MATCH (s:SearchLog {id: $id}) WHERE s.user_id = $user_id
SET s.clicks = s.clicks + [$position]
RETURN count(s) AS n
"""


class NoSuchSearch(LookupError):
    """Not a search this caller made (or one forgotten): the same answer either way."""


class NotInResults(ValueError):
    """The caller's own search did not show this entry at this position."""


@dataclass(frozen=True)
class Remembered:
    at: float
    user_id: str | None
    result_ids: tuple[str, ...]
    sampled: bool


@dataclass
class _Recent:
    """The searches of one database handle's service, remembered for their feedback (graph/kept.py)."""

    searches: OrderedDict[str, Remembered] = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    schema_ready: bool = False


def _kept(graph: Graph) -> _Recent:
    return graph.kept.room("telemetry.searches", _Recent)


# The salt file read once per installation folder (a memo of a file, no data of any search).
_salts: dict[Path, bytes] = {}


def salt_of(settings: Settings) -> bytes:
    """The installation's salt, generated once under MEMORA_HOME (mode 0600)."""
    path = settings.home / "search-log.salt"
    if path not in _salts:
        _salts[path] = read_or_create(path).encode()
    return _salts[path]


def query_hash(settings: Settings, query: str) -> str:
    """HMAC-SHA256 of the case-folded, whitespace-collapsed query under the installation's salt."""
    text = " ".join(unicodedata.normalize("NFC", query).casefold().split())
    return hmac.new(salt_of(settings), text.encode(), hashlib.sha256).hexdigest()


def record(
    graph: Graph,
    settings: Settings,
    viewer: Viewer,
    query: str,
    projects: list[str],
    resp: SearchResponse,
    rerank: str,
    sample: float | None = None,
) -> str:
    """A new search id for `resp`; the search is remembered for feedback and, when sampled, logged. A failure to
    write the log is logged and never fails the search."""
    search_id = secrets.token_urlsafe(16)
    rate = settings.search_log_sample if sample is None else sample
    sampled = rate > 0 and random.random() < rate  # noqa: S311 - sampling, not security
    ids = tuple(r.entry_id for r in resp.results)
    _remember(graph, search_id, Remembered(time.monotonic(), viewer.user_id, ids, sampled))
    if sampled:
        try:
            _write(graph, settings, search_id, viewer, query, projects, resp, rerank)
        except LOG_FAILURES as exc:
            log.warning("retrieval log not written: %s", exc)
    return search_id


def _write(
    graph: Graph,
    settings: Settings,
    search_id: str,
    viewer: Viewer,
    query: str,
    projects: list[str],
    resp: SearchResponse,
    rerank: str,
) -> None:
    ensure_schema(graph)
    graph.write(
        WRITE,
        {
            "id": search_id,
            "user_id": viewer.user_id,
            "witness": viewer.is_witness,
            "project_ids": sorted(projects),
            "query_hash": query_hash(settings, query),
            "candidates": json.dumps(resp.channel_candidates, sort_keys=True),
            "rerank": rerank,
            "latency": json.dumps(resp.latency_ms, sort_keys=True),
            "cached": resp.cached,
            "result_ids": [r.entry_id for r in resp.results],
            "result_channels": [",".join(sorted(r.score_breakdown)) for r in resp.results],
        },
    )
    if random.randrange(PRUNE_EVERY) == 0:  # noqa: S311
        graph.write(PRUNE, {"days": settings.search_log_days})


def ensure_schema(graph: Graph) -> None:
    """The log's constraint and index, once per database handle (not a migration: the log is optional)."""
    kept = _kept(graph)
    if kept.schema_ready:
        return
    for statement in SCHEMA:
        graph.run_auto(statement)
    kept.schema_ready = True


def _remember(graph: Graph, search_id: str, item: Remembered) -> None:
    kept = _kept(graph)
    with kept.lock:
        recent = kept.searches
        recent[search_id] = item
        while len(recent) > REMEMBER_MAX or (
            recent and time.monotonic() - next(iter(recent.values())).at > REMEMBER_SECONDS
        ):
            recent.popitem(last=False)


def feedback(graph: Graph, viewer: Viewer, search_id: str, entry_id: str, position: int) -> bool:
    """Record a click on the entry shown at `position` (1-based) of the caller's search. Returns whether it was
    written to the log (False for a search that was not sampled). Raises NoSuchSearch or NotInResults."""
    kept = _kept(graph)
    with kept.lock:
        found = kept.searches.get(search_id)
    if found is not None and time.monotonic() - found.at > REMEMBER_SECONDS:
        found = None
    if found is None:
        rows = graph.read(FIND, {"id": search_id})
        if rows:
            found = Remembered(0.0, rows[0]["user_id"], tuple(rows[0]["result_ids"]), True)
    if found is None or viewer.user_id is None or found.user_id != viewer.user_id:
        raise NoSuchSearch(search_id)
    if entry_id not in found.result_ids:
        raise NotInResults("entry_id was not among the results of this search")
    shown = found.result_ids.index(entry_id) + 1
    if shown != position:
        raise NotInResults(f"entry_id was shown at position {shown} of this search, not {position}")
    if not found.sampled:
        return False
    return bool(graph.write(CLICK, {"id": search_id, "user_id": viewer.user_id, "position": position})[0]["n"])


def recent_searchers(graph: Graph, limit: int) -> list[tuple[str, str]]:
    """(user id, project id) of the latest searches of one project by a member (witness links left out), newest
    first: whose views the warm start lists (api/warmup.py). Empty when nothing was logged or the log is
    unreadable."""
    if limit <= 0:
        return []
    try:
        return [(r["user_id"], r["project_id"]) for r in graph.read(RECENT_SEARCHERS, {"limit": limit})]
    except LOG_FAILURES as exc:
        log.warning("retrieval log not read: %s", exc)
        return []
