"""Building, serving and refreshing summaries (graph/summaries.py holds the statements and the audience rules).

A viewer's audience: a member's base is 'inner' for the owner and coauthors (who see every intimate entry) and
'circle' for readers; a member who wrote entries of the scope that the base leaves out (their own private entries,
or a reader's own intimate ones) gets a variant of their own (`owner`), served to nobody else. A witness gets the
'circle' variant of a period inside their chapter, and no project summary. The variant is then served through
`graph.summaries.serve`, which checks `CAN_SEE` for every entry that fed it.

Writes only mark variants stale; a stale or missing variant asked for is rebuilt inline with the extractive
summariser (fast, and never served stale), and flagged `pending_llm` when a model is configured so the refresh
(`memora summaries refresh`, or the worker in `memora serve`) rebuilds it abstractively.
"""

from __future__ import annotations

import itertools
import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from graph import summaries as gs
from graph.db import Graph
from graph.members import project_hemisphere, role_of
from graph.settings import Settings
from graph.summaries import EXTRACTIVE, Audience, audience_for
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder, EmbeddingError
from inference.providers.llm import ChatClient, chat_client
from ingest.summarise import (
    PERIOD_WORDS,
    PROJECT_WORDS,
    Event,
    events,
    extractive_summary,
    ranked,
    render,
    summarise,
    within,
    word_count,
)

log = logging.getLogger(__name__)
LLM_INPUT_WORDS = 6000
"""Above this many words of entries, the model is given the extractive digest (3x the budget) instead."""

PROJECTS_WITH_ENTRIES = "MATCH (p:Project) WHERE EXISTS { MATCH (:Entry {project_id: p.id}) } RETURN p.id AS id"


@dataclass
class RefreshReport:
    built: int = 0
    abstractive: int = 0
    fallbacks: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"built": self.built, "abstractive": self.abstractive, "fallbacks": self.fallbacks}


class Summaries:
    """Builds variants (with the model when `llm` is given) and serves them to viewers."""

    def __init__(
        self,
        graph: Graph,
        embedder: CheckedEmbedder | None,
        llm: ChatClient | None = None,
        llm_configured: bool = False,
        period_words: int = PERIOD_WORDS,
        project_words: int = PROJECT_WORDS,
    ) -> None:
        """`llm_configured` without `llm`: serve-path builds stay extractive but are left for the refresh."""
        self.graph, self.embedder, self.llm = graph, embedder, llm
        self.llm_configured = llm_configured or llm is not None
        self.period_words, self.project_words = period_words, project_words

    def build(self, project_id: str, period_id: str | None, audience: Audience, use_llm: bool = True) -> dict[str, Any]:
        """Summarise the entries the audience admits, store the variant (linked, embedded) and return its props."""
        sid = gs.summary_id(project_id, period_id, audience.base, audience.owner)
        dirty_before = gs.dirty(self.graph, sid)
        entries = gs.scope_entries(self.graph, project_id, period_id, audience.base, audience.owner)
        max_words = self.project_words if period_id is None else self.period_words
        # A project is summarised from its periods' events (level 2 from level 1), not from its raw entries.
        hemisphere = project_hemisphere(self.graph, [project_id])
        chosen = period_events(entries, self.period_words, hemisphere) if period_id is None else None
        llm = self.llm if use_llm else None
        feed = entries
        if llm is not None and sum(word_count(e["text"] or "") for e in entries) > LLM_INPUT_WORDS:
            digest = within(chosen, max_words * 3) if chosen is not None else events(entries, max_words * 3, hemisphere)
            feed = [{"text": render(digest)}]
        result = summarise(feed, max_words, llm, period_id or project_id, chosen, hemisphere)
        if result.producer == EXTRACTIVE and feed is not entries:
            result = extractive_summary(entries, max_words, result.fallback_reason, chosen, hemisphere)
        props = {
            "project_id": project_id,
            "scope": "project" if period_id is None else "period",
            "level": 2 if period_id is None else 1,
            "period_id": period_id,
            "base": audience.base,
            "owner": audience.owner,
            "audience": audience.key,
            "text": result.text,
            "producer": result.producer,
            "fallback_reason": result.fallback_reason,
            "entry_count": len(entries),
            "words": word_count(result.text),
            "cites": list(result.cites),
            "ranks": list(result.ranks),
            "dates": list(result.dates),
            "form": gs.FORM,
            "pending_llm": self.llm_configured and llm is None,
        }
        gs.store(self.graph, sid, project_id, period_id, props, [e["id"] for e in entries], dirty_before)
        if period_id is not None:  # only a period's vector is searched (the chapter context's choice of periods)
            self._embed(sid, result.text)
        return {"id": sid, **props}

    def _embed(self, sid: str, text: str) -> None:
        """A vector on a period's node, for the chapter context's search of periods; a failure leaves it without one."""
        if self.embedder is None or not text:
            return
        try:
            vector = self.embedder.embed_passages([text])[0]
        except EmbeddingError as exc:
            log.warning("summary %s stored without a vector: %s", sid, exc)
            return
        gs.set_vector(self.graph, sid, [float(x) for x in vector], self.embedder.model_id)

    def for_viewer(self, viewer: Viewer, project_id: str, period_id: str | None) -> dict[str, Any] | None:
        """The viewer's variant, fresh: a missing or stale one is rebuilt inline (extractive) before it is served.
        None when the viewer has no variant here (a witness outside their chapter)."""
        audience = audience_for(self.graph, viewer, project_id, period_id)
        if audience is None:
            return None
        sid = gs.summary_id(project_id, period_id, audience.base, audience.owner)
        return self._fresh(project_id, period_id, audience, viewer, gs.serve(self.graph, sid, viewer), sid)

    def for_viewer_many(self, viewer: Viewer, project_id: str, period_ids: list[str]) -> dict[str, dict[str, Any]]:
        """`for_viewer` of many periods, by period id (one without a variant for the viewer is absent): the
        audiences and the stored variants read at once, a missing or stale one rebuilt inline."""
        audiences = {p: a for p, a in gs.audiences_for(self.graph, viewer, project_id, period_ids).items() if a}
        sids = {p: gs.summary_id(project_id, p, a.base, a.owner) for p, a in audiences.items()}
        served = gs.serve_many(self.graph, list(sids.values()), viewer)
        out: dict[str, dict[str, Any]] = {}
        for period_id, sid in sids.items():
            row = self._fresh(project_id, period_id, audiences[period_id], viewer, served.get(sid), sid)
            if row is not None:
                out[period_id] = row
        return out

    def _fresh(
        self,
        project_id: str,
        period_id: str | None,
        audience: Audience,
        viewer: Viewer,
        row: dict[str, Any] | None,
        sid: str,
    ) -> dict[str, Any] | None:
        """`row` as served, or, when it is missing, stale or of another form, the variant rebuilt inline and served."""
        if row is None or row["stale"] or row["form"] != gs.FORM:
            self.build(project_id, period_id, audience, use_llm=False)
            row = gs.serve(self.graph, sid, viewer)
        return row

    def refresh_project(self, project_id: str, report: RefreshReport | None = None) -> RefreshReport:
        """Every variant members need (both bases, and each author's own), rebuilt when missing, stale or waiting
        for the model; summaries of periods that lost their entries are deleted."""
        report = report or RefreshReport()
        gs.delete_orphans(self.graph, project_id)
        for period_id in gs.project_scopes(self.graph, project_id):
            wanted = [Audience("circle"), Audience("inner")]
            authors = gs.scope_authors(self.graph, project_id, period_id)
            if period_id is not None:  # a period's base variant that admits none of its entries is never served
                written = set().union(*authors.values())
                wanted = [
                    a
                    for a in wanted
                    if written & ({"circle", "public", "intimate"} if a.base == "inner" else {"circle", "public"})
                ]
            for author, levels in authors.items():
                if author is None or not levels & {"private", "intimate"}:
                    continue
                role = role_of(self.graph, project_id, author)
                if role in ("owner", "coauthor") and "private" in levels:
                    wanted.append(Audience("inner", author))
                elif role == "reader":
                    wanted.append(Audience("circle", author))
            for audience in wanted:
                sid = gs.summary_id(project_id, period_id, audience.base, audience.owner)
                current = self.graph.read(
                    "MATCH (s:Summary {id: $id}) RETURN s.stale AS stale, s.pending_llm AS pending, s.form AS form",
                    {"id": sid},
                )
                if current and not current[0]["stale"] and not current[0]["pending"] and current[0]["form"] == gs.FORM:
                    continue
                self._count(self.build(project_id, period_id, audience), report)
        return report

    def refresh_stale(self, project_id: str | None = None, limit: int = 200) -> RefreshReport:
        """Rebuild the variants marked stale (or waiting for the model), at most `limit` of them."""
        report = RefreshReport()
        for row in gs.stale_summaries(self.graph, project_id, limit):
            self._count(self.build(row["project_id"], row["period_id"], Audience(row["base"], row["owner"])), report)
        return report

    def refresh(self, project_id: str | None = None) -> RefreshReport:
        report = RefreshReport()
        projects = [project_id] if project_id else [r["id"] for r in self.graph.read(PROJECTS_WITH_ENTRIES)]
        for pid in projects:
            self.refresh_project(pid, report)
        return report

    @staticmethod
    def _count(props: dict[str, Any], report: RefreshReport) -> None:
        report.built += 1
        if props["producer"] != EXTRACTIVE:
            report.abstractive += 1
        elif props["fallback_reason"]:
            report.fallbacks.append(f"{props['id']}: {props['fallback_reason']}")


def period_events(entries: list[dict[str, Any]], period_words: int, hemisphere: str = "north") -> list[Event]:
    """The events each period's summary tells (the same choice as its own summary, from the same admitted entries;
    the entries in no period as one more group), taken in turns: every period's most telling event, then every
    period's second, and so on, so that a project summary cut to its budget tells of every period."""
    groups: dict[str | None, list[dict[str, Any]]] = {}
    for entry in entries:
        groups.setdefault(entry.get("period_id"), []).append(entry)
    lists = [ranked(group, period_words, hemisphere) for group in groups.values()]
    return [ev for turn in itertools.zip_longest(*lists) for ev in turn if ev is not None]


def summaries_for(graph: Graph, settings: Settings, embedder: CheckedEmbedder | None) -> Summaries:
    """With the configured model: for the refresh and the worker (a person is not waiting on them)."""
    return Summaries(graph, embedder, chat_client(settings))


def serving_summaries(graph: Graph, settings: Settings, embedder: CheckedEmbedder | None) -> Summaries:
    """For request paths: inline builds are extractive, and marked for the refresh when a model is configured."""
    return Summaries(graph, embedder, None, llm_configured=bool(settings.llm_base_url and settings.llm_model))


class SummaryWorker:
    """The background refresh inside `memora serve`: rebuilds stale variants every `interval` seconds."""

    def __init__(
        self, graph: Graph, settings: Settings, embedder: CheckedEmbedder | None, interval: float | None = None
    ) -> None:
        self.summaries = summaries_for(graph, settings, embedder)
        self.interval = interval if interval is not None else settings.summary_refresh_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> RefreshReport:
        return self.summaries.refresh_stale()

    def loop(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.run_once()
            except Exception as exc:  # noqa: BLE001 - the worker outlives a bad cycle (the graph away, a model down)
                log.warning("summary refresh failed, retrying in %.0f s: %s", self.interval, exc)

    def start(self) -> None:
        self._thread = threading.Thread(target=self.loop, name="memora-summaries", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
