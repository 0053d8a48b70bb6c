"""Serving the API on loopback for tests and benchmarks: in a uvicorn thread of this process, or as `memora serve` from
this checkout in a subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop_process(proc: subprocess.Popen[Any], grace: float) -> None:
    """SIGTERM, then SIGKILL after `grace` seconds; reaped either way."""
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_ready(proc: subprocess.Popen[Any], url: str, log: Path, startup: float, what: str) -> None:
    """Until `url`/ready answers 200; raises with the log's tail if the process exits, or after `startup` seconds."""
    deadline = time.monotonic() + startup
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited: {log.read_text(encoding='utf-8')[-2000:]}")
        try:
            if httpx.get(f"{url}/ready", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not become ready")
        time.sleep(0.3)


@contextmanager
def served_in_thread(app: Any) -> Iterator[str]:
    """An ASGI app on a free loopback port, in a uvicorn thread of this process (what tests use)."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        if not server.started:
            raise RuntimeError("the server did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()


@contextmanager
def served_by_memora(log: Path, env: dict[str, str] | None = None, startup: float = 180) -> Iterator[str]:
    """`memora serve` from this checkout in a subprocess (its own interpreter, embedding worker on), rate limits off;
    its log (tracebacks of any 500 included) goes to `log`."""
    with several_served_by_memora([log], env, startup) as served:
        yield served[0][1]


@contextmanager
def several_served_by_memora(
    logs: list[Path], env: dict[str, str] | None = None, startup: float = 180
) -> Iterator[list[tuple[subprocess.Popen[str], str]]]:
    """One `memora serve` per log, started together (their imports overlap) on their own ports with the same `env`:
    replicas of the service on one graph. Yields each process with its URL."""
    env = {
        **os.environ,
        **(env or {}),
        "MEMORA_RATE_SEARCH_PER_SECOND": "0",
        "MEMORA_RATE_WRITE_PER_SECOND": "0",
        "MEMORA_RATE_AUTH_FAILURES_PER_MINUTE": "0",
    }
    served: list[tuple[subprocess.Popen[str], str]] = []
    sinks = []
    try:
        for log in logs:
            port = free_port()
            sinks.append(sink := log.open("w", encoding="utf-8"))
            proc = subprocess.Popen(
                [sys.executable, "-m", "api.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                cwd=ROOT,
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
                text=True,
            )
            served.append((proc, f"http://127.0.0.1:{port}"))
        for (proc, url), log in zip(served, logs, strict=True):
            wait_ready(proc, url, log, startup, "memora serve")
        yield served
    finally:
        for proc, _ in served:  # all told at once, so they shut down side by side
            proc.terminate()
        for proc, _ in served:
            stop_process(proc, grace=30)
        for sink in sinks:
            sink.close()
