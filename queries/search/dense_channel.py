"""The dense family of channels, all asked for as "dense": the active model's vector index (`dense`), its sparse
weights when it has them (`sparse`), and the target model's index while a model migration is under way
(`dense_next`); fused by RRF like any other channel."""

from __future__ import annotations

import logging
import time

from graph.embeddings import recent_state
from inference.embedder_specs import embedder_for_spec
from inference.embedders import CheckedEmbedder, EmbeddingError
from queries.search import channels as ch
from queries.search.channel import ChannelAsk, Found, Want
from queries.search.dense import dense
from queries.search.fusion import Cue, dense_weight, keyword_weight
from queries.search.query_vectors import embeddable, query_vector

log = logging.getLogger(__name__)
# Dense similarity below which a hit counts as nothing, per model (bench/calibrate_floor.py, docs/BENCHMARKS.md).
DENSE_FLOORS = {"e5small": 0.86}


def _dense_wanted(ask: ChannelAsk) -> Want:
    """A keyword-shaped question asked of several channels embeds only when the others find nothing."""
    if "dense" not in ask.asked or not ask.text.strip():
        return Want.NO
    return Want.IF_NOTHING if ask.parsed.layer == "keyword" and len(ask.asked) > 1 else Want.NOW


def _vector_hits(ask: ChannelAsk, embedder: CheckedEmbedder, channel: str) -> Found | None:
    """`embedder`'s index as `channel`: its hits above the model's floor, and the best chunk of each."""
    run, text = ask.run, ask.text
    t = time.perf_counter()
    try:
        early = ask.early if channel == "dense" else None
        if early is not None and early.text == embeddable(text):  # the guess was right (queries/search/early_vector.py)
            vector = early.vector.result()
        else:
            vector = query_vector(
                run.graph, embedder, embeddable(text), run.embed_cache_size, f"user:{run.viewer.user_id}"
            )
    except EmbeddingError as exc:
        run.warnings.append("dense channel unavailable: the query could not be embedded")
        log.warning("query embedding failed: %s", exc)
        return None
    run.took(f"embed_{channel}" if channel != "dense" else "embed", t)
    if channel == "dense":
        run.dense_vector = vector
    t = time.perf_counter()
    hits, chunks = dense(run.graph, embedder, run.settings, ask.scope, vector, ask.dense_depth)
    floor = run.settings.dense_floor if run.settings.dense_floor is not None else DENSE_FLOORS.get(embedder.slug, 0.0)
    if hits:
        log.info("top %s similarity %.4f (floor %.2f)", channel, hits[0].score, floor)
    kept = [h for h in hits if h.score >= floor]
    run.took(channel, t)
    return Found(kept, {h.id: chunks[h.id] for h in kept})


class _DenseFamily:
    """Asked as "dense", run by default, weighted as meaning is."""

    asked_as = "dense"
    seeds: tuple[str, ...] = ()
    by_default = True

    def wanted(self, ask: ChannelAsk) -> Want:
        return _dense_wanted(ask)

    def weight(self, cue: Cue) -> float:
        return dense_weight(cue)


class DenseChannel(_DenseFamily):
    name = "dense"

    def run(self, ask: ChannelAsk) -> Found | None:
        return _vector_hits(ask, ask.run.embedder, "dense")


class SparseChannel(_DenseFamily):
    """The model's sparse weights: lexical evidence, weighted as the keyword channel is."""

    name = "sparse"

    def wanted(self, ask: ChannelAsk) -> Want:
        return _dense_wanted(ask) if ask.run.embedder.supports_sparse else Want.NO

    def weight(self, cue: Cue) -> float:
        return keyword_weight(cue)

    def run(self, ask: ChannelAsk) -> Found | None:
        run, embedder = ask.run, ask.run.embedder
        t = time.perf_counter()
        try:
            weights = embedder.embed_sparse([ask.text], query=True)[0]
        except EmbeddingError as exc:
            run.warnings.append("sparse channel unavailable: the query could not be weighted")
            log.warning("sparse query weights failed: %s", exc)
            run.took("sparse", t)
            return None
        params = {**ask.scope.params(), "weights": weights, "model": embedder.model_id, "limit": ask.limit}
        hits, _ = ch.run_channel(run.graph, ch.SPARSE, params)
        run.took("sparse", t)
        return Found(hits)


class NextModelChannel(_DenseFamily):
    """The target model's index during a migration, so entries it already embedded are found by it too."""

    name = "dense_next"

    def run(self, ask: ChannelAsk) -> Found | None:
        run = ask.run
        state = recent_state(run.graph, run.settings.state_cache_seconds)
        if state is None or not state.target or state.target_slug == run.embedder.slug:
            return None
        try:
            target = embedder_for_spec(run.settings, state.target)
        except EmbeddingError as exc:
            log.warning("target model %s unavailable: %s", state.target, exc)
            return None
        return _vector_hits(ask, target, "dense_next")
