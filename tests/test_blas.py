"""A served process runs numpy's BLAS on MEMORA_BLAS_THREADS threads while the app runs, and gives the library its
own size back when the app stops (api/blas.py)."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError
from threadpoolctl import threadpool_info, threadpool_limits

from api.app import Services, create_app
from api.blas import blas_threads
from graph.db import Graph
from graph.settings import Settings
from ingest.embedders import CheckedEmbedder


def _blas() -> set[int]:
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_the_block_sizes_blas_and_restores_it() -> None:
    assert _blas(), "numpy's BLAS is not visible to threadpoolctl"
    with threadpool_limits(limits=2, user_api="blas"):
        if _blas() != {2}:
            pytest.skip("this machine's BLAS cannot run two threads (one core)")
        with blas_threads(1):
            assert _blas() == {1}, threadpool_info()
        assert _blas() == {2}
        with blas_threads(0):  # 0 leaves the library's size alone
            assert _blas() == {2}


def test_the_served_app_runs_on_the_configured_threads(graph: Graph, embedder: CheckedEmbedder,
                                                       settings: Settings) -> None:
    """The app's lifespan, run on the calling thread as uvicorn runs it on its main thread (OpenBLAS ignores a size
    set from another thread once the main thread has set one, so TestClient's portal thread would not show it)."""

    def served(threads: int) -> set[int]:
        app = create_app(Services(settings.model_copy(update={"blas_threads": threads}), graph=graph,
                                  embedder=embedder))
        assert _blas() == {2}  # building the app changes nothing: only serving it does

        async def inside() -> set[int]:
            async with app.router.lifespan_context(app):
                return _blas()

        return asyncio.run(inside())

    with threadpool_limits(limits=2, user_api="blas"):
        assert served(1) == {1}
        assert _blas() == {2}
        assert served(0) == {2}


def test_a_negative_thread_count_is_refused() -> None:
    with pytest.raises(ValidationError, match="blas_threads"):
        Settings(blas_threads=-1)
