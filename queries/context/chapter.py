"""The chapter generator's context: project summary, the periods that match a theme, and inside them the entries that
best support it, in date order with citation ids, within a token budget — all as the caller sees it.

Descending only where needed (docs/summaries.md, "Chapter context"): the project summary (level 2) always; then the
periods (level 1), matched by id, by the words of their name, or by the similarity of the theme to the viewer's
variant of each period summary; then entries (level 0) through the one search door (`hybrid_search`, filtered to each
period), whose full texts are read again under `CAN_SEE`. A draft cites only `[E<n>]` markers of the bundle; any
other marker a model writes is removed, so a draft cannot cite an entry the caller cannot see.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from graph import summaries as gs
from graph.db import Graph
from graph.ids import period_id as chapter_id
from graph.settings import Settings
from graph.summaries import EXTRACTIVE
from graph.textnorm import words
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder, EmbeddingError
from inference.providers.llm import ChatClient, ChatMessage, LLMError
from queries.context import seasons
from queries.context.tokens import best_lines, counter_for, fit, kept_line
from queries.search.door import hybrid_search
from queries.search.request import Filters, Scope, SearchOptions

PROJECT_SHARE = 0.2
PERIODS_SHARE = 0.2
MAX_PERIODS = 3
SEMANTIC_MARGIN = 0.02
ENTRIES_PER_PERIOD = 30
MIN_CUT_TOKENS = 40
_MARKER = re.compile(r"\[(E\d+)\]")


class Summaries(Protocol):
    """The viewer's variant of a scope's summary, fresh (ingest/summary_jobs.py builds a missing or stale one)."""

    def for_viewer(self, viewer: Viewer, project_id: str, period_id: str | None) -> dict[str, Any] | None: ...

    def for_viewer_many(self, viewer: Viewer, project_id: str, period_ids: list[str]) -> dict[str, dict[str, Any]]: ...


_THEME_STOP = {
    "toda",
    "todo",
    "todos",
    "todas",
    "la",
    "el",
    "los",
    "las",
    "de",
    "del",
    "en",
    "era",
    "epoca",
    "the",
    "of",
    "in",
    "all",
    "whole",
    "years",
    "anos",
    "les",
    "des",
    "du",
    "toute",
    "tout",
}


@dataclass
class ChapterContext:
    project: dict[str, Any]
    periods: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    used_tokens: int
    budget_tokens: int
    tokenizer: str
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _theme_words(theme: str) -> set[str]:
    return {w for w in words(theme) if w not in _THEME_STOP and len(w) > 2}


def _named(project_id: str, theme: str, periods: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The period the theme names exactly: its id, or any spelling of its name."""
    return [p for p in periods if theme.strip() == p["id"] or chapter_id(project_id, theme) == p["id"]][:1]


def _match_periods(
    graph: Graph,
    embedder: CheckedEmbedder,
    summaries: Summaries,
    viewer: Viewer,
    project_id: str,
    theme: str,
    periods: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The periods the theme names (id, any spelling of the name, or words of the name), else those whose summary is
    nearest to it."""
    exact = _named(project_id, theme, periods)
    if exact:
        return exact
    wanted = _theme_words(theme)
    overlap = {p["id"]: len(wanted & set(words(p["name"]))) for p in periods}
    best = max(overlap.values(), default=0)
    if best > 0:
        return [p for p in periods if overlap[p["id"]] == best][:MAX_PERIODS]
    try:
        vector = [float(x) for x in embedder.embed_query(theme)]
    except EmbeddingError:
        return []
    by_id = {p["id"]: p for p in periods}
    served = summaries.for_viewer_many(viewer, project_id, list(by_id))  # built (and embedded) if missing or stale
    ids = {row["id"]: by_id[period_id] for period_id, row in served.items()}
    scores = gs.period_scores(graph, list(ids), vector, embedder.model_id)
    if not scores:
        return []
    top = max(scores.values())
    ranked = sorted((s, ids[sid]["start"] or "", sid) for sid, s in scores.items() if s >= top - SEMANTIC_MARGIN)
    ranked.sort(key=lambda t: -t[0])
    return [ids[sid] for _, _, sid in ranked[:MAX_PERIODS]]


def chapter_context(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    summaries: Summaries,
    viewer: Viewer,
    project_id: str,
    theme: str,
    budget_tokens: int,
) -> ChapterContext:
    """The bundle for `viewer` (a member: raises NotMember otherwise); `used_tokens <= budget_tokens` always. A theme
    naming a recurring time (queries/context/seasons.py) has its occurrences as periods, one a year, unless it names
    a chapter exactly; when nothing the viewer may see falls in one, the chapter is the theme's nearest, as any."""
    count, tokenizer = counter_for(embedder)
    project_row = summaries.for_viewer(viewer, project_id, None)  # the membership check (NotMember)
    periods = gs.visible_periods(graph, project_id, viewer)
    season = (
        None
        if _named(project_id, theme, periods)
        else seasons.season_of(graph, embedder, settings, viewer, project_id, theme)
    )
    project_text, _ = fitted(project_row or {}, int(budget_tokens * PROJECT_SHARE), count)
    used = count(project_text)
    if season is not None and season.occurrences:
        ranked = season.ranked()
        texts = gs.visible_texts(graph, ranked, viewer)
        out_periods = seasons.periods(season, texts, int(budget_tokens * PERIODS_SHARE), count)
        used += sum(count(p["summary"]) for p in out_periods)
        warnings = [f"the theme names a recurring time ({season.said!r}): each period is one year's occurrence"]
    else:
        chosen = _match_periods(graph, embedder, summaries, viewer, project_id, theme, periods)
        warnings = [] if chosen else ["no period matches the theme: entries come from the whole project"]
        if season is not None:
            warnings.insert(0, f"nothing you can see falls in {season.said!r} as the theme names it")
        out_periods = []
        share = int(budget_tokens * PERIODS_SHARE) // max(1, len(chosen))
        for p in sorted(chosen, key=lambda p: (p["start"] or "9999", p["name"])):
            text, events = fitted(summaries.for_viewer(viewer, project_id, p["id"]) or {}, share, count)
            used += count(text)
            out_periods.append(
                {
                    "id": p["id"],
                    "name": p["name"],
                    "start": p["start"],
                    "end": p["end"],
                    "summary": text,
                    "events": events,
                }
            )
        ranked = _searched(graph, embedder, settings, viewer, project_id, theme, [p["id"] for p in chosen])
        texts = gs.visible_texts(graph, ranked, viewer)
    picked = _picked(ranked, texts, budget_tokens - used, count)
    used += sum(count(e["text"]) for e in picked)
    picked.sort(key=lambda e: (e["occurred_on"] or "9999", e["entry_id"]))
    for i, e in enumerate(picked, start=1):
        e["citation"] = f"E{i}"
    markers = {e["entry_id"]: e["citation"] for e in picked}
    for period in out_periods:
        for event in period["events"]:
            event["citation"] = markers.get(event["entry_id"])
    project = {"summary": project_text, "producer": (project_row or {}).get("producer", EXTRACTIVE)}
    return ChapterContext(project, out_periods, picked, used, budget_tokens, tokenizer, warnings)


def _searched(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    viewer: Viewer,
    project_id: str,
    theme: str,
    period_ids: list[str],
) -> list[str]:
    """The entries the theme finds in each chosen period (or the whole project), best first, each once."""
    ranked: list[str] = []
    scopes: list[str | None] = [*period_ids] or [None]
    for period_id in scopes:
        resp = hybrid_search(
            graph,
            embedder,
            settings,
            viewer,
            theme,
            Scope(project_id=project_id),
            SearchOptions(k=ENTRIES_PER_PERIOD, filters=Filters(period_id=period_id)),
        )
        ranked.extend(r.entry_id for r in resp.results if r.entry_id not in ranked)
    return ranked


def _picked(
    ranked: list[str], texts: dict[str, dict[str, Any]], budget: int, count: Callable[[str], int]
) -> list[dict[str, Any]]:
    """The entries, in rank order, whose full texts fit in `budget` tokens; the best one cut rather than none."""
    picked: list[dict[str, Any]] = []
    used = 0
    for entry_id in ranked:
        row = texts.get(entry_id)
        if row is None:
            continue
        remaining = budget - used
        text = row["text"] or ""
        cost = count(text)
        if cost > remaining:
            if picked or remaining < MIN_CUT_TOKENS:
                continue
            text = fit(text, remaining, count)  # the best entry, cut, rather than none at all
            cost = count(text)
            if not text or cost > remaining:
                continue
        used += cost
        picked.append(
            {"entry_id": entry_id, "occurred_on": row["occurred_on"], "author_id": row["author_id"], "text": text}
        )
    return picked


def fitted(row: dict[str, Any], budget: int, count: Callable[[str], int]) -> tuple[str, list[dict[str, Any]]]:
    """A summary within `budget` tokens and the events it then tells, each with the entry it cites. An extractive
    summary keeps its most telling lines whole (its ranks), in date order; a model's text, which cites nothing, is
    cut at a word."""
    text = row.get("text") or ""
    lines, cites = text.splitlines(), list(row.get("cites") or [])
    ranks, dates = list(row.get("ranks") or []), list(row.get("dates") or [])
    if not text or not len(lines) == len(cites) == len(ranks) == len(dates):
        return fit(text, budget, count), []
    whole = count(text) <= budget
    kept = list(range(len(lines))) if whole else best_lines(lines, ranks, dates, lambda t: count(t) <= budget)
    events = [{"text": kept_line(lines, dates, kept, k), "entry_id": cites[n]} for k, n in enumerate(kept)]
    return "\n".join(e["text"] for e in events), events


@dataclass
class Draft:
    text: str
    producer: str
    citations: dict[str, str]  # marker -> entry id, only markers the text uses
    fallback_reason: str | None = None


def outline(ctx: ChapterContext, theme: str) -> str:
    """A dated outline of the bundle: what a writer starts from without a model. Each period in date order with its
    events (marked with the citation of their entry when the bundle carries it), then the bundle's other entries."""
    lines = [f"# {theme}"]
    if ctx.project["summary"]:
        lines.append(ctx.project["summary"])
    told: set[str] = set()
    for p in ctx.periods:
        lines.append(f"## {p['name']} ({p['start'] or '?'} – {p['end'] or '?'})")
        for event in p.get("events") or []:
            marker = f" [{event['citation']}]" if event.get("citation") else ""
            lines.append(f"- {event['text']}{marker}")
            told.add(event["entry_id"])
    rest = [e for e in ctx.entries if e["entry_id"] not in told]
    if rest and ctx.periods:
        lines.append("## Más recuerdos")
    for e in rest:
        first = re.split(r"(?<=[.!?])\s", " ".join(e["text"].split()), maxsplit=1)[0]
        lines.append(f"- {e['occurred_on'] or 'sin fecha'}: {first} [{e['citation']}]")
    return "\n".join(lines)


def draft(ctx: ChapterContext, theme: str, llm: ChatClient | None) -> Draft:
    """A first-person draft by the model, citing `[E<n>]`; without a model (or when it fails), the dated outline."""
    known = {e["citation"]: e["entry_id"] for e in ctx.entries}
    if llm is None or not ctx.entries:
        text = outline(ctx, theme)
        return Draft(text, "outline", _used(text, known))
    bundle = "\n".join(f"[{e['citation']}] {e['occurred_on'] or 'sin fecha'}: {e['text']}" for e in ctx.entries)
    periods = "\n".join(f"{p['name']}: {p['summary']}" for p in ctx.periods)
    messages = [
        ChatMessage(
            "system",
            "Escribe en primera persona un primer borrador de capítulo de memorias a partir solo "
            "de estos recuerdos. Conserva nombres propios y fechas. Cita cada hecho con su marca "
            "entre corchetes, por ejemplo [E1]; no uses otras marcas ni inventes hechos.",
        ),
        ChatMessage("user", f"Tema: {theme}\n\nResumen: {ctx.project['summary']}\n\n{periods}\n\n{bundle}"),
    ]
    try:
        text = llm.complete(messages, max_tokens=1200, temperature=0.3)
    except LLMError as exc:
        text = outline(ctx, theme)
        return Draft(text, "outline", _used(text, known), str(exc))
    cleaned = _MARKER.sub(lambda m: m.group(0) if m.group(1) in known else "", text)
    return Draft(cleaned, llm.name, _used(cleaned, known))


def _used(text: str, known: dict[str, str]) -> dict[str, str]:
    return {m: known[m] for m in dict.fromkeys(_MARKER.findall(text)) if m in known}
