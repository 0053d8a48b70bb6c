"""The search door: one search as its stages, understand → retrieve → fuse → rerank → diversify → materialise, over
the graph, the model and the settings a `SearchDoor` holds. An entity question ("who appears with Pep?") is answered
instead of searched; either answer is cached in one place.

Every channel statement carries the scope, the caller's filters and the visibility predicate, so candidates,
`total_candidates`, snippets and details only ever come from entries the viewer may see.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from graph import generations
from graph.db import Graph
from graph.lexicon import ProjectLexicon
from graph.members import projects_of
from graph.schema import vector_property
from graph.settings import Settings
from graph.visibility import Viewer, visibility_params
from inference.embedders import CheckedEmbedder
from queries.entities.entity_question_words import Intent, classify
from queries.entities.entity_questions import answer_question
from queries.search import channel_set, kept_lexicons, ranker, relevance, result_cache, visible_view
from queries.search import channels as ch
from queries.search.diversify import diversify, word_set
from queries.search.early_vector import EarlyVector
from queries.search.early_vector import start as start_early_vector
from queries.search.fusion import Cue, Fused, Hit, rrf
from queries.search.mmr import entry_vectors, mmr
from queries.search.query_constraints import SoftConstraints, parse_query, relaxed_warnings, set_aside, unknown_names
from queries.search.question import Question
from queries.search.replies import REACH, replies_to
from queries.search.request import (
    AccessDenied,
    Filters,
    Scope,
    SearchOptions,
    SearchResponse,
    SearchResult,
)
from queries.search.rerank import rerank
from queries.search.retrieval import Retrieved, retrieve
from queries.search.run import SearchRun
from queries.search.run import ms as _ms
from queries.search.scope import SearchScope
from queries.search.snippets import query_terms, snippet

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


@dataclass
class Fusion:
    """The fuse stage's answer: candidates in order, where they came from, the weights that fused them, and the
    texts the ranker's facts brought (band diversity reads them)."""

    fused: list[Fused]
    source: str
    weights: dict[str, float]
    texts: dict[str, str]
    relevance: dict[str, float]


@dataclass(frozen=True)
class SearchDoor:
    graph: Graph
    embedder: CheckedEmbedder
    settings: Settings

    def search(
        self, viewer: Viewer, query: str, scope: Scope, options: SearchOptions, project_ids: list[str] | None = None
    ) -> SearchResponse:
        """Search what `viewer` may see. `project_ids` is given only by callers that already resolved the scope."""
        with generations.read_once(), visible_view.listings_after():
            options = replace(options, channels=channel_set.asked(options.channels))
            run = SearchRun(self.graph, self.embedder, self.settings, viewer, options, query)
            guessed = project_ids or ([scope.project_id] if scope.project_id and not scope.multi_project else [])
            intent = classify(query) if options.understand else None
            early = start_early_vector(
                self.graph, self.embedder, viewer, guessed, query, options, run.embed_cache_size, intent is not None
            )
            projects = project_ids if project_ids is not None else resolve_projects(self.graph, viewer, scope)
            if not projects:
                return SearchResponse([], 0, "none", {"total": _ms(run.started)})
            key = result_cache.key_for(self.graph, self.embedder, self.settings, viewer, query, projects, options)
            if (hit := result_cache.get(self.graph, key, self.settings)) is not None:
                return result_cache.hit_response(hit, run.started)
            answer = self.answer_entity_question(run, projects, intent) or self.search_entries(
                run, projects, early if projects == guessed else None
            )
            run.took("total", run.started)
            return result_cache.put(self.graph, key, self.settings, answer)

    def search_entries(self, run: SearchRun, projects: list[str], early: EarlyVector | None) -> SearchResponse:
        question = self.understand(run, projects, early)
        found = retrieve(run, question, early, channel_set.CHANNELS)
        run.warnings.extend(relaxed_warnings(found.relaxed, question.parsed.explain))
        fusion = self.fuse(run, question, found)
        fused = self.rerank(run, fusion.fused)
        fused = self.diversify(run, fused, fusion.texts)
        return self.materialise(run, question, found, fusion, fused)

    def answer_entity_question(
        self, run: SearchRun, projects: list[str], intent: Intent | None
    ) -> SearchResponse | None:
        """An entity question's answer, with the entries behind it as results; None for any other question (`intent`
        None: not one)."""
        options, viewer = run.options, run.viewer
        if intent is None or options.filters != Filters() or viewer.user_id is None:
            return None
        t = time.perf_counter()
        answered = answer_question(self.graph, viewer, projects, run.query, intent, self.embedder.slug, options.k)
        if answered is None or not answered.answer["items"]:
            return None  # nothing to answer from what the viewer may see: the question is searched as words
        top = [
            Fused(i, float(b), {"answer": {"rank": n + 1, "score": float(b)}})
            for n, (i, b) in enumerate(answered.support)
        ]
        out = _materialise(self.graph, viewer, top, run.query, {})
        run.took("answer", t)
        explained = {"entity_question": answered.answer["kind"]} if options.explain else None
        return SearchResponse(out, len(top), "answer", run.latency, explained, run.warnings, answer=answered.answer)

    def understand(self, run: SearchRun, projects: list[str], early: EarlyVector | None) -> Question:
        """The question's words, dates, people, places and author, read once with the viewer's lexicons (the early
        guess's reading when it used the very same ones)."""
        t = time.perf_counter()
        options, viewer = run.options, run.viewer
        lexicons = _lexicons(self.graph, projects, viewer)
        parsed = (early.understanding(lexicons) if early is not None else None) or parse_query(
            self.graph, run.query, lexicons, projects, options.understand, options.now or date.today(), options.locale
        )
        parsed = set_aside(parsed, options.ignore)
        run.warnings.extend(_filter_warnings(self.graph, viewer, projects, options.filters, lexicons))
        run.took("parse", t)
        return Question(
            run.query, projects, lexicons, parsed, SearchScope.of(viewer, projects, options.filters, lexicons)
        )

    def fuse(self, run: SearchRun, question: Question, found: Retrieved) -> Fusion:
        """RRF over the channels, weighted for this question, then the learned ranker over the channels' evidence;
        the most recent visible entries when no channel found anything. The keyword channel's best hit may have been
        deleted since (a concurrent write): then no top text."""
        t = time.perf_counter()
        results, viewer = found.hits, run.viewer
        top_id = results["fulltext"][0].id if results.get("fulltext") else None
        record, top_text, texts = ranker.gather(
            self.graph,
            run.query,
            results,
            question.parsed.constraints,
            viewer,
            top_id,
            run.dense_vector,
            vector_property(self.embedder.slug),
            question.scope,
            self.settings,
        )
        cue = Cue.of(question.parsed.text_for_search, top_text, dated=found.soft.dated)
        weights = {c.name: c.weight(cue) for c in channel_set.CHANNELS}
        fused = rrf({c: h for c, h in results.items() if h}, k=self.settings.rrf_k, weights=weights)
        fused = ranker.apply(run, record, fused, weights)
        source = _source(results)
        if not fused:
            recent, _ = ch.run_channel(self.graph, ch.RECENT, {**question.scope.params(), "limit": run.options.k})
            fused = [Fused(h.id, 0.0, {"recency": {"rank": i + 1, "score": 0.0}}) for i, h in enumerate(recent)]
            source = "recency" if fused else "none"
        run.took("fuse", t)
        return Fusion(fused, source, weights, texts, self.relevance(run, record))

    def relevance(self, run: SearchRun, record: dict[str, Any]) -> dict[str, float]:
        """Each candidate's calibrated relevance (queries/search/relevance.py); none when the calibration cannot be
        read (said once in the log and as a warning)."""
        try:
            calibration = relevance.load(self.settings.relevance_weights)
        except relevance.RelevanceWeightsError as exc:
            log.warning("relevance unavailable: %s", exc)
            run.warnings.append("relevance unavailable (the calibration file does not fit): no match verdict")
            return {}
        if calibration.embedder and calibration.embedder != self.embedder.slug:
            relevance.warn_other_model(calibration.embedder, self.embedder.slug)
        return relevance.relevances(calibration, record, run.query)

    def rerank(self, run: SearchRun, fused: list[Fused]) -> list[Fused]:
        """A second stage over the fused candidates, before diversity and the cut to k."""
        if run.options.rerank == "none":
            return fused
        t = time.perf_counter()
        out = rerank(run, fused)
        run.took("rerank", t)
        return out

    def diversify(self, run: SearchRun, fused: list[Fused], texts: dict[str, str]) -> list[Fused]:
        """Near-duplicates deferred within the first pool: by word overlap (the texts the ranker's facts brought, the
        others read here) or by MMR over stored vectors."""
        if not run.options.diversify or len(fused) <= 1:
            return fused
        t = time.perf_counter()
        pool = fused[: max(run.options.k * 3, 30)]
        if self.settings.diversify == "mmr":
            vectors = entry_vectors(self.graph, [f.id for f in pool], vector_property(self.embedder.slug))
            out = mmr(pool, vectors, self.settings.mmr_lambda) + fused[len(pool) :]
        else:
            missing = [f.id for f in pool if f.id not in texts]
            if missing:
                texts = {**texts, **{r["id"]: r["text"] for r in self.graph.read(ch.ENTRY_TEXTS, {"ids": missing})}}
            words = {f.id: word_set(texts[f.id]) for f in pool if f.id in texts}
            out = diversify(pool, words, len(pool)) + fused[len(pool) :]
        run.took("diversify", t)
        return out

    def materialise(
        self, run: SearchRun, question: Question, found: Retrieved, fusion: Fusion, fused: list[Fused]
    ) -> SearchResponse:
        """The first k as results (details, snippet, best chunk), and what explain shows."""
        t = time.perf_counter()
        options = run.options
        chunks = found.best_chunk if options.include_chunks else {}
        out = _materialise(self.graph, run.viewer, fused[: options.k], run.query, chunks)
        for r in out:
            r.relevance = fusion.relevance.get(r.entry_id)
        run.took("details", t)
        explained = None
        if options.explain:
            explained = {
                **question.parsed.explain,
                "relaxed": found.relaxed,
                "clock": clocks(out, found.soft),
                "weights": {c: fusion.weights[c] for c in found.hits},
                "channels": {c: len(h) for c, h in found.hits.items()},
            }
        return SearchResponse(
            out,
            len(fused),
            fusion.source,
            run.latency,
            explained,
            run.warnings,
            channel_candidates={c: len(h) for c, h in found.hits.items()},
            matched=matched_well(out, fusion, self.settings),
        )


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
    """One search through the door (`SearchDoor.search`)."""
    return SearchDoor(graph, embedder, settings).search(viewer, query, scope, options, project_ids)


def _lexicons(graph: Graph, projects: list[str], viewer: Viewer) -> dict[str, ProjectLexicon]:
    """The names each project's visible entities answer to, kept per viewer and listed again in part after a write
    they may see (queries/search/kept_lexicons.py). Only read here."""
    return {p: kept_lexicons.lexicon(graph, p, viewer) for p in projects}


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


def matched_well(out: list[SearchResult], fusion: Fusion, settings: Settings) -> bool:
    """Whether a result on the page reaches the calibration's threshold. The latest entries (no channel found
    anything) never do; without a calibration every answer counts as matched, as before relevance existed."""
    if fusion.source in ("recency", "none"):
        return False
    if not fusion.relevance:
        return True
    threshold = relevance.load(settings.relevance_weights).threshold
    return any((r.relevance or 0.0) >= threshold for r in out)


def _source(results: dict[str, list[Hit]]) -> str:
    live = [c for c, hits in results.items() if hits and c != "thread"]
    if not live:
        return "none"
    return live[0] if len(live) == 1 else "hybrid"


def clocks(out: list[SearchResult], soft: SoftConstraints) -> dict[str, str]:
    """Which clock met the question's date, per result: `written` (the entry's date) or `told` (a time its text
    tells; ingest/event_times.py), against the question's range or any year's occurrence of a recurring date ("in
    August"); the question's own days first, so an entry written within only the reach past a day that tells the day
    itself says `told`. Empty when the search kept no date."""
    said: dict[str, str] = {}
    for r in out:
        clock = _clock(r, soft.own_spans) or (_clock(r, soft.spans) if soft.date_own_to else None)
        if clock:
            said[r.entry_id] = clock
    return said


def _clock(r: SearchResult, dates: list[tuple[date, date]]) -> str | None:
    spans = [(lo.isoformat(), hi.isoformat()) for lo, hi in dates]
    if any(r.occurred_on and (r.occurred_end or r.occurred_on) >= lo and r.occurred_on <= hi for lo, hi in spans):
        return "written"
    if any(t["start"] >= lo and t["end"] <= hi for t in r.told for lo, hi in spans):
        return "told"
    return None


def _materialise(
    graph: Graph, viewer: Viewer, top: list[Fused], query: str, best_chunk: dict[str, str]
) -> list[SearchResult]:
    if not top:
        return []
    chunks = {f.id: best_chunk[f.id] for f in top if f.id in best_chunk}  # read with the details: one round trip
    rows = {
        r["id"]: r
        for r in graph.read(
            ch.DETAILS,
            {"ids": [f.id for f in top], "chunks": chunks, "reply_reach": REACH, **visibility_params(viewer)},
        )
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
                replies_to=replies_to(row["author_id"], row["before"]),
            )
        )
    return out
