"""`hybrid_search`: the one retrieval door. Channels run in parallel, are fused by RRF and returned as entries.

Every channel statement carries the scope, the caller's filters and the visibility predicate, so candidates,
`total_candidates`, snippets and details only ever come from entries the viewer may see.
"""

from __future__ import annotations

import logging
import time
from contextvars import copy_context
from datetime import date
from typing import Any

from graph import generations
from graph.db import Graph
from graph.lexicon import ProjectLexicon
from graph.members import projects_of
from graph.schema import vector_property
from graph.settings import Settings
from graph.textnorm import fold
from graph.visibility import Viewer, levels_up_to, visibility_params
from inference.embedders import CheckedEmbedder
from queries.entities.entity_questions import answer_question
from queries.search import channels as ch
from queries.search import lexicons, ranker, result_cache, visible_view
from queries.search.diversify import diversify, word_set
from queries.search.early_vector import start as start_early_vector
from queries.search.fusion import Fused, Hit, channel_weights, rrf
from queries.search.graph_channel import GRAPH_WEIGHT
from queries.search.mmr import entry_vectors, mmr
from queries.search.query_constraints import SoftConstraints, parse_query, relaxed_warnings, set_aside, unknown_names
from queries.search.request import (
    AccessDenied,
    Filters,
    Scope,
    SearchOptions,
    SearchResponse,
    SearchResult,
)
from queries.search.rerank import rerank
from queries.search.retrieval import run_channels
from queries.search.run import POOL, SearchRun
from queries.search.run import ms as _ms
from queries.search.snippets import query_terms, snippet
from queries.search.thread_channel import run_thread, thread_ask, with_thread

log = logging.getLogger(__name__)


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
@visible_view.after_the_search
def hybrid_search(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    viewer: Viewer,
    query: str,
    scope: Scope,
    options: SearchOptions,
    project_ids: list[str] | None = None,
) -> SearchResponse:
    """Search what `viewer` may see. `project_ids` is given only by callers that already resolved the scope."""
    run = SearchRun(graph, embedder, settings, viewer, options, query)
    guessed = project_ids or ([scope.project_id] if scope.project_id and not scope.multi_project else [])
    early = start_early_vector(graph, embedder, viewer, guessed, query, options, run.embed_cache_size)
    projects = project_ids if project_ids is not None else resolve_projects(graph, viewer, scope)
    if not projects:
        return SearchResponse([], 0, "none", {"total": _ms(run.started)})
    cache_key = result_cache.key_for(graph, embedder, settings, viewer, query, projects, options)
    if (hit := result_cache.get(graph, cache_key, settings)) is not None:
        return result_cache.hit_response(hit, run.started)

    t = time.perf_counter()
    answered = (
        answer_question(graph, visibility_params(viewer), projects, query, embedder.slug, options.k)
        if options.understand and options.filters == Filters() and viewer.user_id is not None
        else None
    )
    if answered is not None:  # an entity question: the answer, and the entries behind it as results
        top = [
            Fused(i, float(b), {"answer": {"rank": n + 1, "score": float(b)}})
            for n, (i, b) in enumerate(answered.support)
        ]
        out = _materialise(graph, viewer, top, query, {})
        run.took("answer", t)
        run.took("total", run.started)
        return result_cache.put(
            graph,
            cache_key,
            settings,
            SearchResponse(
                out,
                len(top),
                "answer",
                run.latency,
                {"entity_question": answered.answer["kind"]} if options.explain else None,
                run.warnings,
                answer=answered.answer,
            ),
        )
    lexicons = _lexicons(graph, projects, viewer)
    base = _base_params(viewer, projects, options.filters, lexicons)
    parsed = (early.understanding(lexicons) if early is not None and projects == guessed else None) or parse_query(
        graph, query, lexicons, projects, options.understand, options.now or date.today(), options.locale
    )
    parsed = set_aside(parsed, options.ignore)
    run.warnings.extend(_filter_warnings(graph, viewer, projects, options.filters, lexicons))
    run.took("parse", t)

    wanted = options.channels
    relaxed: list[str] = []
    soft = parsed.constraints
    while True:
        results, best_chunk = run_channels(run, base, parsed, soft, early if projects == guessed else None)
        if any(results.values()) or soft.empty:
            break
        relaxed.append(soft.next_relaxation())
        soft = soft.relaxed(relaxed[-1])
    run.warnings.extend(relaxed_warnings(relaxed, parsed.explain))

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
        record, top_text, texts, thread_hits = ranker.gather(
            graph, query, results, parsed.constraints, visibility_params(viewer), top_id, ask
        )
        if ask is not None:
            results = with_thread(results, thread_hits)
            run.took("thread", tt)  # with the facts: the same statement
    else:
        thread = POOL.submit(copy_context().run, run_thread, graph, ask, run.latency) if ask is not None else None
        rows = graph.read(ch.TOP_TEXT, {"id": top_id}) if top_id is not None else []
        top_text = rows[0]["text"] if rows else None
        if thread is not None:
            results = with_thread(results, thread.result())
    weights = {**channel_weights(parsed.text_for_search, top_text, dated=soft.dated), "graph": GRAPH_WEIGHT}
    fused = rrf({c: h for c, h in results.items() if h}, k=settings.rrf_k, weights=weights)
    fused = ranker.apply(run, record, fused, weights)
    source = _source(results)
    if not fused:
        recent, _ = ch.run_channel(graph, ch.RECENT, {**base, "limit": options.k})
        fused = [Fused(h.id, 0.0, {"recency": {"rank": i + 1, "score": 0.0}}) for i, h in enumerate(recent)]
        source = "recency" if fused else "none"
    run.took("fuse", t)

    if options.rerank != "none":  # a second stage over the fused candidates, before diversity and the cut to k
        t = time.perf_counter()
        fused = rerank(run, fused)
        run.took("rerank", t)

    t = time.perf_counter()
    if options.diversify and len(fused) > 1:
        pool = fused[: max(options.k * 3, 30)]
        if settings.diversify == "mmr":
            vectors = entry_vectors(graph, [f.id for f in pool], vector_property(embedder.slug))
            fused = mmr(pool, vectors, settings.mmr_lambda) + fused[len(pool) :]
        else:  # the texts the ranker's facts brought, and the others read here
            missing = [f.id for f in pool if f.id not in texts]
            if missing:
                texts = {**texts, **{r["id"]: r["text"] for r in graph.read(ch.ENTRY_TEXTS, {"ids": missing})}}
            fused = (
                diversify(pool, {f.id: word_set(texts[f.id]) for f in pool if f.id in texts}, len(pool))
                + fused[len(pool) :]
            )
        run.took("diversify", t)
        t = time.perf_counter()
    top = fused[: options.k]
    out = _materialise(graph, viewer, top, query, best_chunk if options.include_chunks else {})
    run.took("details", t)
    run.took("total", run.started)
    explained = None
    if options.explain:
        explained = {
            **parsed.explain,
            "relaxed": relaxed,
            "clock": clocks(out, soft),
            "weights": {c: weights[c] for c in results},
            "channels": {c: len(h) for c, h in results.items()},
        }
    return result_cache.put(
        graph,
        cache_key,
        settings,
        SearchResponse(
            out,
            len(fused),
            source,
            run.latency,
            explained,
            run.warnings,
            channel_candidates={c: len(h) for c, h in results.items()},
        ),
    )


def _lexicons(graph: Graph, projects: list[str], viewer: Viewer) -> dict[str, ProjectLexicon]:
    """The names each project's visible entities answer to, kept per viewer and listed again in part after a write
    they may see (queries/search/lexicons.py). Only read here."""
    return {p: lexicons.lexicon(graph, p, viewer) for p in projects}


def _resolve_names(
    lexicons: dict[str, ProjectLexicon], kind: str, names: list[str] | None, ids: list[str] | None
) -> list[str] | None:
    if names is None and ids is None:
        return None
    out = list(ids or [])
    for name in names or []:
        for lex in lexicons.values():
            found = lex.by_key.get((kind, fold(name)))
            out.append(found.id if found else f"\x00unknown:{name}")
    return out


def _base_params(
    viewer: Viewer, projects: list[str], f: Filters, lexicons: dict[str, ProjectLexicon]
) -> dict[str, Any]:
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


def _filter_warnings(
    graph: Graph, viewer: Viewer, projects: list[str], f: Filters, lexicons: dict[str, ProjectLexicon]
) -> list[str]:
    """One warning per filter value that names nothing the viewer may see: decided from visible entities and
    entries only, so a hidden name and a missing one read the same."""
    out = [
        f"no visible {kind} named {name!r}: the {field} filter matches nothing for it"
        for kind, field, names, ids in (
            ("person", "persons", f.persons, f.person_ids),
            ("place", "places", f.places, f.place_ids),
        )
        for name in unknown_names(lexicons, kind, names, ids)
    ]
    if f.author_ids:
        seen = {
            r["a"]
            for r in graph.read(
                ch.VISIBLE_AUTHORS, {"project_ids": projects, "author_ids": f.author_ids, **visibility_params(viewer)}
            )
        }
        out += [
            f"no visible entry by author {a!r}: the author_ids filter matches nothing for it"
            for a in f.author_ids
            if a not in seen
        ]
    return out


def _source(results: dict[str, list[Hit]]) -> str:
    live = [c for c, hits in results.items() if hits and c != "thread"]
    if not live:
        return "none"
    return live[0] if len(live) == 1 else "hybrid"


def clocks(out: list[SearchResult], soft: SoftConstraints) -> dict[str, str]:
    """Which clock met the question's date, per result: `written` (the entry's date) or `told` (a time its text
    tells; ingest/event_times.py), against the question's range or any year's occurrence of a recurring date ("in
    August"). Empty when the search kept no date."""
    spans = [(lo.isoformat(), hi.isoformat()) for lo, hi in soft.spans]
    said: dict[str, str] = {}
    for r in out:
        for lo, hi in spans:
            if r.occurred_on and (r.occurred_end or r.occurred_on) >= lo and r.occurred_on <= hi:
                said[r.entry_id] = "written"
                break
            if any(t["start"] >= lo and t["end"] <= hi for t in r.told):
                said.setdefault(r.entry_id, "told")
    return said


def _materialise(
    graph: Graph, viewer: Viewer, top: list[Fused], query: str, best_chunk: dict[str, str]
) -> list[SearchResult]:
    if not top:
        return []
    chunks = {f.id: best_chunk[f.id] for f in top if f.id in best_chunk}  # read with the details: one round trip
    rows = {
        r["id"]: r
        for r in graph.read(ch.DETAILS, {"ids": [f.id for f in top], "chunks": chunks, **visibility_params(viewer)})
    }
    terms = query_terms(query)
    out: list[SearchResult] = []
    for f in top:
        row = rows.get(f.id)
        if row is None:
            continue
        snip, marks = snippet(row["body"] or "", terms)
        chunk = row["chunk"]
        out.append(
            SearchResult(
                entry_id=row["id"],
                project_id=row["project_id"],
                score=round(f.score, 6),
                score_breakdown=f.channels,
                snippet_md=snip,
                highlights=marks,
                title=row["title"],
                occurred_on=row["occurred_start"],
                occurred_end=row["occurred_end"],  # ISO text from the statement
                occurred_precision=row["occurred_precision"],
                author_id=row["author_id"],
                intimacy_level=row["intimacy"],
                kind=row["kind"],
                persons=sorted(row["persons"]),
                places=sorted(row["places"]),
                things=sorted(row["things"]),
                tags=list(row["tags"] or []),
                periods=list(row["periods"]),
                told=list(row["told"]),
                chunk={"id": chunk["id"], "ord": chunk["ord"], "text": chunk["text"]} if chunk else None,
            )
        )
    return out
