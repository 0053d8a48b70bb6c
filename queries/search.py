"""`hybrid_search`: the one retrieval door. Channels run in parallel, are fused by RRF and returned as entries.

Every channel statement carries the scope, the caller's filters and the visibility predicate, so candidates,
`total_candidates`, snippets and details only ever come from entries the viewer may see.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from graph import generations
from graph.db import Graph
from graph.embeddings import stores_key
from graph.members import projects_of
from graph.schema import vector_property
from graph.settings import Settings
from graph.state_cache import recent_state
from graph.textnorm import fold
from graph.visibility import Viewer, levels_up_to, visibility_params
from ingest.embedder_specs import embedder_for_spec
from ingest.embedders import CheckedEmbedder, EmbeddingError
from ingest.linking import ProjectLexicon
from queries import channels as ch
from queries import lexicons, ranker, result_cache
from queries.dense import dense as _dense
from queries.diversify import diversify, word_set
from queries.early_vector import EarlyVector
from queries.early_vector import start as start_early_vector
from queries.entity_questions import answer_question
from queries.fusion import Fused, Hit, channel_weights, rrf
from queries.graph_channel import GRAPH_WEIGHT, run_graph
from queries.keyword import run_keyword, run_keyword_among
from queries.keyword_view import meeting as keyword_meeting
from queries.lucene import to_lucene
from queries.mmr import entry_vectors, mmr
from queries.query_constraints import Parsed, SoftConstraints, parse_query, relaxed_warnings, unknown_names
from queries.query_vectors import embeddable, query_vector
from queries.rerank import TIERS, rerank
from queries.snippets import query_terms, snippet
from queries.structured import structured as run_structured
from queries.thread_channel import run_thread, thread_ask, with_thread

log = logging.getLogger(__name__)
CHANNELS = ("dense", "fulltext", "structured", "graph")
# The channels of a search that names none ("graph" is opt-in: docs/BENCHMARKS.md, "Graph channel").
DEFAULT_CHANNELS = ("dense", "fulltext", "structured")
# Dense similarity below which a hit counts as nothing, per model (bench/calibrate_floor.py, docs/BENCHMARKS.md).
DENSE_FLOORS = {"e5small": 0.86}
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="memora-search")


class AccessDenied(PermissionError):
    """The viewer is not a member of the requested project (same answer whether or not it exists)."""


@dataclass
class Filters:
    """Hard filters from the caller: never relaxed, and they can only narrow what the viewer may see."""

    date_from: date | None = None
    date_to: date | None = None
    intimacy_max: str | None = None
    person_ids: list[str] | None = None
    persons: list[str] | None = None
    place_ids: list[str] | None = None
    places: list[str] | None = None
    author_ids: list[str] | None = None
    kinds: list[str] | None = None
    tags: list[str] | None = None
    period_id: str | None = None


@dataclass
class Scope:
    project_id: str | None = None
    multi_project: bool = False


@dataclass
class SearchOptions:
    k: int = 10
    channels: tuple[str, ...] = DEFAULT_CHANNELS
    include_chunks: bool = False
    explain: bool = False
    candidates_per_channel: int = 50
    understand: bool = True
    diversify: bool = True
    now: date | None = None
    locale: str | None = None
    filters: Filters = field(default_factory=Filters)
    rerank: str = "none"  # queries/rerank.py: none | fast | premium
    fusion: str | None = None  # None: settings.fusion ("learned" or "rrf")
    capture: list[dict[str, Any]] | None = None  # receives the ranker's raw record (bench/capture_fusion.py)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.channels) - set(CHANNELS))
        if unknown:  # a misspelt channel silently dropped would search with fewer channels than asked
            raise ValueError(f"unknown channels {unknown}; choose from {list(CHANNELS)}")
        if self.rerank not in TIERS:
            raise ValueError(f"unknown rerank tier {self.rerank!r}; choose from {list(TIERS)}")


@dataclass
class SearchResult:
    entry_id: str
    project_id: str
    score: float
    score_breakdown: dict[str, dict[str, float]]
    snippet_md: str
    highlights: list[str]
    title: str | None
    occurred_on: str | None
    occurred_end: str | None
    occurred_precision: str | None
    author_id: str | None
    intimacy_level: str
    kind: str
    persons: list[str]
    places: list[str]
    things: list[str]
    tags: list[str]
    periods: list[dict[str, str]]
    chunk: dict[str, Any] | None = None


@dataclass
class SearchResponse:
    results: list[SearchResult]
    total_candidates: int
    source: str
    latency_ms: dict[str, float]
    query_understanding: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    answer: dict[str, Any] | None = None  # an entity question's answer (queries/entity_questions.py)
    channel_candidates: dict[str, int] = field(default_factory=dict)  # for the retrieval log, not the API
    cached: bool = False


def resolve_projects(graph: Graph, viewer: Viewer, scope: Scope) -> list[str]:
    """The projects a search covers; a user must be a member of the one named."""
    if viewer.user_id is None:
        raise AccessDenied("witness searches go through their chapter")
    if scope.multi_project or scope.project_id is None:
        projects = [p["project_id"] for p in projects_of(graph, viewer.user_id)]
        if scope.project_id is not None and scope.project_id not in projects:
            raise AccessDenied("not a member of this project")
        return projects
    if generations.read(graph, [scope.project_id], viewer.user_id)[0]["role"] is None:  # the cache key's read
        raise AccessDenied("not a member of this project")
    return [scope.project_id]


@generations.reading_once
def hybrid_search(graph: Graph, embedder: CheckedEmbedder, settings: Settings, viewer: Viewer, query: str,
                  scope: Scope, options: SearchOptions, project_ids: list[str] | None = None) -> SearchResponse:
    """Search what `viewer` may see. `project_ids` is given only by callers that already resolved the scope."""
    t0 = time.perf_counter()
    latency: dict[str, float] = {}
    warnings: list[str] = []
    guessed = project_ids or ([scope.project_id] if scope.project_id and not scope.multi_project else [])
    early = start_early_vector(graph, embedder, viewer, guessed, query, options, _embed_cache_size(settings, viewer))
    projects = project_ids if project_ids is not None else resolve_projects(graph, viewer, scope)
    if not projects:
        return SearchResponse([], 0, "none", {"total": _ms(t0)})
    cache_key = result_cache.key_for(graph, embedder, settings, viewer, query, projects, options)
    if (hit := result_cache.get(cache_key, settings)) is not None:
        return result_cache.hit_response(hit, t0)

    t = time.perf_counter()
    answered = answer_question(graph, visibility_params(viewer), projects, query, embedder.slug, options.k) \
        if options.understand and options.filters == Filters() and viewer.user_id is not None else None
    if answered is not None:  # an entity question: the answer, and the entries behind it as results
        top = [Fused(i, float(b), {"answer": {"rank": n + 1, "score": float(b)}})
               for n, (i, b) in enumerate(answered.support)]
        out = _materialise(graph, viewer, top, query, {})
        latency["answer"] = _ms(t)
        latency["total"] = _ms(t0)
        return result_cache.put(cache_key, settings, SearchResponse(
            out, len(top), "answer", latency, {"entity_question": answered.answer["kind"]} if options.explain
            else None, warnings, answer=answered.answer))
    lexicons = _lexicons(graph, projects, viewer)
    base = _base_params(viewer, projects, options.filters, lexicons)
    parsed = (early.understanding(lexicons) if early is not None and projects == guessed else None) or \
        parse_query(graph, query, lexicons, projects, options.understand, options.now or date.today(), options.locale)
    warnings.extend(_filter_warnings(graph, viewer, projects, options.filters, lexicons))
    latency["parse"] = _ms(t)

    wanted = options.channels
    relaxed: list[str] = []
    soft = parsed.constraints
    while True:
        results, best_chunk = _run_channels(graph, embedder, settings, viewer, base, parsed, soft, wanted, options,
                                            latency, warnings, early if projects == guessed else None)
        if any(results.values()) or soft.empty:
            break
        relaxed.append(soft.next_relaxation())
        soft = soft.relaxed(relaxed[-1])
    warnings.extend(relaxed_warnings(relaxed, parsed.explain))

    t = time.perf_counter()
    mode = options.fusion or settings.fusion
    learned = mode == "learned" or options.capture is not None
    # The keyword channel's best hit may have been deleted since the channel found it (a concurrent write): then no
    # top text. The ranker's statement reads it with the candidates' facts and runs the thread channel (seeded by the
    # best dense hits); plain RRF reads it alone while that channel runs in the pool.
    top_id = results["fulltext"][0].id if results.get("fulltext") else None
    ask = thread_ask(results, wanted, {**base, **soft.params()}, max(options.candidates_per_channel, options.k))
    record: dict[str, Any] | None = None
    texts: dict[str, str] = {}
    if learned:
        tt = time.perf_counter()
        record, top_text, texts, thread_hits = ranker.gather(graph, query, results, parsed.constraints,
                                                             visibility_params(viewer), top_id, ask)
        if ask is not None:
            results = with_thread(results, thread_hits)
            latency["thread"] = _ms(tt)  # with the facts: the same statement
    else:
        thread = _POOL.submit(copy_context().run, run_thread, graph, ask, latency) if ask is not None else None
        rows = graph.read(ch.TOP_TEXT, {"id": top_id}) if top_id is not None else []
        top_text = rows[0]["text"] if rows else None
        if thread is not None:
            results = with_thread(results, thread.result())
    weights = {**channel_weights(parsed.text_for_search, top_text, dated=soft.dated), "graph": GRAPH_WEIGHT}
    fused = rrf({c: h for c, h in results.items() if h}, k=settings.rrf_k, weights=weights)
    fused = ranker.apply(record, mode, settings.ranker_weights, fused, options.k, warnings, options.capture, weights)
    source = _source(results)
    if not fused:
        recent, _ = ch.run_channel(graph, ch.RECENT, {**base, "limit": options.k})
        fused = [Fused(h.id, 0.0, {"recency": {"rank": i + 1, "score": 0.0}}) for i, h in enumerate(recent)]
        source = "recency" if fused else "none"
    latency["fuse"] = _ms(t)

    if options.rerank != "none":  # a second stage over the fused candidates, before diversity and the cut to k
        t = time.perf_counter()
        fused = rerank(graph, settings, viewer, query, fused, options.rerank, warnings)
        latency["rerank"] = _ms(t)

    t = time.perf_counter()
    if options.diversify and len(fused) > 1:
        pool = fused[: max(options.k * 3, 30)]
        if settings.diversify == "mmr":
            vectors = entry_vectors(graph, [f.id for f in pool], vector_property(embedder.slug))
            fused = mmr(pool, vectors, settings.mmr_lambda) + fused[len(pool):]
        else:  # the texts the ranker's facts brought, and the others read here
            missing = [f.id for f in pool if f.id not in texts]
            if missing:
                texts = {**texts, **{r["id"]: r["text"] for r in graph.read(ch.ENTRY_TEXTS, {"ids": missing})}}
            fused = diversify(pool, {f.id: word_set(texts[f.id]) for f in pool if f.id in texts},
                              len(pool)) + fused[len(pool):]
        latency["diversify"] = _ms(t)
        t = time.perf_counter()
    top = fused[: options.k]
    out = _materialise(graph, viewer, top, query, best_chunk if options.include_chunks else {})
    latency["details"] = _ms(t)
    latency["total"] = _ms(t0)
    explained = None
    if options.explain:
        explained = {**parsed.explain, "relaxed": relaxed, "weights": {c: weights[c] for c in results},
                     "channels": {c: len(h) for c, h in results.items()}}
    return result_cache.put(cache_key, settings, SearchResponse(
        out, len(fused), source, latency, explained, warnings,
        channel_candidates={c: len(h) for c, h in results.items()}))


def _run_channels(graph: Graph, embedder: CheckedEmbedder, settings: Settings, viewer: Viewer,
                  base: dict[str, Any], parsed: Parsed, soft: SoftConstraints, wanted: tuple[str, ...],
                  options: SearchOptions, latency: dict[str, float], warnings: list[str],
                  early: EarlyVector | None) -> tuple[dict[str, list[Hit]], dict[str, str]]:
    """Fulltext and structured run in the pool while the query is embedded and the dense channel runs."""
    limit = max(options.candidates_per_channel, options.k)
    params = {**base, **soft.params()}
    lucene = to_lucene(parsed.text_for_search)
    futures: dict[str, Future[tuple[list[Hit], dict[str, str]]]] = {}
    started: dict[str, float] = {}
    if "fulltext" in wanted and lucene:
        started["fulltext"] = time.perf_counter()
        futures["fulltext"] = _POOL.submit(copy_context().run, _keyword, graph, settings, viewer,  # request's reads
                                           params, parsed.text_for_search, limit, embedder.slug)
    structured: Future[tuple[list[Hit], int]] | None = None
    ranked_entities = parsed.rank_entity_ids if soft.entity_ids or soft.dated else []
    if "structured" in wanted and (ranked_entities or soft.dated or soft.author_keys):
        started["structured"] = time.perf_counter()
        structured = _POOL.submit(copy_context().run, run_structured, graph, settings, viewer,
                                  {**params, "rank_entity_ids": ranked_entities, "limit": limit,
                                   "prop": vector_property(embedder.slug)},
                                  stores_key(embedder.slug))
    results: dict[str, list[Hit]] = {}
    best_chunk: dict[str, str] = {}
    skip_dense = parsed.layer == "keyword" and len(wanted) > 1
    if "dense" in wanted and parsed.text_for_search.strip() and not skip_dense:
        _all_dense(graph, embedder, settings, viewer, params, parsed.text_for_search, limit, results, best_chunk,
                   latency, warnings, early)
    for name, fut in futures.items():
        results[name], _ = fut.result()
        latency[name] = _ms(started[name])
    if structured is not None:
        hits, total = structured.result()
        latency["structured"] = _ms(started["structured"])
        if total <= limit:
            results["structured"] = hits
    if skip_dense and not any(results.values()) and "dense" in wanted:
        _all_dense(graph, embedder, settings, viewer, params, parsed.text_for_search, limit, results, best_chunk,
                   latency, warnings, early)
    if "graph" in wanted:  # seeded by the named entities and the best hits (queries/graph_channel.py)
        t = time.perf_counter()
        results["graph"] = run_graph(graph, params, parsed.rank_entity_ids,
                                     results.get("dense") or results.get("fulltext") or [], limit)
        latency["graph"] = _ms(t)
    return results, best_chunk


def _keyword(graph: Graph, settings: Settings, viewer: Viewer, params: dict[str, Any], text: str, limit: int,
             embedder_slug: str) -> tuple[list[Hit], dict[str, str]]:
    """One project: the viewer is resolved once in the statement, not once per candidate (channels.py); a
    constrained question starts from the entries of the kept view that meet it (queries/keyword_view.py)."""
    if len(params["project_ids"]) == 1:
        one = {**params, "project_id": params["project_ids"][0]}
        met = keyword_meeting(graph, settings, viewer, {**one, "prop": vector_property(embedder_slug)},
                              stores_key(embedder_slug))
        if met is not None and met.ids is not None:
            return run_keyword_among(graph, ch.FULLTEXT_AMONG, ch.FULLTEXT_VISIBLE, one, text, limit, met.ids,
                                     met.count), {}
        return run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, one, text, limit,
                           met.count if met is not None else None), {}
    return run_keyword(graph, ch.FULLTEXT, ch.FULLTEXT_VISIBLE, params, text, limit), {}


def _all_dense(graph: Graph, embedder: CheckedEmbedder, settings: Settings, viewer: Viewer, params: dict[str, Any],
               text: str, limit: int, results: dict[str, list[Hit]], best_chunk: dict[str, str],
               latency: dict[str, float], warnings: list[str], early: EarlyVector | None) -> None:
    """The active model's index, plus the target's while a model migration is under way (fused by RRF)."""
    _dense_into(graph, embedder, settings, viewer, params, text, limit, results, best_chunk, latency, warnings,
                "dense", early)
    if embedder.supports_sparse:
        t = time.perf_counter()
        try:
            weights = embedder.embed_sparse([text], query=True)[0]
            results["sparse"], _ = ch.run_channel(graph, ch.SPARSE, {**params, "weights": weights,
                                                                     "model": embedder.model_id, "limit": limit})
        except EmbeddingError as exc:
            warnings.append("sparse channel unavailable: the query could not be weighted")
            log.warning("sparse query weights failed: %s", exc)
        latency["sparse"] = _ms(t)
    state = recent_state(graph, settings.state_cache_seconds)
    if state is not None and state.target and state.target_slug != embedder.slug:
        try:
            target = embedder_for_spec(settings, state.target)
        except EmbeddingError as exc:
            log.warning("target model %s unavailable: %s", state.target, exc)
            return
        _dense_into(graph, target, settings, viewer, params, text, limit, results, best_chunk, latency, warnings,
                    "dense_next")


def _embed_cache_size(settings: Settings, viewer: Viewer) -> int:
    """Witnesses get no query-embedding cache: several links may share one chapter and nothing tells them apart."""
    return 0 if viewer.is_witness else settings.query_embed_cache_size


def _dense_into(graph: Graph, embedder: CheckedEmbedder, settings: Settings, viewer: Viewer, params: dict[str, Any],
                text: str, limit: int, results: dict[str, list[Hit]], best_chunk: dict[str, str],
                latency: dict[str, float], warnings: list[str], channel: str = "dense",
                early: EarlyVector | None = None) -> None:
    t = time.perf_counter()
    try:
        if early is not None and early.text == embeddable(text):  # the guess was right (queries/early_vector.py)
            vector = early.vector.result()
        else:
            vector = query_vector(embedder, embeddable(text), _embed_cache_size(settings, viewer),
                                  f"user:{viewer.user_id}")
    except EmbeddingError as exc:
        warnings.append("dense channel unavailable: the query could not be embedded")
        log.warning("query embedding failed: %s", exc)
        return
    latency[f"embed_{channel}" if channel != "dense" else "embed"] = _ms(t)
    t = time.perf_counter()
    hits, chunks = _dense(graph, embedder, settings, viewer, params, vector, limit)
    floor = settings.dense_floor if settings.dense_floor is not None else DENSE_FLOORS.get(embedder.slug, 0.0)
    if hits:
        log.info("top %s similarity %.4f (floor %.2f)", channel, hits[0].score, floor)
    results[channel] = [h for h in hits if h.score >= floor]
    for h in results[channel]:
        best_chunk.setdefault(h.id, chunks[h.id])
    latency[channel] = _ms(t)


def _lexicons(graph: Graph, projects: list[str], viewer: Viewer) -> dict[str, ProjectLexicon]:
    """The names each project's visible entities answer to, kept per viewer and listed again in part after a write
    they may see (queries/lexicons.py). Only read here."""
    return {p: lexicons.lexicon(graph, p, viewer) for p in projects}


def _resolve_names(lexicons: dict[str, ProjectLexicon], kind: str, names: list[str] | None,
                   ids: list[str] | None) -> list[str] | None:
    if names is None and ids is None:
        return None
    out = list(ids or [])
    for name in names or []:
        for lex in lexicons.values():
            found = lex.by_key.get((kind, fold(name)))
            out.append(found.id if found else f"\x00unknown:{name}")
    return out


def _base_params(viewer: Viewer, projects: list[str], f: Filters,
                 lexicons: dict[str, ProjectLexicon]) -> dict[str, Any]:
    return {
        "project_ids": projects,
        "date_from": f.date_from,
        "date_to": f.date_to,
        "intimacy_levels": levels_up_to(f.intimacy_max),
        "author_ids": f.author_ids,
        "kinds": f.kinds,
        "tags": f.tags,
        "period_id": f.period_id,
        "person_ids": _resolve_names(lexicons, "person", f.persons, f.person_ids),
        "place_ids": _resolve_names(lexicons, "place", f.places, f.place_ids),
        **visibility_params(viewer),
    }


def _filter_warnings(graph: Graph, viewer: Viewer, projects: list[str], f: Filters,
                     lexicons: dict[str, ProjectLexicon]) -> list[str]:
    """One warning per filter value that names nothing the viewer may see: decided from visible entities and
    entries only, so a hidden name and a missing one read the same."""
    out = [f"no visible {kind} named {name!r}: the {field} filter matches nothing for it"
           for kind, field, names, ids in (("person", "persons", f.persons, f.person_ids),
                                           ("place", "places", f.places, f.place_ids))
           for name in unknown_names(lexicons, kind, names, ids)]
    if f.author_ids:
        seen = {r["a"] for r in graph.read(ch.VISIBLE_AUTHORS, {"project_ids": projects, "author_ids": f.author_ids,
                                                               **visibility_params(viewer)})}
        out += [f"no visible entry by author {a!r}: the author_ids filter matches nothing for it"
                for a in f.author_ids if a not in seen]
    return out


def _source(results: dict[str, list[Hit]]) -> str:
    live = [c for c, hits in results.items() if hits and c != "thread"]
    if not live:
        return "none"
    return live[0] if len(live) == 1 else "hybrid"


def _materialise(graph: Graph, viewer: Viewer, top: list[Fused], query: str,
                 best_chunk: dict[str, str]) -> list[SearchResult]:
    if not top:
        return []
    chunks = {f.id: best_chunk[f.id] for f in top if f.id in best_chunk}  # read with the details: one round trip
    rows = {r["id"]: r for r in graph.read(ch.DETAILS, {"ids": [f.id for f in top], "chunks": chunks,
                                                        **visibility_params(viewer)})}
    terms = query_terms(query)
    out: list[SearchResult] = []
    for f in top:
        row = rows.get(f.id)
        if row is None:
            continue
        snip, marks = snippet(row["body"] or "", terms)
        chunk = row["chunk"]
        out.append(SearchResult(
            entry_id=row["id"], project_id=row["project_id"], score=round(f.score, 6), score_breakdown=f.channels,
            snippet_md=snip, highlights=marks, title=row["title"],
            occurred_on=row["occurred_start"], occurred_end=row["occurred_end"],  # ISO text from the statement
            occurred_precision=row["occurred_precision"], author_id=row["author_id"], intimacy_level=row["intimacy"],
            kind=row["kind"], persons=sorted(row["persons"]), places=sorted(row["places"]),
            things=sorted(row["things"]), tags=list(row["tags"] or []), periods=list(row["periods"]),
            chunk={"id": chunk["id"], "ord": chunk["ord"], "text": chunk["text"]} if chunk else None,
        ))
    return out


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)
