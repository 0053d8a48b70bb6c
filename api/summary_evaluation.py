"""Summary evaluation: how many of the life events a period tells its summary lets a reader recover.

Coverage, as `memora eval summaries` reports it: an event counts as recovered when at least half of its content
words appear in one line of the summary. Content words are the event's words folded (case and accents dropped),
without the stop words of English, Spanish and French and without words of one or two letters, each cut to a light
stem (a plural, "-ing", "-ed" and the like), so "attends" meets "attended" and "grupos" meets "grupo". The speaker's
name counts like any word: a line that says who did it carries it. The lead baseline is the period's first sentences
in order, within the same budget and written the same way (each after its speaker), so the two differ only in which
sentences they choose.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from api.evaluation import EVAL_USER, ingest_dataset, namespace
from graph import summaries as gs
from graph.db import Graph
from graph.members import ensure_owner
from graph.periods import automatic_period
from graph.summaries import audience_for
from graph.textnorm import words
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.summarise import PROJECT_WORDS, Event, render
from ingest.summary_jobs import Summaries
from ingest.telling import ANNOTATION, SENTENCE_BREAK, STOP_WORDS

_SUFFIXES = ("ing", "ed", "es", "s")
RECOVERED_SHARE = 0.5


def stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_terms(text: str) -> set[str]:
    return {stem(w) for w in words(text) if len(w) > 2 and w not in STOP_WORDS and not w.isdigit()}


def recovered(event: str, lines: Iterable[str]) -> bool:
    """At least half of the event's content words in one line."""
    wanted = content_terms(event)
    if not wanted:
        return False
    return any(len(wanted & content_terms(line)) >= RECOVERED_SHARE * len(wanted) for line in lines)


@dataclass(frozen=True)
class Scored:
    events: int
    recovered: int

    @property
    def coverage(self) -> float:
        return round(self.recovered / self.events, 4) if self.events else 0.0


def score(events: list[str], summary: str) -> Scored:
    lines = [line for line in summary.splitlines() if line.strip()]
    return Scored(len(events), sum(1 for e in events if recovered(e, lines)))


def lead(entries: list[dict[str, object]], max_words: int) -> str:
    """The first sentences of the entries in their order, within `max_words`, each after its speaker."""
    several = len({e.get("author_id") for e in entries if e.get("author_id")}) > 1
    chosen: list[Event] = []
    used = 0
    for e in entries:
        body = ANNOTATION.sub(" ", str(e.get("text") or ""))
        for raw in (s.strip() for s in SENTENCE_BREAK.split(body)):
            if not raw:
                continue
            cost = len(raw.split()) + (1 if several else 0)
            if used + cost > max_words:
                return render(chosen)
            who = e.get("author_id") if several else None
            chosen.append(Event(_str(e.get("occurred_on")), _str(who), raw, _str(e.get("id"))))
            used += cost
    return render(chosen)


def _str(value: object) -> str | None:
    return None if value is None else str(value)


def session_period(project_id: str, session: object) -> str:
    """The automatic chapter a session's entries are put in (graph/periods.py)."""
    found = automatic_period(project_id, None, None, session)
    if found is None:
        raise ValueError(f"no session chapter for session {session!r}")
    return found.id


def run_summary_eval(
    graph: Graph,
    embedder: CheckedEmbedder,
    entries: Path,
    events: Path,
    budget: int,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Ingest `entries` (each session its automatic chapter), build each session's period summary within `budget`
    words as the projects' owner sees it, and score it and the lead baseline against the session's events in
    `events`; the project summaries likewise against all their events."""
    prefix = namespace(entries, "sumeval")
    report = ingest_dataset(graph, embedder, entries, prefix)
    wanted = [json.loads(line) for line in events.open(encoding="utf-8") if line.strip()]
    projects = sorted({prefix + w["project_id"] for w in wanted})
    for project in projects:  # an events file may name a project its entries file has no entry of
        ensure_owner(graph, project, EVAL_USER)
    viewer = Viewer(user_id=EVAL_USER)
    summaries = Summaries(graph, None, period_words=budget)
    sessions: list[dict[str, Any]] = []
    totals: dict[str, dict[str, list[int]]] = defaultdict(lambda: {"summary": [0, 0], "lead": [0, 0]})
    for item in wanted:
        project = prefix + item["project_id"]
        period = session_period(project, item["session"])
        audience = audience_for(graph, viewer, project, period)
        texts = [e["text"] for e in item["events"]]
        if audience is None:
            continue
        built = summaries.build(project, period, audience, use_llm=False)
        baseline = lead(gs.scope_entries(graph, project, period, audience.base, audience.owner), budget)
        ours, theirs = score(texts, built["text"]), score(texts, baseline)
        for name, scored in (("summary", ours), ("lead", theirs)):
            totals[item["project_id"]][name][0] += scored.recovered
            totals[item["project_id"]][name][1] += scored.events
        sessions.append(
            {
                "project_id": item["project_id"],
                "session": item["session"],
                "events": len(texts),
                "summary": built["text"],
                "cites": [c.removeprefix(prefix) for c in built["cites"]],
                "words": built["words"],
                "coverage": ours.coverage,
                "lead": baseline,
                "lead_coverage": theirs.coverage,
            }
        )
        if progress is not None:
            progress(1)
    project_scores = []
    wide = Summaries(graph, None, period_words=budget, project_words=PROJECT_WORDS)
    for project in projects:
        audience = audience_for(graph, viewer, project, None)
        if audience is None:
            continue
        texts = [e["text"] for w in wanted if prefix + w["project_id"] == project for e in w["events"]]
        built = wide.build(project, None, audience, use_llm=False)
        scored = score(texts, built["text"])
        project_scores.append(
            {"project_id": project.removeprefix(prefix), "events": scored.events, "coverage": scored.coverage}
        )
    return {
        "budget": budget,
        "coverage": _share(totals, "summary"),
        "lead_coverage": _share(totals, "lead"),
        "per_project": {
            p: {"events": t["summary"][1], "coverage": _ratio(t["summary"]), "lead_coverage": _ratio(t["lead"])}
            for p, t in sorted(totals.items())
        },
        "project_summaries": project_scores,
        "sessions": sessions,
        "ingest": {"written": report.written, "unchanged": report.unchanged, "errors": len(report.errors)},
    }


def _ratio(pair: list[int]) -> float:
    return round(pair[0] / pair[1], 4) if pair[1] else 0.0


def _share(totals: dict[str, dict[str, list[int]]], name: str) -> float:
    return _ratio([sum(t[name][0] for t in totals.values()), sum(t[name][1] for t in totals.values())])
