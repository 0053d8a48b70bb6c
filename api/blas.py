"""The served process's BLAS thread pool, sized from `MEMORA_BLAS_THREADS` while the app runs.

numpy's OpenBLAS starts one thread per core and keeps them spinning after each product. A service answers several
searches at once on its own threads, so those extra BLAS threads add no parallelism, only spinning: at 100,000
entries they burned about 20 ms of CPU per search (docs/BENCHMARKS.md, "One BLAS thread").

The size is set where the event loop runs (uvicorn's main thread): OpenBLAS ignores a size set from another thread
once the main thread has set one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from threadpoolctl import threadpool_limits


@contextmanager
def blas_threads(threads: int) -> Iterator[None]:
    """At most `threads` BLAS threads inside the block (0: the library's default), restored after it."""
    if threads <= 0:
        yield
        return
    limiter = threadpool_limits(limits=threads, user_api="blas")
    try:
        yield
    finally:
        limiter.restore_original_limits()
