"""Re-linking a project's entries after its names changed (an entity or alias added, renamed or deleted).

Each stored entry is run through ingest again (`Ingestor.refresh`): the same linking rules (`linkable_entities`: a
declaration links an entry only if it is at least as open as the entry, and an intimate or private one only the
declarer's own entries), the same content hash. An entry whose links and names did not change has the same hash and
is skipped untouched; one whose links changed is rewritten, and since the names are part of its chunks' context, its
chunks are embedded again (by the embedding worker unless `embed`). Jobs run one at a time on a background thread, so a
write answers at once and its caller polls the job's progress.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace

from graph import relink_epochs
from graph.db import Graph
from graph.forgetting import DROP_UNSOURCED_IN_PROJECT
from graph.visibility import CAN_SEE, Viewer, visibility_params
from inference.embedders import CheckedEmbedder
from ingest.pipeline import BATCH, WITNESS_VIEW, Ingestor
from ingest.threads import THREAD_RULE

log = logging.getLogger(__name__)

PROJECT_ENTRIES = """
MATCH (e:Entry {project_id: $project_id})
RETURN e.id AS id, coalesce(e.thread_pos, 0) AS pos ORDER BY id
"""
MAX_JOBS_KEPT = 1000
RESUME_AFTER_SECONDS = 30.0
"""How long a project must stay behind at one epoch before a starting service re-links it (a job runs seconds)."""

HASHES = "UNWIND $ids AS id MATCH (e:Entry {id: id}) RETURN e.id AS id, e.content_hash AS hash"
VISIBLE_IDS = f"UNWIND $ids AS id MATCH (e:Entry {{id: id}}) WHERE {CAN_SEE} RETURN e.id AS id"

# Circle entries of a chapter written before ingest derived what their witnesses may see of their links, in projects
# where members declared names a witness may not see (elsewhere there is nothing to hide).
WITNESS_VIEW_MISSING = """
MATCH (e:Entry {intimacy: 'circle'})
WHERE e.period_name IS NOT NULL AND e.witness_view IS NULL
  AND EXISTS { MATCH (d:Declaration {project_id: e.project_id}) WHERE d.intimacy <> 'public' }
RETURN e.id AS id, coalesce(e.thread_pos, 0) AS pos ORDER BY id
"""
MARK_THREAD_RULE = """
UNWIND $ids AS id MATCH (e:Entry {id: id})
SET e.thread_rule = CASE WHEN e.thread_id IS NULL THEN 0 ELSE $rule END
"""
MARK_WITNESS_VIEW = "UNWIND $ids AS id MATCH (e:Entry {id: id}) SET e.witness_view = $version"
# Turns placed by an older conversation rule, and messages that name a session but were cut by their times.
CONVERSATIONS_LAGGING = """
MATCH (e:Entry)
WHERE (e.thread_id IS NOT NULL AND coalesce(e.thread_rule, 1) < $rule)
   OR (e.thread_rule IS NULL AND e.metadata CONTAINS '"session"')
RETURN e.id AS id, coalesce(e.thread_pos, 0) AS pos ORDER BY e.project_id, e.thread_id, pos, id
"""

Progress = Callable[[int, int, int], None]
"""Called with (entries examined, entries in the project, entries rewritten) after each batch."""


def relink_project(
    graph: Graph,
    embedder: CheckedEmbedder,
    project_id: str,
    embed: bool = False,
    progress: Progress | None = None,
    viewer: Viewer | None = None,
) -> tuple[int, int]:
    """Re-link every entry of the project; returns (entries examined, entries rewritten). With `viewer`, every
    number reported (to `progress` and returned) counts only the entries that viewer may see: how many entries a
    project holds, or which of them a name matched, must not tell a writer about entries hidden from them.

    A pass links under the names as they were when it started (graph/relink_epochs.py); when an edit changes them
    meanwhile, the pass's next write is refused and a new pass starts over every entry under the new names. Numbers
    go on across passes (`done` never goes back, `relinked` counts each entry once), so a restart caused by an edit
    of hidden sources shows nothing but time."""
    tally = _Tally(progress)
    while True:
        epoch = relink_epochs.current(graph, project_id)
        try:
            total = _pass(graph, embedder, project_id, embed, viewer, tally, relink_epochs.Hold(project_id, epoch))
        except relink_epochs.Superseded:
            log.info("re-linking project %s: its names changed meanwhile, starting over", project_id)
            continue
        relink_epochs.mark_relinked(graph, project_id, epoch)
        return total, len(tally.rewritten)


class _Tally:
    """A job's numbers over its passes."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.shown = 0
        self.rewritten: set[str] = set()

    def report(self, done: int, total: int) -> None:
        self.shown = min(max(self.shown, done), total)
        if self.progress:
            self.progress(self.shown, total, len(self.rewritten))


def _pass(
    graph: Graph,
    embedder: CheckedEmbedder,
    project_id: str,
    embed: bool,
    viewer: Viewer | None,
    tally: _Tally,
    hold: relink_epochs.Hold,
) -> int:
    """One pass over every entry, each write held to the names of `hold`; returns how many entries it counted."""
    rows = graph.read(PROJECT_ENTRIES, {"project_id": project_id})
    ids = [str(r["id"]) for r in rows]

    def counted(batch: list[str]) -> set[str]:
        if viewer is None:
            return set(batch)
        return {str(r["id"]) for r in graph.read(VISIBLE_IDS, {"ids": batch, **visibility_params(viewer)})}

    ingestor = Ingestor(graph, embedder, embed=embed, before_write=hold)
    total, done = len(counted(ids)), 0
    tally.report(0, total)
    for start in range(0, len(rows), BATCH):
        batch = [(str(r["id"]), int(r["pos"])) for r in rows[start : start + BATCH]]
        batch_ids = [b[0] for b in batch]
        before = {r["id"]: r["hash"] for r in graph.read(HASHES, {"ids": batch_ids})}
        ingestor.refresh(batch)
        after = {r["id"]: r["hash"] for r in graph.read(HASHES, {"ids": batch_ids})}
        seen = counted(batch_ids)
        done += len(seen)
        tally.rewritten |= {i for i in seen if before.get(i) != after.get(i)}
        tally.report(done, total)
    ingestor.refresh(ingestor.threads.stale())
    graph.write(DROP_UNSOURCED_IN_PROJECT, {"project_id": project_id})  # their last mention re-linked away
    return total


def witness_views_missing(graph: Graph) -> list[tuple[str, int]]:
    return [(str(r["id"]), int(r["pos"])) for r in graph.read(WITNESS_VIEW_MISSING)]


def refresh_witness_views(
    graph: Graph, embedder: CheckedEmbedder, missing: list[tuple[str, int]], progress: Progress | None = None
) -> tuple[int, int]:
    """Re-derive the entries `witness_views_missing` found, so a witness of their chapter no longer sees a name
    declared for members only; returns (entries examined, entries rewritten). Those whose links a witness sees
    alike keep their hash and are only marked; the others are rewritten and their chunks embedded again (by the
    worker)."""
    ingestor, done, rewritten = _refresh_marking(
        graph, embedder, missing, MARK_WITNESS_VIEW, {"version": WITNESS_VIEW}, progress
    )
    ingestor.refresh(ingestor.threads.stale())
    return done, rewritten


def _refresh_marking(
    graph: Graph,
    embedder: CheckedEmbedder,
    entries: list[tuple[str, int]],
    mark: str,
    params: dict[str, object],
    progress: Progress | None,
) -> tuple[Ingestor, int, int]:
    """`Ingestor.refresh` over `entries` in batches, each batch marked done by `mark` (with `ids`); the ingestor (its
    touched threads not yet reconciled), entries examined and rewritten."""
    ingestor = Ingestor(graph, embedder, embed=False)
    done = rewritten = 0
    for start in range(0, len(entries), BATCH):
        batch = entries[start : start + BATCH]
        rewritten += ingestor.refresh(batch).written
        graph.write(mark, {**params, "ids": [i for i, _ in batch]})
        done += len(batch)
        if progress:
            progress(done, len(entries), rewritten)
    return ingestor, done, rewritten


def conversations_lagging(graph: Graph) -> list[tuple[str, int]]:
    return [(str(r["id"]), int(r["pos"])) for r in graph.read(CONVERSATIONS_LAGGING, {"rule": THREAD_RULE})]


def refresh_conversations(
    graph: Graph, embedder: CheckedEmbedder, lagging: list[tuple[str, int]], progress: Progress | None = None
) -> tuple[int, int]:
    """Place again the turns `conversations_lagging` found, under the current rule (ingest/threads.py); returns
    (entries examined, entries rewritten). A turn whose thread and borrowed words are unchanged keeps its hash; the
    others are rewritten and embedded again by the worker."""
    ingestor, done, rewritten = _refresh_marking(
        graph, embedder, lagging, MARK_THREAD_RULE, {"rule": THREAD_RULE}, progress
    )
    rewritten += ingestor.refresh(ingestor.threads.stale()).written
    return done, rewritten


@dataclass(frozen=True)
class RelinkJob:
    job_id: str
    project_id: str
    viewer_id: str
    status: str = "queued"
    done: int = 0
    total: int | None = None
    relinked: int = 0
    error: str | None = None


class RelinkJobs:
    """Background re-linking, one job at a time on one daemon thread. A change made while a job of the same project
    is still queued joins that job (it has not read anything yet, so it will see the change); one made while a job
    runs gets a job of its own, and the running one starts over under the new names (`relink_project`)."""

    def __init__(self, graph: Graph, embedder: Callable[[], CheckedEmbedder]) -> None:
        self.graph = graph
        self.embedder = embedder
        self._jobs: dict[str, RelinkJob] = {}
        self._queue: queue.Queue[str] = queue.Queue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, project_id: str, viewer_id: str) -> RelinkJob:
        """A job for `viewer_id`'s change; its numbers count what that viewer may see, and only they may read it."""
        with self._lock:
            waiting = next(
                (
                    j
                    for j in self._jobs.values()
                    if j.project_id == project_id and j.viewer_id == viewer_id and j.status == "queued"
                ),
                None,
            )
            if waiting is not None:
                return waiting
            job = RelinkJob(uuid.uuid4().hex, project_id, viewer_id)
            self._jobs[job.job_id] = job
            finished = [k for k, j in self._jobs.items() if j.status in ("done", "failed")]
            for old in finished[: max(0, len(self._jobs) - MAX_JOBS_KEPT)]:
                del self._jobs[old]
            self._queue.put(job.job_id)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="memora-relink", daemon=True)
                self._thread.start()
            return job

    def resume(self, project_ids: list[str]) -> list[RelinkJob]:
        """Jobs for projects whose latest edit of names no completed pass has re-linked (`relink_epochs.behind`: the
        job was lost to a crash or a restart). Nobody started them, so nobody may read them, and they count every
        entry."""
        return [self.submit(project_id, "") for project_id in project_ids]

    def resume_lost(self, settle: float = RESUME_AFTER_SECONDS) -> None:
        """`resume` every project left behind, on a thread of its own so a service starts at once: those still
        behind at the same epoch `settle` seconds later, so a job another process is running finishes undisturbed."""

        def find() -> None:
            try:
                first = relink_epochs.behind(self.graph)
                if first:
                    time.sleep(settle)
                    still = relink_epochs.behind(self.graph)
                    self.resume([p for p, epoch in still.items() if first.get(p) == epoch])
            except Exception:  # noqa: BLE001 - the next start, or the next edit, re-links them
                log.exception("could not look for re-linking left unfinished")

        threading.Thread(target=find, name="memora-relink-resume", daemon=True).start()

    def get(self, job_id: str) -> RelinkJob | None:
        with self._lock:
            return self._jobs.get(job_id)

    def _update(self, job_id: str, **changes: object) -> None:
        with self._lock:
            self._jobs[job_id] = replace(self._jobs[job_id], **changes)  # type: ignore[arg-type]

    def _progress(self, job_id: str) -> Progress:
        return lambda done, total, relinked: self._update(job_id, done=done, total=total, relinked=relinked)

    def _run(self) -> None:
        while True:
            try:
                job_id = self._queue.get(timeout=30)
            except queue.Empty:
                with self._lock:  # exit only when nothing was queued meanwhile (submit starts a new thread then)
                    if self._queue.empty():
                        self._thread = None
                        return
                continue
            job = self.get(job_id)
            if job is None:
                continue
            self._update(job_id, status="running")
            try:
                relink_project(
                    self.graph,
                    self.embedder(),
                    job.project_id,
                    embed=False,
                    progress=self._progress(job_id),
                    viewer=Viewer(user_id=job.viewer_id) if job.viewer_id else None,
                )
            except Exception as exc:  # noqa: BLE001 - a failed job is reported through its status, never lost
                log.exception("re-linking project %s failed", job.project_id)
                self._update(job_id, status="failed", error=str(exc)[:300])
            else:
                self._update(job_id, status="done")
