"""Several embedding workers on one graph: each batch of pending chunks is leased to one worker, so no chunk is
embedded twice, and a worker killed with SIGKILL leaves nothing stuck (its leases expire and the others take them).

The claim is checked directly (threads racing for the same chunks) and end to end with real `memora embeddings work`
processes, one of which is killed mid-way; every chunk carries a counter of stores made by the store statement itself,
so a chunk embedded by two workers shows 2."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graph.db import Graph
from graph.embeddings import attempts_key, claim_batch, record_failures, release, store_vectors, stores_key
from graph.schema import vector_property
from inference.embedders import CheckedEmbedder
from ingest import embedding_jobs as jobs
from tests.conftest import SUMMARY

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

REPO = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 180  # three interpreters importing the stack at once on a busy 2-core machine
RUN_TIMEOUT = 300


class Down:
    """The real model's identity, but every call fails like an unreachable service: ingest leaves chunks pending."""

    def __init__(self, real: CheckedEmbedder) -> None:
        self.model_id, self.slug, self.dimensions = real.model_id, real.slug, real.dimensions

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        raise ConnectionError("embedding service unreachable")

    def embed_query(self, text: str) -> np.ndarray:
        raise ConnectionError("embedding service unreachable")


def pending_project(ingest: Callable[..., Any], embedder: CheckedEmbedder, project: str, n: int) -> None:
    rows = [
        {
            "entry_id": f"{project}/e{i:04d}",
            "project_id": project,
            "intimacy": "circle",
            "text": f"Nota {i}: el verano {1980 + i % 40} fuimos a la playa de Tarifa con la abuela y el perro.",
        }
        for i in range(n)
    ]
    report = ingest(rows, emb=CheckedEmbedder(Down(embedder)))
    assert report.written == n and report.chunks_pending == n, report


def chunk_ids(graph: Graph, project: str) -> set[str]:
    return {r["id"] for r in graph.read("MATCH (c:Chunk {project_id: $p}) RETURN c.id AS id", {"p": project})}


def leases(graph: Graph, project: str) -> dict[str, set[str]]:
    rows = graph.read(
        "MATCH (c:Chunk {project_id: $p}) WHERE c.embed_lease_owner IS NOT NULL "
        "RETURN c.embed_lease_owner AS owner, collect(c.id) AS ids",
        {"p": project},
    )
    return {r["owner"]: set(r["ids"]) for r in rows}


def fresh_claims(graph: Graph, project: str, lease_ms: int) -> dict[str, int]:
    """Each lease owner's youngest claim, its age in ms by the server's clock."""
    rows = graph.read(
        "MATCH (c:Chunk {project_id: $p}) WHERE c.embed_lease_owner IS NOT NULL "
        "RETURN c.embed_lease_owner AS owner, min(timestamp() - (c.embed_lease_until - $ms)) AS age",
        {"p": project, "ms": lease_ms},
    )
    return {r["owner"]: int(r["age"]) for r in rows}


def embedded(graph: Graph, project: str, prop: str) -> int:
    return int(
        graph.read(
            "MATCH (c:Chunk {project_id: $p}) WHERE c[$prop] IS NOT NULL RETURN count(c) AS n",
            {"p": project, "prop": prop},
        )[0]["n"]
    )


def final_state(graph: Graph, project: str, embedder: CheckedEmbedder) -> list[dict[str, Any]]:
    return [
        dict(r)
        for r in graph.read(
            "MATCH (c:Chunk {project_id: $p}) RETURN c.id AS id, c[$prop] IS NOT NULL AS has_vector, "
            "c.embedding_status AS status, c[$stores] AS stores, c.embed_lease_owner AS owner, "
            "c.embed_lease_until AS until, c.embed_claim AS marker",
            {"p": project, "prop": vector_property(embedder.slug), "stores": stores_key(embedder.slug)},
        )
    ]


STORED_TWICE = """
MATCH (c:Chunk {project_id: $p})
UNWIND keys(c) AS k
WITH c, k WHERE k STARTS WITH 'stores_' AND c[k] <> 1
RETURN count(*) AS n
"""


def test_concurrent_claims_never_return_the_same_chunk(
    graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any]
) -> None:
    """Four threads claim the same first chunks over and over (cursor always at the start, so every claim races
    for the same candidates) until nothing is free: each chunk is claimed by exactly one of them."""
    project = f"{prefix}p"
    pending_project(ingest, embedder, project, 200)
    prop, key = vector_property(embedder.slug), attempts_key(embedder.slug, True)
    owners = [f"{prefix}w{i}" for i in range(4)]
    claimed: dict[str, list[str]] = {o: [] for o in owners}
    errors: list[BaseException] = []
    start = threading.Barrier(len(owners))

    def claimer(owner: str) -> None:
        try:
            start.wait()
            while True:
                last, batch = claim_batch(
                    graph,
                    prop,
                    key,
                    jobs.MAX_ATTEMPTS,
                    "",
                    7,
                    owner=owner,
                    lease_ms=120_000,
                    project_id=project,
                    active=True,
                )
                if last is None:
                    return
                claimed[owner].extend(c["id"] for c in batch)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=claimer, args=(o,)) for o in owners]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    every = [cid for ids in claimed.values() for cid in ids]
    assert len(every) == len(set(every)), "a chunk was handed to two claimers"
    assert set(every) == chunk_ids(graph, project)
    assert sum(1 for ids in claimed.values() if ids) >= 2, "the claimers did not actually compete"
    assert leases(graph, project) == {o: set(ids) for o, ids in claimed.items() if ids}


def test_a_worker_stores_only_chunks_it_still_holds(
    graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any]
) -> None:
    """A worker whose lease expired and was taken over stores nothing and counts no failure; the new holder does."""
    project = f"{prefix}p"
    pending_project(ingest, embedder, project, 6)
    prop, key = vector_property(embedder.slug), attempts_key(embedder.slug, True)
    slow, fast = f"{prefix}slow", f"{prefix}fast"
    _, mine = claim_batch(
        graph, prop, key, jobs.MAX_ATTEMPTS, "", 10, owner=slow, lease_ms=1, project_id=project, active=True
    )
    assert len(mine) == 6
    time.sleep(0.05)  # the 1 ms lease has expired
    _, theirs = claim_batch(
        graph, prop, key, jobs.MAX_ATTEMPTS, "", 10, owner=fast, lease_ms=120_000, project_id=project, active=True
    )
    assert [c["id"] for c in theirs] == [c["id"] for c in mine]

    vectors = embedder.embed_passages([c["text"] for c in mine])
    rows = [
        {"id": c["id"], "props": {"embedding_status": "done"}, "vector": [float(x) for x in v]}
        for c, v in zip(mine, vectors, strict=True)
    ]
    assert store_vectors(graph, prop, embedder.slug, rows, slow) == []
    assert record_failures(graph, [{"id": c["id"], "props": {key: 1}} for c in mine], slow) == []
    assert release(graph, slow) == 0
    assert embedded(graph, project, prop) == 0 and leases(graph, project) == {fast: {c["id"] for c in mine}}

    assert sorted(store_vectors(graph, prop, embedder.slug, rows, fast)) == sorted(c["id"] for c in mine)
    state = final_state(graph, project, embedder)
    assert all(
        s["has_vector"] and s["stores"] == 1 and s["owner"] is None and s["until"] is None and s["marker"] is None
        for s in state
    ), state
    assert (
        graph.read("MATCH (c:Chunk {project_id: $p}) RETURN max(coalesce(c[$k], 0)) AS a", {"p": project, "k": key})[0][
            "a"
        ]
        == 0
    ), "the overtaken worker's failure was not counted"


def test_status_counts_leased_chunks_and_release_gives_them_back(
    graph: Graph, embedder: CheckedEmbedder, settings: Any, prefix: str, ingest: Callable[..., Any]
) -> None:
    project = f"{prefix}p"
    pending_project(ingest, embedder, project, 5)
    prop, key = vector_property(embedder.slug), attempts_key(embedder.slug, True)
    owner = f"{prefix}w"
    claim_batch(
        graph, prop, key, jobs.MAX_ATTEMPTS, "", 3, owner=owner, lease_ms=120_000, project_id=project, active=True
    )
    assert jobs.status(graph, embedder)["leased"] >= 3  # other runs on the shared graph may hold leases too
    # A backfill by another worker skips the held chunks and embeds the rest.
    assert jobs.backfill(graph, embedder, project_id=project, owner=f"{prefix}other").embedded == 2
    assert release(graph, owner) == 3 and leases(graph, project) == {}
    assert jobs.backfill(graph, embedder, project_id=project, owner=f"{prefix}other").embedded == 3


def memora(*args: str) -> list[str]:
    return [sys.executable, "-m", "api.cli", *args]


def start_worker(project: str, log: Path, lease_seconds: float, batch: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, MEMORA_EMBED_LEASE_SECONDS=str(lease_seconds))
    with log.open("wb") as fh:
        return subprocess.Popen(
            memora("embeddings", "work", "--project", project, "--batch-size", str(batch), "--interval", "0.3"),
            cwd=REPO,
            env=env,
            stdout=fh,
            stderr=subprocess.STDOUT,
        )


def owner_of(proc: subprocess.Popen[Any], owners: set[str]) -> str | None:
    return next((o for o in owners if f":{proc.pid}:" in o), None)


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_workers_share_the_chunks_and_a_killed_workers_chunks_are_taken_over(
    graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any], tmp_path: Path
) -> None:
    """Three `memora embeddings work` processes over 400 pending chunks, 4 s leases; once all three have claimed
    work, the one with the largest batches is SIGKILLed right after it claimed a batch (so it dies holding it).
    Every chunk ends embedded exactly once (stores == 1), the dead worker's chunks by the survivors after its lease
    expired, and no lease remains.
    No survivor embedded a chunk that another worker then stored: each reports `lost 0` when stopped."""
    project, chunks, lease_s = f"{prefix}p", 400, 4.0
    pending_project(ingest, embedder, project, chunks)
    prop = vector_property(embedder.slug)
    logs = [tmp_path / f"worker{i}.log" for i in range(3)]
    began = time.monotonic()
    procs = [start_worker(project, logs[0], lease_s, 32)] + [start_worker(project, lg, lease_s, 4) for lg in logs[1:]]
    victim, survivors = procs[0], procs[1:]
    seen: set[str] = set()
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:  # until every worker has held a lease, a tenth is embedded, and the victim has just claimed
            for p, lg in zip(procs, logs, strict=True):
                assert p.poll() is None, lg.read_text()[-2000:]
            now = fresh_claims(graph, project, int(lease_s * 1000))
            seen |= set(now)
            done = embedded(graph, project, prop)
            mine = owner_of(victim, set(now))
            if all(owner_of(p, seen) for p in procs) and done >= chunks // 10 and mine and now[mine] < 150:
                break
            assert done < chunks // 2, "most of the work ended before all three workers ran: add chunks"
            assert time.monotonic() < deadline, f"not every worker claimed work in time: {seen}"
            time.sleep(0.02)
        victim.send_signal(signal.SIGKILL)
        victim.wait(30)
        killed_at = time.monotonic()
        victim_owner = owner_of(victim, seen)
        assert victim_owner is not None
        stranded = leases(graph, project).get(victim_owner, set())
        done_at_kill = embedded(graph, project, prop)
        assert stranded, "the victim held nothing when it died (it had just stored): the test proved nothing"

        deadline = time.monotonic() + RUN_TIMEOUT
        while embedded(graph, project, prop) < chunks:
            for p, lg in zip(survivors, logs[1:], strict=True):
                assert p.poll() is None, lg.read_text()[-2000:]
            assert time.monotonic() < deadline, f"chunks stuck: {embedded(graph, project, prop)}/{chunks}"
            time.sleep(0.1)
        finished = time.monotonic()

        for p in survivors:
            p.send_signal(signal.SIGTERM)
        reports = []
        for p, lg in zip(survivors, logs[1:], strict=True):
            assert p.wait(60) == 0, lg.read_text()[-2000:]
            found = re.search(
                r"SIGTERM: embedding worker \S+ stopped: embedded (\d+), failed (\d+), lost (\d+)", lg.read_text()
            )
            assert found, lg.read_text()[-2000:]
            reports.append(tuple(int(x) for x in found.groups()))
    finally:
        stop(procs)

    state = final_state(graph, project, embedder)
    assert len(state) == chunks
    twice = [s["id"] for s in state if s["stores"] != 1]
    assert not twice, f"chunks stored more or less than once: {twice[:10]}"
    assert all(s["has_vector"] and s["status"] == "done" for s in state)
    assert all(s["owner"] is None and s["until"] is None and s["marker"] is None for s in state), "a lease remains"
    assert [r[1:] for r in reports] == [(0, 0), (0, 0)], f"work done twice concurrently: {reports}"
    assert all(r[0] for r in reports), f"a survivor embedded nothing: {reports}"
    # A migration under way on the shared graph has the workers embed its target too: that model counts once as well.
    assert graph.read(STORED_TWICE, {"p": project})[0]["n"] == 0
    SUMMARY.append(
        f"worker leases: {chunks} chunks, 3 `memora embeddings work` processes, one SIGKILLed holding "
        f"{len(stranded)} chunks ({done_at_kill} embedded by then); all embedded once in "
        f"{finished - began:.1f} s from start ({finished - killed_at:.1f} s after the kill, "
        f"lease {lease_s:g} s)"
    )


@pytest.mark.parametrize("again", [False, True], ids=["once", "then-ctrl-c"])
def test_sigterm_gives_back_the_batch_in_hand(
    graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any], tmp_path: Path, again: bool
) -> None:
    """With the default two-minute lease, a worker stopped by SIGTERM while embedding releases its batch: another
    worker embeds everything right away instead of waiting for the expiry. A Ctrl-C arriving while the batch in hand
    finishes (an impatient user pressing twice) must not cut the hand-back short nor print a traceback."""
    project = f"{prefix}p"
    pending_project(ingest, embedder, project, 150)
    log = tmp_path / "worker.log"
    proc = start_worker(project, log, 120, 150 if again else 64)  # one long batch: the Ctrl-C lands inside it
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not (mine := owner_of(proc, set(leases(graph, project)))):
            assert proc.poll() is None, log.read_text()[-2000:]
            assert time.monotonic() < deadline, "the worker claimed nothing in time"
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        if again:
            deadline = time.monotonic() + 10
            while "stopping after the batch in hand" not in log.read_text():
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
                time.sleep(0.01)
            proc.send_signal(signal.SIGINT)
        assert proc.wait(60) == 0, log.read_text()[-2000:]
    finally:
        stop([proc])
    assert mine not in leases(graph, project), "the stopped worker's leases remain"
    assert "leased chunks given back" in log.read_text()
    assert "Traceback" not in log.read_text(), log.read_text()[-2000:]
    jobs.backfill(graph, embedder, project_id=project, owner=f"{prefix}next")
    assert all(s["has_vector"] and s["stores"] == 1 for s in final_state(graph, project, embedder))


def test_the_worker_inside_serve_shares_the_chunks_with_worker_processes(
    graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any], tmp_path: Path
) -> None:
    """`memora serve` runs the same leased worker: beside a `memora embeddings work` process, both claim chunks of
    one project and every chunk is stored exactly once."""
    from bench.serving import served_by_memora

    project, chunks, lease_s = f"{prefix}s", 300, 4.0
    prop = vector_property(embedder.slug)
    env = {
        "MEMORA_EMBED_LEASE_SECONDS": str(lease_s),
        "MEMORA_ENTITY_VECTORS_SECONDS": "0",
        "MEMORA_SUMMARY_WORKER": "false",
    }
    with served_by_memora(tmp_path / "serve.log", env=env):
        pending_project(ingest, embedder, project, chunks)
        worker = start_worker(project, tmp_path / "worker.log", lease_s, 4)
        owners: set[str] = set()
        try:
            deadline = time.monotonic() + RUN_TIMEOUT
            while embedded(graph, project, prop) < chunks:
                assert worker.poll() is None, (tmp_path / "worker.log").read_text()[-2000:]
                assert time.monotonic() < deadline, f"chunks stuck: {embedded(graph, project, prop)}/{chunks}"
                owners |= set(leases(graph, project))
                time.sleep(0.02)
        finally:
            stop([worker])
    mine = owner_of(worker, owners)
    assert mine is not None, f"the worker process never claimed a chunk: {owners}"
    assert owners - {mine}, f"the worker inside serve never claimed a chunk: {owners}"
    state = final_state(graph, project, embedder)
    assert len(state) == chunks and all(s["has_vector"] and s["stores"] == 1 for s in state)
    assert all(s["owner"] is None for s in state), "a lease remains"


def test_sigterm_at_any_moment_of_an_idle_worker_ends_it(prefix: str, tmp_path: Path) -> None:
    """Idle workers polling every 50 ms are mostly inside driver calls and waits: a SIGTERM landing anywhere there
    still ends each one promptly, exit 0 with its report. (A handler that raised where it landed left about one
    worker in five hanging on its way out.)"""
    import random

    rng = random.Random(prefix)
    logs = [tmp_path / f"idle{i}.log" for i in range(8)]
    procs = []
    for lg in logs:
        with lg.open("wb") as fh:
            procs.append(
                subprocess.Popen(
                    memora("embeddings", "work", "--project", f"{prefix}none", "--interval", "0.05"),
                    cwd=REPO,
                    stdout=fh,
                    stderr=subprocess.STDOUT,
                )
            )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not all("running" in lg.read_text() for lg in logs):
            assert all(p.poll() is None for p in procs), [lg.read_text()[-500:] for lg in logs]
            assert time.monotonic() < deadline, "the workers did not start in time"
            time.sleep(0.05)
        for p in procs:
            time.sleep(rng.uniform(0.05, 0.4))
            p.send_signal(signal.SIGTERM)
        codes = []
        for p in procs:
            try:
                codes.append(p.wait(30))
            except subprocess.TimeoutExpired:
                codes.append(None)
    finally:
        stop(procs)
    assert codes == [0] * len(procs), codes
    assert all(
        re.search(r"SIGTERM: embedding worker \S+ stopped: embedded 0, failed 0, lost 0", lg.read_text()) for lg in logs
    ), [lg.read_text()[-500:] for lg in logs]
