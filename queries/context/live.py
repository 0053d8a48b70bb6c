"""Live interview context (docs/live.md): while a session is recorded, the transcript's last ~500 tokens → the 5 most
related entries the caller may see, and `ask_about`: persons and places it names that the project knows little about.

Dense only, no query understanding, no rerank, so it answers in a blink. Two warm caches make that possible:

- per (project, viewer): the caller's *visible* chunk vectors as one matrix (loaded by a statement carrying the
  visibility predicate, so the cache holds nothing the caller may not see), the names they may know of, and how many
  visible entries mention each. It is checked on every call against a stamp — the caller's role and the project's
  search generations of the audiences the caller belongs to (graph/generations.py, one indexed read) — so it is
  rebuilt after any write the caller could notice and never because of one they could not; a TTL is the backstop.
- per (viewer, project, model): the transcript's segments' vectors. The window is cut into short segments at
  content-defined boundaries (sentence ends and words whose hash falls on a residue), so the same words give the same
  segments however far the window has slid; each call embeds only the segments it has not seen. Embedding 500 tokens
  at once takes seconds on 2 cores; 3 seconds of new speech is one or two short segments.
The window's vector is the recency-weighted mean of its segments' vectors.
"""

from __future__ import annotations

import logging
import threading
import time
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graph import generations
from graph.db import Graph
from graph.entities import list_visible_entities
from graph.lexicon import ProjectLexicon
from graph.schema import vector_property
from graph.textnorm import fold
from graph.visibility import CAN_SEE, Viewer, visibility_params
from inference.embedders import CheckedEmbedder, EmbeddingError
from queries.search.snippets import query_terms, snippet

log = logging.getLogger(__name__)
WINDOW_TOKENS = 500
CHARS_PER_TOKEN = 4  # the stated approximation: ~4 characters a token (e5's tokenizer gives about that on es/en)
WINDOW_CHARS = WINDOW_TOKENS * CHARS_PER_TOKEN
TOP_ENTRIES = 5
ASK_ABOUT_MAX_ENTRIES = 2  # "knows little": at most this many visible entries mention the name
ASK_ABOUT_LIMIT = 5
SEGMENT_MAX_WORDS = 24
SEGMENT_HASH_MODULUS = 8  # a word ends a segment when crc32(word) % 8 == 0: segments of ~8 words on average
RECENCY_HALF_LIFE = 16  # segments: the newest words weigh most, what was said ~130 words ago half as much
SEGMENT_CACHE_SIZE = 4096
MAX_BODY_CHARS = 20_000  # a snippet of a longer entry is cut from its first 20,000 characters
_SENTENCE_END = ".?!;…"

VISIBLE_VECTORS = f"""
MATCH (e:Entry) WHERE e.project_id = $project_id AND {CAN_SEE}
MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
RETURN e.id AS id, c[$prop] AS vector
ORDER BY id
"""

# The shown fields of the few entries answered: no period or thing lookups, the body cut to what a snippet reads.
LIVE_DETAILS = f"""
UNWIND $ids AS id
MATCH (e:Entry {{id: id}}) WHERE {CAN_SEE}
RETURN e.id AS id, e.title AS title, left(e.body, {MAX_BODY_CHARS}) AS body, e.author_id AS author_id,
       e.intimacy AS intimacy, e.kind AS kind, e.occurred_start AS occurred_start,
       [(e)-[m:MENTIONS]->(:Person) | m.name] AS persons, [(e)-[m:MENTIONS]->(:Place) | m.name] AS places
"""

VISIBLE_MENTION_COUNTS = f"""
MATCH (e:Entry)-[:MENTIONS]->(x:Person|Place)
WHERE e.project_id = $project_id AND {CAN_SEE}
RETURN x.id AS id, count(DISTINCT e) AS entries
"""


@dataclass
class LiveEntry:
    entry_id: str
    score: float
    title: str | None
    occurred_on: str | None
    author_id: str | None
    intimacy_level: str
    kind: str
    snippet_md: str
    persons: list[str]
    places: list[str]


@dataclass
class AskAbout:
    kind: str
    name: str
    entity_id: str
    entries: int  # visible entries that mention it
    mentions: int  # times the window names it


@dataclass
class LiveContext:
    entries: list[LiveEntry]
    ask_about: list[AskAbout]
    window_tokens: int
    latency_ms: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass
class LiveIndex:
    """What one viewer may see of one project, ready for a matrix product."""

    stamp: tuple[Any, ...]
    built: float
    entry_ids: list[str]
    starts: np.ndarray  # first row of each entry in `matrix`
    matrix: np.ndarray  # unit chunk vectors, rows grouped by entry
    lexicon: ProjectLexicon
    counts: dict[str, int]
    checked: float = 0.0  # when the stamp was last compared


class LiveCache:
    """LRU of LiveIndex by (project, viewer, model) and of segment vectors by (viewer, project, model, text).

    `check_seconds` = 0: every call checks the stamp before answering (a write is seen on the very next call).
    Above 0 (the service: MEMORA_LIVE_CACHE_CHECK_SECONDS), a call answers from the warm index and, when its last
    check is older than that, re-checks (and rebuilds if needed) in the background: on a busy 10,000-entry project the
    stamp alone costs more than the whole answer, so a write is seen within about that many seconds instead."""

    def __init__(self, size: int = 8, ttl_seconds: float = 300.0, check_seconds: float = 0.0) -> None:
        self.size, self.ttl, self.check_seconds = size, ttl_seconds, check_seconds
        self._indexes: OrderedDict[tuple[str, ...], LiveIndex] = OrderedDict()
        self._segments: OrderedDict[tuple[str, ...], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._refreshing: set[tuple[str, ...]] = set()
        self.builds = 0  # how many times an index was (re)built: tests and the benchmark read it

    def index(self, graph: Graph, embedder: CheckedEmbedder, viewer: Viewer, project_id: str) -> LiveIndex:
        key = (project_id, viewer.user_id or "", embedder.model_id)
        now = time.monotonic()
        with self._lock:
            found = self._indexes.get(key)
            if found is not None:
                self._indexes.move_to_end(key)
                if self.check_seconds > 0:
                    if now - found.checked >= self.check_seconds and key not in self._refreshing:
                        self._refreshing.add(key)
                        threading.Thread(
                            target=self._refresh,
                            args=(graph, embedder, viewer, project_id, key, found),
                            name="memora-live-refresh",
                            daemon=True,
                        ).start()
                    return found
        stamp = _stamp(graph, viewer, project_id)
        if found is not None and found.stamp == stamp and now - found.built < self.ttl:
            found.checked = now
            return found
        return self._store(key, _build_index(graph, embedder, viewer, project_id, stamp))

    def _refresh(
        self,
        graph: Graph,
        embedder: CheckedEmbedder,
        viewer: Viewer,
        project_id: str,
        key: tuple[str, ...],
        found: LiveIndex,
    ) -> None:
        try:
            stamp = _stamp(graph, viewer, project_id)
            if found.stamp == stamp and time.monotonic() - found.built < self.ttl:
                found.checked = time.monotonic()
            else:
                self._store(key, _build_index(graph, embedder, viewer, project_id, stamp))
        except Exception as exc:  # the warm index keeps serving; the next call past check_seconds tries again
            log.warning("live index refresh failed: %s", exc)
            found.checked = time.monotonic()
        finally:
            with self._lock:
                self._refreshing.discard(key)

    def _store(self, key: tuple[str, ...], built: LiveIndex) -> LiveIndex:
        with self._lock:
            self.builds += 1
            self._indexes[key] = built
            self._indexes.move_to_end(key)
            while len(self._indexes) > self.size:
                self._indexes.popitem(last=False)
        return built

    def invalidate(self, project_id: str | None = None) -> None:
        """Drop the indexes of one project (all without one); the stamp finds writes anyway, this is immediate."""
        with self._lock:
            for key in [k for k in self._indexes if project_id is None or k[0] == project_id]:
                del self._indexes[key]

    def segment_vectors(
        self, embedder: CheckedEmbedder, viewer: Viewer, project_id: str, segments: list[str]
    ) -> np.ndarray:
        """One unit vector per segment; only segments this viewer's window has not had before are embedded."""
        out = []
        for text in segments:
            key = (viewer.user_id or "", project_id, embedder.model_id, text)
            with self._lock:
                vector = self._segments.get(key)
                if vector is not None:
                    self._segments.move_to_end(key)
            if vector is None:
                vector = _unit(np.asarray(embedder.embed_query(text), dtype=np.float32))
                with self._lock:
                    self._segments[key] = vector
                    while len(self._segments) > SEGMENT_CACHE_SIZE:
                        self._segments.popitem(last=False)
            out.append(vector)
        return np.vstack(out)


def live_context(
    graph: Graph, embedder: CheckedEmbedder, viewer: Viewer, project_id: str, transcript: str, cache: LiveCache
) -> LiveContext:
    """The caller must be a member of the project (checked by the route or command before)."""
    t0 = time.perf_counter()
    latency: dict[str, float] = {}
    tail, cut = window(transcript)
    index = cache.index(graph, embedder, viewer, project_id)
    latency["index"] = _ms(t0)
    entries: list[LiveEntry] = []
    warnings: list[str] = []
    parts = segments(tail, drop_first=cut)
    if parts and len(index.entry_ids):
        t = time.perf_counter()
        try:
            vectors = cache.segment_vectors(embedder, viewer, project_id, parts)
        except EmbeddingError:
            vectors = None
            warnings.append("the transcript could not be embedded: no related entries this time")
        latency["embed"] = _ms(t)
        if vectors is not None:
            t = time.perf_counter()
            ranked = _nearest(index, _window_vector(vectors), TOP_ENTRIES)
            entries = _details(graph, viewer, ranked, tail)
            latency["entries"] = _ms(t)
    t = time.perf_counter()
    ask = ask_about(index, tail)
    latency["ask_about"] = _ms(t)
    latency["total"] = _ms(t0)
    return LiveContext(entries, ask, max(1, len(tail) // CHARS_PER_TOKEN) if tail else 0, latency, warnings)


def window(transcript: str) -> tuple[str, bool]:
    """The last ~WINDOW_TOKENS tokens (WINDOW_CHARS characters, cut at a word), and whether anything was cut."""
    text = transcript.strip()
    if len(text) <= WINDOW_CHARS:
        return text, False
    tail = text[-WINDOW_CHARS:]
    parts = tail.split(None, 1)  # drop the word the cut went through, unless it is the only one
    return parts[-1] if parts else tail, True


def segments(text: str, drop_first: bool = False) -> list[str]:
    """Short segments ending at a sentence end, at a word whose folded hash hits the modulus, or at
    SEGMENT_MAX_WORDS: the same words give the same segments wherever the window starts (after its first segment,
    which the cut may have shortened and is then dropped when others remain)."""
    out: list[str] = []
    current: list[str] = []
    for word in text.split():
        current.append(word)
        key = fold(word.strip(_SENTENCE_END + ",:\"'()¿¡"))
        if (
            word[-1] in _SENTENCE_END
            or len(current) >= SEGMENT_MAX_WORDS
            or (key and zlib.crc32(key.encode()) % SEGMENT_HASH_MODULUS == 0)
        ):
            out.append(" ".join(current))
            current = []
    if current:
        out.append(" ".join(current))
    return out[1:] if drop_first and len(out) > 1 else out


def ask_about(index: LiveIndex, tail: str) -> list[AskAbout]:
    """Persons and places the caller may know of, named in the window, that at most ASK_ABOUT_MAX_ENTRIES visible
    entries mention: fewest entries first, then most named. Names come from visible sources only, so a name known
    only through hidden entries reads exactly like a name the project has never heard."""
    found = [(entity, n) for entity, n in index.lexicon.find_in(tail).values() if entity.kind in ("person", "place")]
    rows = [AskAbout(e.kind, e.name, e.id, index.counts.get(e.id, 0), n) for e, n in found]
    rows = [r for r in rows if r.entries <= ASK_ABOUT_MAX_ENTRIES]
    rows.sort(key=lambda r: (r.entries, -r.mentions, fold(r.name), r.entity_id))
    return rows[:ASK_ABOUT_LIMIT]


def _build_index(
    graph: Graph, embedder: CheckedEmbedder, viewer: Viewer, project_id: str, stamp: tuple[Any, ...]
) -> LiveIndex:
    params = {"project_id": project_id, **visibility_params(viewer)}
    rows = graph.read(VISIBLE_VECTORS, {**params, "prop": vector_property(embedder.slug)})
    ids: list[str] = []
    starts: list[int] = []
    for i, r in enumerate(rows):
        if not ids or ids[-1] != r["id"]:
            ids.append(r["id"])
            starts.append(i)
    dims = embedder.dimensions
    matrix = np.asarray([r["vector"] for r in rows], dtype=np.float32).reshape(len(rows), dims)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix /= np.where(norms == 0, 1.0, norms)
    lexicon = ProjectLexicon(project_id)
    for entity in list_visible_entities(graph, [project_id], viewer):
        if entity.kind in ("person", "place"):
            lexicon.add(entity)
    counts = {r["id"]: int(r["entries"]) for r in graph.read(VISIBLE_MENTION_COUNTS, params)}
    now = time.monotonic()
    return LiveIndex(stamp, now, ids, np.asarray(starts, dtype=np.int64), matrix, lexicon, counts, now)


def _stamp(graph: Graph, viewer: Viewer, project_id: str) -> tuple[Any, ...]:
    """The caller's role and the project's search generations for the audiences the caller belongs to
    (graph/generations.py: every write path bumps the audiences that could see what it changed, vectors stored
    included), so a write the caller could notice changes the stamp and one they could not leaves it alone."""
    rows = generations.read(graph, [project_id], viewer.user_id)
    return tuple(tuple(r.values()) for r in rows)


def _window_vector(vectors: np.ndarray) -> np.ndarray:
    ages = np.arange(len(vectors) - 1, -1, -1, dtype=np.float32)
    weights = np.power(0.5, ages / RECENCY_HALF_LIFE)
    return _unit((vectors * weights[:, None]).sum(axis=0))


def _nearest(index: LiveIndex, query: np.ndarray, k: int) -> list[tuple[str, float]]:
    """Exact cosine over every visible chunk; an entry scores as its best chunk; ties by id."""
    sims = index.matrix @ query
    best = np.maximum.reduceat(sims, index.starts)
    order = _top(best, index.entry_ids, k)
    return [(index.entry_ids[i], float(best[i])) for i in order]


def _top(best: np.ndarray, ids: list[str], k: int) -> list[int]:
    pool = np.argpartition(-best, 4 * k)[: 4 * k] if len(best) > 4 * k else np.arange(len(best))
    return sorted((int(i) for i in pool), key=lambda i: (-float(best[i]), ids[i]))[:k]


def _details(graph: Graph, viewer: Viewer, ranked: list[tuple[str, float]], tail: str) -> list[LiveEntry]:
    rows = {r["id"]: r for r in graph.read(LIVE_DETAILS, {"ids": [i for i, _ in ranked], **visibility_params(viewer)})}
    terms = query_terms(tail)
    out = []
    for entry_id, score in ranked:
        row = rows.get(entry_id)
        if row is None:  # deleted or re-levelled since the index was checked
            continue
        snip, _ = snippet(row["body"] or "", terms)
        occurred = row["occurred_start"]
        out.append(
            LiveEntry(
                entry_id,
                round(score, 6),
                row["title"],
                occurred.iso_format() if occurred else None,
                row["author_id"],
                row["intimacy"],
                row["kind"],
                snip,
                sorted(row["persons"]),
                sorted(row["places"]),
            )
        )
    return out


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def shared_cache(graph: Graph, size: int, ttl_seconds: float, check_seconds: float) -> LiveCache:
    """The live cache kept on this database handle (graph/kept.py), shared by the service's routes; tests build their
    own."""
    caches = graph.kept.room("context.live", dict[tuple[int, float, float], LiveCache])
    with _SHARED_LOCK:
        return caches.setdefault((size, ttl_seconds, check_seconds), LiveCache(size, ttl_seconds, check_seconds))


_SHARED_LOCK = threading.Lock()
