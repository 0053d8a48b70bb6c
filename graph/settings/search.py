"""The settings the queries layer reads: the search's channels, fusion, rerank tiers, caches and retrieval log."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SearchSettings(BaseModel):
    """How a search ranks and what it keeps: the dense channel's exact scan and kept views, fusion and
    diversification, the rerank tiers, the search's caches and the retrieval log."""

    exact_scan_max_chunks: int = Field(
        default=40000,
        description="Up to this many visible chunks in scope, dense similarity is computed exactly; above, the "
        "vector index. 40,000: up to the largest scope measured, the index path never reached exact's top-10 at "
        'a lower cost (bench/crossover.py, docs/BENCHMARKS.md "Exact-scan threshold and the index path").',
    )
    dense_matrix_viewers: int = Field(
        default=16,
        ge=0,
        description="(viewer, project) pairs whose kept view the service holds (queries/search/visible_view.py): the "
        "viewer's visible entries with their chunk vectors as numpy arrays, so a member's one-project search ranks the "
        "dense and structured channels in milliseconds rather than in Cypher; each holds about 1.5 KB per visible "
        "chunk with a 384-dimension model. 0 turns it off.",
    )
    dense_matrix_seconds: float = Field(
        default=600.0,
        gt=0,
        description="A viewer's kept view is listed again in full after this long even if no write moved their "
        "generations (writes invalidate it at once): a backstop for a hand-written statement.",
    )
    dense_matrix_background_entries: int = Field(
        default=20_000,
        ge=0,
        description="A kept view of more visible entries than this, when it must be listed in full (a viewer's "
        "first search of the scope, a new member's included, a role change, a write that does not name its "
        "entries, or the backstop), is listed in the background, and that viewer's searches take the Cypher "
        "path until it is done, instead of all waiting for the listing (about 3.6 s at 100,000 entries, and "
        "the vectors fetched the first time). A stale view is never served; the warm start waits for its "
        "views whatever their size.",
    )
    dense_floor: float | None = Field(
        default=None,
        description="Dense hits below this similarity count as nothing (fallback chain); default per model, see "
        "docs/BENCHMARKS.md; 0 disables.",
    )
    rrf_k: int = 60

    # Fusion and diversification (queries/search/ranker.py, queries/search/mmr.py).
    fusion: str = Field(
        default="learned",
        pattern="^(learned|rrf)$",
        description="learned: the pairwise ranker over channel evidence; rrf: fixed-weight RRF.",
    )
    ranker_weights: str | None = Field(
        default=None, description="A ranker weights file instead of queries/search/ranker_weights.json."
    )
    relevance_weights: str | None = Field(
        default=None,
        description="A relevance calibration file instead of queries/search/relevance_weights.json "
        "(bench/calibrate_relevance.py fits one for another embedder).",
    )
    diversify: str = Field(
        default="band",
        pattern="^(band|mmr)$",
        description="band: defer near-duplicates by word overlap; mmr: MMR over stored vectors.",
    )
    mmr_lambda: float = Field(default=0.7, ge=0.0, le=1.0, description="MMR's weight of relevance against novelty.")

    # The rerank tiers (queries/search/rerank.py).
    reranker: str | None = Field(
        default=None,
        description="The `fast` rerank tier's cross-encoder: `flag` (FlagEmbedding's FlagReranker) or "
        "`cross-encoder` (sentence-transformers); unset, `fast` keeps the fused order.",
    )
    reranker_model: str = Field(default="BAAI/bge-reranker-v2-m3", description="A model name or a local path.")
    reranker_max_length: int = Field(default=512, ge=16, description="Query + passage tokens per pair (truncated).")
    reranker_batch_size: int = Field(default=16, ge=1, description="Pairs per forward pass.")
    rerank_candidates: int = Field(default=50, ge=1, le=200, description="Fused candidates the `fast` tier scores.")
    rerank_premium_candidates: int = Field(
        default=20, ge=1, le=50, description="Fused candidates the `premium` tier sends to the language model."
    )
    rerank_premium_timeout_seconds: float = Field(
        default=3.0, gt=0, description="After this the `premium` tier gives up and the previous order stands."
    )

    # Caches and the retrieval log (docs/search.md "Caches", docs/operations.md "Telemetry").
    search_cache_seconds: float = Field(
        default=30.0,
        ge=0,
        description="How long a search's results are reused for the same viewer, scope, query "
        "and options (a write they may see invalidates them at once); 0 disables.",
    )
    search_cache_size: int = Field(
        default=100,
        ge=0,
        description="Search results kept per viewer (per process; at most 128 viewers, least recent dropped first).",
    )
    query_embed_cache_size: int = Field(
        default=2048, ge=0, description="Query embeddings kept in process (LRU by model id and text); 0 disables."
    )
    state_cache_seconds: float = Field(
        default=2.0,
        ge=0,
        description="How long the embedding state and active model read by each search are "
        "reused; another process's model switch is seen after this.",
    )
    search_log_sample: float = Field(
        default=0.1, ge=0, le=1, description="Share of API searches written to the retrieval log (0 turns it off)."
    )
    search_log_days: int = Field(default=30, ge=1, description="Retrieval log records older than this are deleted.")
