"""The settings the api layer reads to run the service: where it listens, what it runs beside the requests, the
live-context indexes and the metrics endpoint."""

from __future__ import annotations

from pydantic import BaseModel, Field, SecretStr


class ApiSettings(BaseModel):
    """The served process (`serve`, `mcp`): its address and limits, the warm start, the background work it starts,
    the live-context indexes it keeps and `GET /metrics`."""

    api_host: str = "127.0.0.1"
    api_port: int = 8077
    max_body_bytes: int = 1_000_000
    blas_threads: int = Field(
        default=1,
        ge=0,
        description="Threads numpy's BLAS may use inside a served process (`serve`, `mcp`); 0 leaves the library's "
        "own default (one per core). Searches already run side by side, so a second BLAS thread only "
        "spins between matrix products: one thread served 30.7 searches/s with 8 clients at 100,000 "
        'entries where the default served 25.0 (docs/BENCHMARKS.md, "One BLAS thread").',
    )
    warm_start: bool = Field(
        default=True,
        description="`serve` plans the read statements and loads the embedding model before `/ready` answers 200 "
        "(503 `warming` until then), so the first search does not pay for them; `mcp` does the same beside its "
        "first requests.",
    )
    warm_views: int = Field(
        default=2,
        ge=0,
        le=16,
        description="The warm start also lists, for this many of the latest (member, project) pairs of the retrieval "
        "log, the member's view of the project, so the first search of whoever searched last does not list it; 0: "
        "none.",
    )

    # What `serve` (and `mcp`) runs beside the requests.
    embed_worker: bool = Field(default=True, description="Run the background embedding worker inside `serve`.")
    summary_worker: bool = Field(default=True, description="Rebuild stale summaries in the background in `serve`.")
    relink_resume: bool = Field(
        default=True,
        description="`serve` with its workers re-links, 30 s after it starts, every project whose latest edit of names "
        "no completed re-linking covered (a job lost to a crash or a restart).",
    )
    entity_vectors_seconds: float = Field(
        default=30.0,
        ge=0,
        description="How often `serve` rebuilds the entity vectors whose entries changed "
        "(graph/entity_vectors.py); 0 turns the background refresh off.",
    )

    # Live interview context (queries/context/live.py), kept warm by the routes and commands that serve it.
    live_cache_size: int = Field(default=8, ge=1, description="Per-(project, viewer) live-context indexes kept warm.")
    live_cache_ttl_seconds: float = Field(
        default=300.0, gt=0, description="A live-context index is rebuilt after this even when no write was seen."
    )
    live_cache_check_seconds: float = Field(
        default=0.0,
        ge=0,
        description="A warm live-context index is re-checked for writes (in the background) when "
        "its last check is older than this; 0 checks before every answer.",
    )

    # GET /metrics (api/routes/metrics.py, docs/operations.md "Telemetry", docs/SECURITY.md).
    metrics_token: SecretStr | None = Field(
        default=None,
        description="Bearer token a scraper must send to GET /metrics; unset, /metrics answers 404 "
        "unless MEMORA_METRICS_OPEN is true.",
    )
    metrics_open: bool = Field(default=False, description="Serve GET /metrics without a token (a private network).")
