"""The search-result cache: a whole `SearchResponse`, reused for the same viewer asking the same thing of the same
data within `MEMORA_SEARCH_CACHE_SECONDS`.

The key is a digest of everything that decides the answer:
- the viewer: a user id (witnesses are not cached); and the viewer's role in each project searched (read from the
  graph for this search, so a role change is a new key even before its generation bump is seen);
- the scope (the projects resolved for this search) and, per project, the search generations this viewer depends on
  (`graph/generations.py`), which every write path bumps: an entry created, edited, re-levelled or deleted, vectors
  stored, entities, members, the hemisphere. They are read from the Project node in one statement per search, so a
  write by another process invalidates this process's entries too; a write hidden from the viewer (another author's
  private entry) bumps no generation of theirs, so a hit or a miss tells them nothing about it;
- the active embedding model and any migration target (`graph/embeddings.py`);
- the query, normalised only by Unicode NFC and collapsed whitespace (case and accents can change understanding);
- every search option (all fields of `SearchOptions`, so an option added later is in the key), with `now` resolved to
  today's date (a relative date means something else tomorrow);
- every setting (a digest of `Settings`), so a run under another dense floor or fusion constant is another key.

Each stored response also keeps the viewer it was made for, checked again on every hit: one viewer's results are
never returned to another, even if two keys collided. The TTL is a backstop for a write that bypassed every bump (a
hand-written Cypher statement). Hits and misses are counted for `bench/bench_cache.py` and /metrics.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import threading
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import TYPE_CHECKING, cast

from graph import generations
from graph.db import Graph
from graph.embeddings import recent_state
from graph.settings import Settings
from graph.viewer_lru import ViewerLRU
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder

if TYPE_CHECKING:
    from queries.search.request import SearchOptions, SearchResponse


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0


@dataclass(frozen=True)
class CacheKey:
    digest: str
    viewer: Viewer


@dataclass
class ResultCache:
    """The kept responses of one database handle (graph/kept.py) and their hit and miss counts."""

    entries: ViewerLRU = field(default_factory=ViewerLRU)
    stats: CacheStats = field(default_factory=CacheStats)
    lock: threading.Lock = field(default_factory=threading.Lock)


def kept_results(graph: Graph) -> ResultCache:
    return graph.kept.room("search.results", ResultCache)


# A memo of a pure function of the settings object (no data of any database): module level.
_lock = threading.Lock()
_digests: dict[int, tuple[Settings, str]] = {}


def normalise_query(query: str) -> str:
    return " ".join(unicodedata.normalize("NFC", query).split())


def key_for(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    viewer: Viewer,
    query: str,
    projects: list[str],
    options: SearchOptions,
) -> CacheKey | None:
    """The cache key of this search, or None when the cache is off."""
    if settings.search_cache_seconds <= 0 or settings.search_cache_size <= 0:
        return None
    if viewer.is_witness:
        # A witness's results depend on a generation every circle write of the project bumps: a hit turning into a
        # miss would tell them something was written outside their chapter.
        return None
    state = recent_state(graph, settings.state_cache_seconds)
    material = {
        "viewer": [viewer.user_id, viewer.witness_period_id],
        "projects": generations.read(graph, projects, viewer.user_id),
        "model": [embedder.model_id, embedder.slug, state.active if state else None, state.target if state else None],
        "query": normalise_query(query),
        "options": {**asdict(options), "now": options.now or date.today()},
        "settings": _settings_digest(settings),
    }
    blob = json.dumps(material, sort_keys=True, default=str, separators=(",", ":"))
    return CacheKey(hashlib.sha256(blob.encode()).hexdigest(), viewer)


def _settings_digest(settings: Settings) -> str:
    """Every setting, hashed: a caller running the same query under another dense floor, fusion constant or model
    (evaluation, calibration) must not get an answer computed under the first. Computed once per settings object
    (they are built once and not changed)."""
    with _lock:
        known = _digests.get(id(settings))
    if known is not None and known[0] is settings:
        return known[1]
    blob = json.dumps(settings.model_dump(mode="json"), sort_keys=True, default=str)
    digest = hashlib.sha256(blob.encode()).hexdigest()
    with _lock:
        if len(_digests) >= 64:
            _digests.clear()
        _digests[id(settings)] = (settings, digest)
    return digest


def get(graph: Graph, key: CacheKey | None, settings: Settings) -> SearchResponse | None:
    """A private copy of the stored response, if it is fresh and was made for this very viewer."""
    if key is None:
        return None
    cache = kept_results(graph)
    found, stored = cache.entries.get(key.viewer, key.digest, settings.search_cache_seconds)
    with cache.lock:
        if not found:
            cache.stats.misses += 1
            return None
        cache.stats.hits += 1
    return cast("SearchResponse", pickle.loads(stored))


def put(graph: Graph, key: CacheKey | None, settings: Settings, response: SearchResponse) -> SearchResponse:
    """Keep a copy of `response` under `key` (nothing when the cache is off); returns `response` itself. The copy is
    pickled: a quarter of a deep copy's time for 30 results, and each hit unpickles a private copy of its own."""
    if key is None:
        return response
    kept_results(graph).entries.put(
        key.viewer, key.digest, pickle.dumps(response, pickle.HIGHEST_PROTOCOL), settings.search_cache_size
    )
    return response


def hit_response(found: SearchResponse, started: float) -> SearchResponse:
    """A cached response as this search returns it: its latency is this lookup's, marked `cache`."""
    ms = round((time.perf_counter() - started) * 1000, 2)
    found.latency_ms = {"cache": ms, "total": ms}
    found.cached = True
    return found


def clear(graph: Graph) -> None:
    cache = kept_results(graph)
    cache.entries.clear()
    with cache.lock:
        cache.stats.hits = cache.stats.misses = 0


def size(graph: Graph) -> int:
    return kept_results(graph).entries.size()
