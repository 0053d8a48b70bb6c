"""The channels of one search, run side by side: keyword and structured in the pool while the query is embedded and
the dense channel runs, then the graph channel seeded by their best hits. Each returns hits of entries the viewer
may see; fusion happens in the door."""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future
from contextvars import copy_context
from dataclasses import dataclass, field
from typing import Any

from graph.embeddings import recent_state, stores_key
from graph.schema import vector_property
from inference.embedder_specs import embedder_for_spec
from inference.embedders import CheckedEmbedder, EmbeddingError
from queries.search import channels as ch
from queries.search.dense import dense
from queries.search.early_vector import EarlyVector
from queries.search.fusion import Hit
from queries.search.graph_channel import run_graph
from queries.search.keyword import run_keyword, run_keyword_among
from queries.search.keyword_view import meeting as keyword_meeting
from queries.search.lucene import to_lucene
from queries.search.query_constraints import Parsed, SoftConstraints
from queries.search.query_vectors import embeddable, query_vector
from queries.search.run import POOL, SearchRun
from queries.search.structured import structured as run_structured

log = logging.getLogger(__name__)
# Dense similarity below which a hit counts as nothing, per model (bench/calibrate_floor.py, docs/BENCHMARKS.md).
DENSE_FLOORS = {"e5small": 0.86}


@dataclass(frozen=True)
class ChannelAsk:
    """What each channel of the search is asked: the scope and constraints (`params`), the text, how many hits."""

    params: dict[str, Any]
    text: str
    limit: int


@dataclass
class _Found:
    """Each channel's hits as they come in, and the best chunk of each dense hit (its snippet)."""

    hits: dict[str, list[Hit]] = field(default_factory=dict)
    best_chunk: dict[str, str] = field(default_factory=dict)


def run_channels(
    run: SearchRun, base: dict[str, Any], parsed: Parsed, soft: SoftConstraints, early: EarlyVector | None
) -> tuple[dict[str, list[Hit]], dict[str, str]]:
    """Each wanted channel's hits, and the best chunk of each dense hit."""
    wanted, options = run.options.channels, run.options
    limit = max(options.candidates_per_channel, options.k)
    params = {**base, **soft.params()}
    ask = ChannelAsk(params, parsed.text_for_search, limit)
    lucene = to_lucene(parsed.text_for_search)
    futures: dict[str, Future[list[Hit]]] = {}
    started: dict[str, float] = {}
    if "fulltext" in wanted and lucene:
        started["fulltext"] = time.perf_counter()
        futures["fulltext"] = POOL.submit(copy_context().run, keyword_channel, run, ask)  # the request's reads
    structured: Future[tuple[list[Hit], int]] | None = None
    ranked_entities = parsed.rank_entity_ids if soft.entity_ids or soft.dated else []
    if "structured" in wanted and (ranked_entities or soft.dated or soft.author_keys):
        started["structured"] = time.perf_counter()
        structured = POOL.submit(
            copy_context().run,
            run_structured,
            run.graph,
            run.settings,
            run.viewer,
            {**params, "rank_entity_ids": ranked_entities, "limit": limit, "prop": vector_property(run.embedder.slug)},
            stores_key(run.embedder.slug),
        )
    found = _Found()
    results = found.hits
    skip_dense = parsed.layer == "keyword" and len(wanted) > 1
    if "dense" in wanted and parsed.text_for_search.strip() and not skip_dense:
        _all_dense(run, ask, found, early)
    for name, fut in futures.items():
        results[name] = fut.result()
        run.took(name, started[name])
    if structured is not None:
        hits, total = structured.result()
        run.took("structured", started["structured"])
        if total <= limit:
            results["structured"] = hits
    if skip_dense and not any(results.values()) and "dense" in wanted:
        _all_dense(run, ask, found, early)
    if "graph" in wanted:  # seeded by the named entities and the best hits (queries/search/graph_channel.py)
        t = time.perf_counter()
        results["graph"] = run_graph(
            run.graph, params, parsed.rank_entity_ids, results.get("dense") or results.get("fulltext") or [], limit
        )
        run.took("graph", t)
    return results, found.best_chunk


def keyword_channel(run: SearchRun, ask: ChannelAsk) -> list[Hit]:
    """One project: the viewer is resolved once in the statement, not once per candidate (channels.py); a
    constrained question starts from the entries of the kept view that meet it (queries/search/keyword_view.py)."""
    graph, slug = run.graph, run.embedder.slug
    params, text, limit = ask.params, ask.text, ask.limit
    if len(params["project_ids"]) == 1:
        one = {**params, "project_id": params["project_ids"][0]}
        met = keyword_meeting(graph, run.settings, run.viewer, {**one, "prop": vector_property(slug)}, stores_key(slug))
        if met is not None and met.ids is not None:
            return run_keyword_among(
                graph, ch.FULLTEXT_AMONG, ch.fulltext_visible(one), one, text, limit, met.ids, met.count
            )
        return run_keyword(
            graph,
            ch.FULLTEXT_IN_PROJECT,
            ch.fulltext_visible(one),
            one,
            text,
            limit,
            met.count if met is not None else None,
        )
    return run_keyword(graph, ch.FULLTEXT, ch.fulltext_visible(params), params, text, limit)


def _all_dense(run: SearchRun, ask: ChannelAsk, found: _Found, early: EarlyVector | None) -> None:
    """The active model's index, plus the target's while a model migration is under way (fused by RRF)."""
    embedder = run.embedder
    _dense_into(run, embedder, ask, found, "dense", early)
    if embedder.supports_sparse:
        t = time.perf_counter()
        try:
            weights = embedder.embed_sparse([ask.text], query=True)[0]
            found.hits["sparse"], _ = ch.run_channel(
                run.graph,
                ch.SPARSE,
                {**ask.params, "weights": weights, "model": embedder.model_id, "limit": ask.limit},
            )
        except EmbeddingError as exc:
            run.warnings.append("sparse channel unavailable: the query could not be weighted")
            log.warning("sparse query weights failed: %s", exc)
        run.took("sparse", t)
    state = recent_state(run.graph, run.settings.state_cache_seconds)
    if state is not None and state.target and state.target_slug != embedder.slug:
        try:
            target = embedder_for_spec(run.settings, state.target)
        except EmbeddingError as exc:
            log.warning("target model %s unavailable: %s", state.target, exc)
            return
        _dense_into(run, target, ask, found, "dense_next")


def _dense_into(
    run: SearchRun,
    embedder: CheckedEmbedder,
    ask: ChannelAsk,
    found: _Found,
    channel: str,
    early: EarlyVector | None = None,
) -> None:
    """`embedder`'s index as `channel`: its hits above the model's floor, and the best chunk of each."""
    text = ask.text
    t = time.perf_counter()
    try:
        if early is not None and early.text == embeddable(text):  # the guess was right (queries/search/early_vector.py)
            vector = early.vector.result()
        else:
            vector = query_vector(
                run.graph, embedder, embeddable(text), run.embed_cache_size, f"user:{run.viewer.user_id}"
            )
    except EmbeddingError as exc:
        run.warnings.append("dense channel unavailable: the query could not be embedded")
        log.warning("query embedding failed: %s", exc)
        return
    run.took(f"embed_{channel}" if channel != "dense" else "embed", t)
    t = time.perf_counter()
    hits, chunks = dense(run.graph, embedder, run.settings, run.viewer, ask.params, vector, ask.limit)
    floor = run.settings.dense_floor if run.settings.dense_floor is not None else DENSE_FLOORS.get(embedder.slug, 0.0)
    if hits:
        log.info("top %s similarity %.4f (floor %.2f)", channel, hits[0].score, floor)
    found.hits[channel] = [h for h in hits if h.score >= floor]
    for h in found.hits[channel]:
        found.best_chunk.setdefault(h.id, chunks[h.id])
    run.took(channel, t)
