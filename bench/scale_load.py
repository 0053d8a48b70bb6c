"""What `bench/scale.py` measures against a served API and the graph: search latency with one client and with
several concurrent ones (async httpx, bounded in time, loopback), entity questions, dense top-10 recall of the served
path against an exact numpy scan over the same stored vectors, and resident memory of processes."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from graph.db import Graph
from graph.visibility import CAN_SEE, Viewer, visibility_params
from inference.embedders import CheckedEmbedder

# Every stored vector of the chunks of one project's entries the viewer may see (the scope of a dense search without
# constraints), for the exact scan. The property name is a parameter (`c[$prop]`).
VISIBLE_VECTORS = f"""
MATCH (e:Entry) WHERE e.project_id = $project_id AND {CAN_SEE}
MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
RETURN e.id AS id, c[$prop] AS vector
ORDER BY id
"""


def percentile(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 2) if values else None


@dataclass
class Latencies:
    """Milliseconds of the answered calls, and the calls that failed (a non-200 status or a transport error)."""

    ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)  # the answer's own `latency_ms.total`
    stages: dict[str, list[float]] = field(default_factory=dict)  # every other `latency_ms` key (parse, dense, …)
    errors: int = 0
    unfinished: int = 0  # still unanswered when the phase's grace ran out (cancelled, counted apart)
    seconds: float = 0.0
    statuses: dict[str, int] = field(default_factory=dict)
    client_cpu_s: float = 0.0  # CPU the load generator's process spent during the phase

    def summary(self) -> dict[str, Any]:
        return {
            "n": len(self.ms),
            "p50_ms": percentile(self.ms, 50),
            "p95_ms": percentile(self.ms, 95),
            "p99_ms": percentile(self.ms, 99),
            "errors": self.errors,
            "unfinished": self.unfinished,
            "server_p50_ms": percentile(self.server_ms, 50),
            "server_stages_p50_ms": {k: percentile(v, 50) for k, v in sorted(self.stages.items())},
            "qps": round(len(self.ms) / self.seconds, 2) if self.seconds else None,
            "client_cpu_ms_per_call": round(1000 * self.client_cpu_s / len(self.ms), 2) if self.ms else None,
        }


async def _client(
    http: httpx.AsyncClient,
    bodies: list[dict[str, Any]],
    start: int,
    deadline: float,
    max_calls: int | None,
    out: Latencies,
    answers: list[dict[str, Any]] | None,
) -> None:
    i = start
    # every client makes at least one call, however late it starts: a phase always measures something
    while (i == start or time.monotonic() < deadline) and (max_calls is None or i - start < max_calls):
        body = bodies[i % len(bodies)]
        i += 1
        t = time.perf_counter()
        try:
            resp = await http.post("/v1/search", json=body)
        except httpx.HTTPError as exc:
            out.errors += 1
            out.statuses[type(exc).__name__] = out.statuses.get(type(exc).__name__, 0) + 1
            continue
        ms = (time.perf_counter() - t) * 1000
        out.statuses[str(resp.status_code)] = out.statuses.get(str(resp.status_code), 0) + 1
        if resp.status_code != 200:
            out.errors += 1
            continue
        out.ms.append(ms)
        answer = resp.json()
        for key, value in (answer.get("latency_ms") or {}).items():
            if key == "total":
                out.server_ms.append(float(value))
            else:
                out.stages.setdefault(key, []).append(float(value))
        if answers is not None:
            answers.append(answer)


def load(
    url: str,
    token: str,
    bodies: list[dict[str, Any]],
    clients: int,
    seconds: float,
    max_calls: int | None = None,
    answers: list[dict[str, Any]] | None = None,
    grace: float | None = None,
) -> Latencies:
    """`clients` concurrent clients posting `bodies` in turn until `seconds` pass (or each made `max_calls`); calls
    still in flight `grace` seconds after that (default: as long again, at least 10 s) are cancelled and counted as
    unfinished, so a phase is bounded in time even when the service stalls. The CPU this process spent (the load
    generator's share of a machine it may share with the service) is kept in `client_cpu_s`."""
    grace = max(10.0, seconds) if grace is None else grace

    async def run() -> Latencies:
        out = Latencies()
        limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
        async with httpx.AsyncClient(
            base_url=url, headers={"Authorization": f"Bearer {token}"}, limits=limits, timeout=httpx.Timeout(60.0)
        ) as http:
            cpu, t0 = time.process_time(), time.monotonic()
            deadline = t0 + seconds
            step = max(1, len(bodies) // clients)
            tasks = [
                asyncio.create_task(_client(http, bodies, c * step, deadline, max_calls, out, answers))
                for c in range(clients)
            ]
            _, pending = await asyncio.wait(tasks, timeout=seconds + grace)
            for task in pending:
                task.cancel()
            out.unfinished = len(pending)
            await asyncio.gather(*pending, return_exceptions=True)
            out.seconds = time.monotonic() - t0
            out.client_cpu_s = time.process_time() - cpu
        return out

    return asyncio.run(run())


class ExactScan:
    """The viewer's visible vectors of one project as one float32 matrix; top-k entries by their best chunk, like
    the Cypher exact scan (score descending, then id)."""

    def __init__(self, graph: Graph, project_id: str, viewer: str, prop: str) -> None:
        rows = graph.read(
            VISIBLE_VECTORS, {"project_id": project_id, "prop": prop, **visibility_params(Viewer(user_id=viewer))}
        )
        ids = [r["id"] for r in rows]
        self.matrix = np.asarray([r["vector"] for r in rows], dtype=np.float32)
        self.entries = sorted(set(ids))
        position = {e: i for i, e in enumerate(self.entries)}
        owner = np.asarray([position[i] for i in ids], dtype=np.int64)  # rows are ordered by id: groups contiguous
        self.starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]]) if len(owner) else owner
        self.chunks = len(ids)

    def top(self, query: np.ndarray, k: int, floor: float = 0.0) -> list[str]:
        if not self.chunks:
            return []
        sims = self.matrix @ np.asarray(query, dtype=np.float32)
        best = np.maximum.reduceat(sims, self.starts)
        n = min(len(best), k * 3)
        candidates = np.argpartition(-best, n - 1)[:n]
        ranked = sorted(candidates, key=lambda i: (-round(float(best[i]), 6), self.entries[i]))
        return [self.entries[i] for i in ranked[:k] if best[i] >= floor]


def served_dense_top(answer: dict[str, Any], k: int) -> list[str]:
    """The entries the served dense channel ranked first (by its own score, before fusion and diversification)."""
    dense = [
        (r["score_breakdown"]["dense"]["score"], r["entry_id"])
        for r in answer["results"]
        if "dense" in r["score_breakdown"]
    ]
    return [entry for _, entry in sorted(dense, key=lambda s: (-round(s[0], 6), s[1]))[:k]]


def dense_recall(
    url: str,
    token: str,
    project_id: str,
    questions: list[str],
    embedder: CheckedEmbedder,
    scan: ExactScan,
    floor: float,
    k: int = 10,
) -> tuple[float | None, list[float], int]:
    """Mean top-k recall of the served dense channel against the exact scan, over the questions whose
    understanding found no constraint (so both see the same scope); and the numpy scan's times in ms."""
    bodies = [
        {"q": q, "project_id": project_id, "k": 100, "channels": ["dense"], "diversify": False, "explain": True}
        for q in questions
    ]
    answers: list[dict[str, Any]] = []
    load(url, token, bodies, clients=1, seconds=600, max_calls=len(bodies), answers=answers)
    recalls, times, skipped = [], [], 0
    for answer in answers:
        u = answer.get("query_understanding") or {}
        if u.get("temporal") or u.get("persons") or u.get("places") or u.get("author"):
            skipped += 1
            continue
        vector = embedder.embed_query(u.get("cleaned_text") or u.get("text") or "")
        t = time.perf_counter()
        exact = scan.top(vector, k, floor)
        times.append((time.perf_counter() - t) * 1000)
        if exact:
            recalls.append(len(set(exact) & set(served_dense_top(answer, k))) / len(exact))
    return (round(float(np.mean(recalls)), 4) if recalls else None), times, skipped


def rss_mb(pid: int | None) -> tuple[float | None, float | None]:
    """(resident, peak resident) memory of a process in MB, from /proc."""
    if pid is None:
        return None, None
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None, None
    fields = {line.split(":")[0]: line.split(":")[1] for line in status.splitlines() if ":" in line}

    def mb(key: str) -> float | None:
        return round(int(fields[key].split()[0]) / 1024, 1) if key in fields else None

    return mb("VmRSS"), mb("VmHWM")


def cpu_seconds(pid: int | None) -> float | None:
    """User plus system CPU time a process has used so far, in seconds, from /proc (None when unknown)."""
    if pid is None:
        return None
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
