"""A served process runs numpy's BLAS on MEMORA_BLAS_THREADS threads while the app runs, and gives the library its
own size back when the app stops (api/blas.py).

The checks run in a fresh interpreter: OpenBLAS ignores a size set from one thread once another thread has set one,
and the other tests' apps (TestClient runs each lifespan on a thread of its own) have set it in this process. A
fresh process also runs the lifespan on its main thread, where uvicorn runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from graph.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import asyncio, json
from threadpoolctl import threadpool_info, threadpool_limits
from api.app import Services, create_app
from api.blas import blas_threads
from graph.settings import Settings

def blas():
    return sorted({lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"})

out = {}
with threadpool_limits(limits=2, user_api="blas"):
    out["before"] = blas()
    with blas_threads(1):
        out["block_1"] = blas()
    out["after_block"] = blas()
    with blas_threads(0):
        out["block_0"] = blas()
    for n in (1, 0):
        app = create_app(Services(Settings(blas_threads=n)))
        out[f"built_{n}"] = blas()

        async def inside():
            async with app.router.lifespan_context(app):
                return blas()

        out[f"served_{n}"] = asyncio.run(inside())
        out[f"after_served_{n}"] = blas()
print(json.dumps(out))
"""


def test_the_served_app_runs_blas_on_the_configured_threads_and_restores_them() -> None:
    run = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    if seen["before"] != [2]:
        pytest.skip(f"this machine's BLAS cannot run two threads: {seen['before']}")
    assert seen["block_1"] == [1] and seen["after_block"] == [2]
    assert seen["block_0"] == [2]  # 0 leaves the library's size alone
    assert seen["built_1"] == [2], "building the app changes nothing: only serving it does"
    assert seen["served_1"] == [1] and seen["after_served_1"] == [2]
    assert seen["built_0"] == [2] and seen["served_0"] == [2] and seen["after_served_0"] == [2]


def test_a_negative_thread_count_is_refused() -> None:
    with pytest.raises(ValidationError, match="blas_threads"):
        Settings(blas_threads=-1)
