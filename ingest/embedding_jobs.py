"""Embedding jobs: backfill what is pending (resumable, committed per batch), report status, migrate models.

The jobs are the chunks themselves: a chunk without a vector for a model is pending for it, with an attempts
counter and the last error; nothing else needs to be kept in sync. Any number of workers (processes or threads)
may backfill at once: each batch is leased to one worker (`graph.embeddings.claim_batch`), for
`MEMORA_EMBED_LEASE_SECONDS`, so no chunk is embedded twice and a killed worker's chunks go to the others.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from graph.db import Graph
from graph.embeddings import (
    EmbeddingState,
    attempts_key,
    claim_batch,
    counts,
    drop_vectors,
    get_state,
    record_failures,
    release,
    set_state,
    store_vectors,
    stores_key,
)
from graph.ids import sha256
from graph.schema import ensure_vector_index, vector_index_name, vector_property
from graph.settings import Settings, get_settings
from inference.embedder_specs import embedder_for_spec, settings_spec
from inference.embedders import CheckedEmbedder, EmbeddingError
from ingest.pipeline import embedding_input, sparse_arrays

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 5


_worker_ids: dict[int, str] = {}


def worker_id() -> str:
    """This process's lease owner name, host:pid:random (a forked child gets its own)."""
    pid = os.getpid()
    if pid not in _worker_ids:
        _worker_ids[pid] = f"{socket.gethostname()}:{pid}:{secrets.token_hex(4)}"
    return _worker_ids[pid]


@dataclass
class BackfillStats:
    embedded: int = 0
    failed: int = 0
    batches: int = 0
    lost: int = 0  # embedded but not stored: the lease expired and another worker took it, or the entry changed
    errors: list[str] = field(default_factory=list)


def backfill(
    graph: Graph,
    embedder: CheckedEmbedder,
    *,
    active: bool = True,
    batch_size: int = 64,
    max_attempts: int = MAX_ATTEMPTS,
    max_batches: int | None = None,
    progress: Callable[[int], None] | None = None,
    stop: threading.Event | None = None,
    project_id: str | None = None,
    owner: str | None = None,
    lease_seconds: float | None = None,
    stats: BackfillStats | None = None,
) -> BackfillStats:
    """Embed every chunk that lacks this model's vector, one leased and committed batch at a time.

    Interrupted, it resumes where it stopped: what is done has its vector, what is not is still pending (a batch
    being embedded is given back; after a SIGKILL its lease expires). A failing provider stops the run after one
    failed batch (the worker retries later); each chunk gets `max_attempts`. Chunks other workers hold are skipped.
    Counts go to `stats` as they happen (so an interrupted caller still knows them).
    """
    prop = vector_property(embedder.slug)
    key = attempts_key(embedder.slug, active)
    owner = owner or worker_id()
    lease_ms = int(1000 * (lease_seconds if lease_seconds is not None else get_settings().embed_lease_seconds))
    stats = stats if stats is not None else BackfillStats()
    after = ""
    while max_batches is None or stats.batches < max_batches:
        if stop is not None and stop.is_set():
            break
        last, batch = claim_batch(
            graph,
            prop,
            key,
            max_attempts,
            after,
            batch_size,
            owner=owner,
            lease_ms=lease_ms,
            project_id=project_id,
            active=active,
        )
        if last is None:
            break
        after = last
        if not batch:  # another worker claimed these first
            continue
        stats.batches += 1
        try:
            vectors = embedder.embed_passages([embedding_input(c["context"] or "", c["text"]) for c in batch])
        except EmbeddingError as exc:
            rows = []
            for c in batch:
                props: dict[str, Any] = {key: c["attempts"] + 1}
                if active:
                    props |= {
                        "embedding_status": "failed" if c["attempts"] + 1 >= max_attempts else "pending",
                        "embedding_error": str(exc)[:500],
                    }
                rows.append({"id": c["id"], "props": props})
            record_failures(graph, rows, owner)
            stats.failed += len(batch)
            stats.errors.append(str(exc)[:200])
            log.warning("embedding batch failed (%d chunks), will retry later: %s", len(batch), exc)
            break
        except BaseException:  # Ctrl-C, SIGTERM, a bug: give the batch back rather than let it wait for the expiry
            _release_quietly(graph, owner, [c["id"] for c in batch])
            raise
        sparse = sparse_arrays(embedder, batch) if active else [{} for _ in batch]
        rows = []
        for c, vec, arrays in zip(batch, vectors, sparse, strict=True):
            props = {key: None}
            if active:
                props |= {
                    "embedding_status": "done",
                    "embedding_model": embedder.model_id,
                    "embedding_error": None,
                    "embedding_hash": sha256(embedder.model_id, c["context"] or "", c["text"]),
                    **arrays,
                }
            rows.append({"id": c["id"], "props": props, "vector": [float(x) for x in vec]})
        stored = store_vectors(graph, prop, embedder.slug, rows, owner)
        stats.embedded += len(stored)
        if len(stored) < len(batch):
            stats.lost += len(batch) - len(stored)
            log.warning(
                "%d embedded chunks not stored: their lease expired and another worker holds them (raise "
                "MEMORA_EMBED_LEASE_SECONDS above a batch's time), or their entry was edited or deleted",
                len(batch) - len(stored),
            )
        if progress:
            progress(len(batch))
    return stats


def _release_quietly(graph: Graph, owner: str, ids: list[str] | None = None) -> int:
    """Best effort: when the graph is unreachable the leases simply expire."""
    try:
        return release(graph, owner, ids)
    except Exception as exc:  # noqa: BLE001 - on the way out; the lease expiry is the fallback
        log.warning("could not release embedding leases (they expire by themselves): %s", exc)
        return 0


def status(
    graph: Graph, embedder: CheckedEmbedder, active: bool = True, max_attempts: int = MAX_ATTEMPTS
) -> dict[str, Any]:
    c = counts(graph, vector_property(embedder.slug), attempts_key(embedder.slug, active), max_attempts)
    return {"model": embedder.model_id, "pending": c.pending, "leased": c.leased, "done": c.done, "failed": c.failed}


def retry_failed(graph: Graph, embedder: CheckedEmbedder, active: bool = True) -> int:
    """Give failed chunks a fresh set of attempts (after the provider is fixed)."""
    key = attempts_key(embedder.slug, active)
    rows = graph.write(
        "MATCH (c:Chunk) WHERE c[$prop] IS NULL AND coalesce(c[$key], 0) > 0 SET c += $reset RETURN count(c) AS n",
        {
            "prop": vector_property(embedder.slug),
            "key": key,
            "reset": {key: 0, **({"embedding_status": "pending"} if active else {})},
        },
    )
    return int(rows[0]["n"])


def current_state(graph: Graph, settings: Settings) -> EmbeddingState:
    """The graph names the active model; the first time, it is the configured one."""
    state = get_state(graph)
    if state is None:
        spec = settings_spec(settings)
        state = EmbeddingState(spec, embedder_for_spec(settings, spec).slug)
        set_state(graph, state)
    return state


def active_embedder(graph: Graph, settings: Settings) -> CheckedEmbedder:
    """The active model, with its vector index ensured once per database handle (a non-default model needs its
    own)."""
    embedder = embedder_for_spec(settings, current_state(graph, settings).active)
    indexed = graph.kept.room("embeddings.indexed", set[str])
    if embedder.slug not in indexed:
        try:
            ensure_vector_index(graph, embedder.slug, embedder.dimensions)
            indexed.add(embedder.slug)
        except EmbeddingError as exc:
            log.warning("vector index for %s not ensured yet (chunks stay pending): %s", embedder.model_id, exc)
    return embedder


def target_embedder(graph: Graph, settings: Settings) -> CheckedEmbedder | None:
    state = current_state(graph, settings)
    return embedder_for_spec(settings, state.target) if state.target else None


def start_migration(graph: Graph, settings: Settings, target_spec: str) -> EmbeddingState:
    """Create the new model's index and record it as the target; search then queries both until it is complete."""
    state = current_state(graph, settings)
    target = embedder_for_spec(settings, target_spec)
    if target.slug == state.active_slug:
        raise ValueError(f"{target_spec} is already the active model")
    if state.target and state.target_slug != target.slug:
        raise ValueError(f"a migration to {state.target} is already in progress")
    ensure_vector_index(graph, target.slug, target.dimensions)
    new = EmbeddingState(state.active, state.active_slug, target_spec, target.slug, state.retired)
    set_state(graph, new)
    return new


def finish_migration(graph: Graph, settings: Settings) -> EmbeddingState:
    """Switch to the target once every chunk has its vector; the old index stays until `drop_retired`."""
    state = current_state(graph, settings)
    if not state.target or not state.target_slug:
        return state
    target = embedder_for_spec(settings, state.target)
    c = counts(graph, vector_property(target.slug), attempts_key(target.slug, False), MAX_ATTEMPTS)
    if c.pending or c.failed:
        return state
    graph.write(
        "MATCH (c:Chunk) WHERE c[$prop] IS NOT NULL SET c += $props",
        {
            "prop": vector_property(target.slug),
            "props": {"embedding_status": "done", "embedding_model": target.model_id},
        },
    )
    new = EmbeddingState(state.target, state.target_slug, None, None, (*state.retired, state.active_slug))
    set_state(graph, new)
    return new


def drop_retired(graph: Graph, settings: Settings) -> list[str]:
    """Drop the indexes and vectors of models no longer active."""
    state = current_state(graph, settings)
    dropped = []
    for slug in state.retired:
        graph.run_auto(f"DROP INDEX {vector_index_name(slug)} IF EXISTS")
        drop_vectors(graph, vector_property(slug), attempts_key(slug, False), also=(stores_key(slug),))
        dropped.append(slug)
    set_state(graph, EmbeddingState(state.active, state.active_slug, state.target, state.target_slug, ()))
    return dropped


class Worker:
    """Background embedding worker: backfills pending chunks every `interval` seconds until stopped.

    Several may run on one graph (processes, or `memora serve` next to `memora embeddings work`); they share the
    work through leases, and `stop` gives back what this one still holds."""

    def __init__(
        self,
        graph: Graph,
        settings: Settings,
        interval: float | None = None,
        *,
        batch_size: int = 64,
        project_id: str | None = None,
    ) -> None:
        """`interval` defaults to MEMORA_EMBED_WORKER_INTERVAL_SECONDS."""
        self.graph = graph
        self.settings = settings
        self.interval = settings.embed_worker_interval_seconds if interval is None else interval
        self.batch_size = batch_size
        self.project_id = project_id
        self.owner = worker_id()
        self.totals = BackfillStats()  # over every round, for the exit message
        self.stop_event = threading.Event()
        self._thread: threading.Thread | None = None

    def _backfill(self, embedder: CheckedEmbedder, active: bool, stats: BackfillStats) -> None:
        backfill(
            self.graph,
            embedder,
            active=active,
            batch_size=self.batch_size,
            stop=self.stop_event,
            project_id=self.project_id,
            owner=self.owner,
            lease_seconds=self.settings.embed_lease_seconds,
            stats=stats,
        )

    def run_once(self) -> BackfillStats:
        """One round: the active model's pending chunks, then a migration target's; its counts join `totals`."""
        stats = BackfillStats()
        try:
            self._backfill(active_embedder(self.graph, self.settings), True, stats)
            target = target_embedder(self.graph, self.settings)
            if target is not None and not self.stop_event.is_set():
                self._backfill(target, False, stats)
                finish_migration(self.graph, self.settings)
        finally:
            self.totals.embedded += stats.embedded
            self.totals.failed += stats.failed
            self.totals.lost += stats.lost
        return stats

    def loop(self) -> None:
        while not self.stop_event.is_set():
            try:
                self.run_once()
            except Exception:  # noqa: BLE001 - a worker must outlive one bad round; the error is logged
                log.exception("embedding worker round failed")
            self.stop_event.wait(self.interval)

    def start(self) -> None:
        self._thread = threading.Thread(target=self.loop, name="memora-embedder", daemon=True)
        self._thread.start()

    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float) -> None:
        """Wait up to `timeout` for the worker's thread to end (it ends only when stopped or on a fatal error)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def stop(self, timeout: float = 10.0) -> int:
        """Stop after the batch in hand (up to `timeout`) and release this worker's leases; returns how many.

        A batch still being embedded after the timeout is released too: its vectors will not be stored."""
        self.stop_event.set()
        if self._thread is not None:
            self._thread.join(timeout)
        return self.release()

    def release(self) -> int:
        return _release_quietly(self.graph, self.owner)


def wait_idle(worker: Worker, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and worker.run_once().embedded:
        pass
