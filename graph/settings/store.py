"""The settings the graph layer reads: where the managed Neo4j lives, the connection to a Neo4j, and what
graph/ keeps about one database (web sessions, the entity analytics cache)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from pydantic import AliasChoices, BaseModel, Field, model_validator


class StoreSettings(BaseModel):
    """The database: the managed Neo4j and its home, the connection, and what graph/ keeps of the store (web
    sessions, entity analytics)."""

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

    # Web sessions and one-time sign-in links, kept by their hash (graph/web_sessions.py).
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
    def _home_port(self) -> StoreSettings:
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
    def bolt_uri(self) -> str:
        return self.neo4j_uri or f"bolt://127.0.0.1:{self.neo4j_bolt_port}"
