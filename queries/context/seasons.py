"""A chapter theme that names a recurring time ("los veranos en Cádiz", "summers", "les étés", "every Christmas",
"las navidades"): the entries of every year's occurrence, and of the place or person when the theme names one,
grouped by year, as the chapter's periods.

The theme is read by the search door's own understanding of recurring dates (queries/search/query_constraints.py:
a bare season, month or holiday is any year's occurrence), after its plural is made singular, which that
understanding reads as one date ("los veranos" → "verano", "les étés" → "l'été"). The entries come from one search
through the door (`hybrid_search`) with that reading: every channel keeps to the occurrences and the named entities
and ranks only entries the viewer may see. Of its results, an entry falls in an occurrence when its own date does
(dated no more vaguely than a season) or a time its text tells lies within one; a search that found nothing there
and set the date or the names aside (`relaxed`), or fell back on the latest entries, found nothing for the theme.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from graph.db import Graph
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import kept_lexicons
from queries.search.channels import COARSE_DAYS
from queries.search.door import hybrid_search
from queries.search.query_constraints import parse_query
from queries.search.request import Scope, SearchOptions, SearchResult

ENTRIES = 200
"""How many entries the search gathers over all the occurrences (a chapter's budget keeps far fewer)."""
SEASON_ID = "season:"
"""Starts the id of a period that is one year's occurrence, not a declared chapter."""
MAX_EVENT_WORDS = 30

_A = "[aá]"
_E = "[eé]"
_PLURALS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), singular)
    for pattern, singular in (
        # French "été" alone is also a past participle: only "l'été" reads as the season.
        (rf"\b(?:(?:tous|toutes)\s+les|les|des|nos|mes|ces|chaque)\s+{_E}t{_E}s?\b", "l'été"),
        (rf"\b{_E}t{_E}s\b", "l'été"),
        (r"\bhivers\b", "hiver"),
        (r"\bautomnes\b", "automne"),
        (r"\bno[eë]ls\b", "Noël"),
        (r"\bveranos\b", "verano"),
        (r"\binviernos\b", "invierno"),
        (r"\bprimaveras\b", "primavera"),
        (r"\boto[ñn]os\b", "otoño"),
        (rf"\bpascu{_A}s\b", "Pascua"),
        (r"\bsummers\b", "summer"),
        (r"\bwinters\b", "winter"),
        (r"\bsprings\b", "spring"),
        (r"\bautumns\b", "autumn"),
        (r"\bchristmases\b", "Christmas"),
        (r"\beasters\b", "Easter"),
    )
)


@dataclass(frozen=True)
class Occurrence:
    """One year's occurrence of the recurring time and the visible entries that fall in it, best first."""

    start: date
    end: date
    entry_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Season:
    """A theme naming a recurring time: how it was said, and its occurrences that hold entries, oldest first."""

    said: str
    occurrences: list[Occurrence]

    def ranked(self) -> list[str]:
        """The entries, each year's best before any year's second best, so a budget reaches every year."""
        out: list[str] = []
        depth = max((len(o.entry_ids) for o in self.occurrences), default=0)
        for n in range(depth):
            out.extend(o.entry_ids[n] for o in self.occurrences if n < len(o.entry_ids))
        return out


def singular(theme: str) -> str:
    """The theme with a recurring time's plural made singular, the one form the understanding reads as a date."""
    for pattern, one in _PLURALS:
        theme = pattern.sub(one, theme)
    return theme


def season_of(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    viewer: Viewer,
    project_id: str,
    theme: str,
    now: date | None = None,
) -> Season | None:
    """The theme's recurring time and the visible entries of each occurrence; None when the theme names none (no
    season, month or holiday, or one anchored to a year: "el verano de 2008" is one period)."""
    today = now or date.today()
    text = singular(theme)
    lexicons = {project_id: kept_lexicons.lexicon(graph, project_id, viewer)}
    parsed = parse_query(graph, text, lexicons, [project_id], True, today, None)
    soft = parsed.constraints
    if not soft.occurrences:
        return None
    said = str((parsed.explain.get("temporal") or {}).get("text") or text)
    years = {
        soft.first_year + n: span for n, span in enumerate(soft.occurrences) if span is not None and span[0] <= today
    }
    options = SearchOptions(k=ENTRIES, candidates_per_channel=ENTRIES, explain=True, diversify=False, now=today)
    answer = hybrid_search(graph, embedder, settings, viewer, text, Scope(project_id=project_id), options)
    explained: dict[str, Any] = answer.query_understanding or {}
    if explained.get("relaxed") or answer.source in ("recency", "none") or answer.answer is not None:
        return Season(said, [])
    found: dict[int, list[str]] = {}
    for result in answer.results:
        year = _falls_in(result, years)
        if year is not None:
            found.setdefault(year, []).append(result.entry_id)
    occurrences = [Occurrence(years[y][0], years[y][1], ids) for y, ids in sorted(found.items())]
    return Season(said, occurrences)


def _falls_in(result: SearchResult, years: dict[int, tuple[date, date]]) -> int | None:
    """The year of the occurrence the entry falls in: its own date's (a date no vaguer than a season), else a
    time its text tells's; None when neither lies in one."""
    start, end = _day(result.occurred_on), _day(result.occurred_end or result.occurred_on)
    if start is not None and end is not None and end - start <= timedelta(days=COARSE_DAYS):
        for year in (start.year - 1, start.year, end.year):
            span = years.get(year)
            if span is not None and end >= span[0] and start <= span[1]:
                return year
    for told in result.told:
        lo, hi = _day(told.get("start")), _day(told.get("end"))
        if lo is None or hi is None:
            continue
        for year in (lo.year - 1, lo.year):
            span = years.get(year)
            if span is not None and lo >= span[0] and hi <= span[1]:
                return year
    return None


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None


def periods(
    season: Season, texts: dict[str, dict[str, Any]], budget: int, count: Callable[[str], int]
) -> list[dict[str, Any]]:
    """One period per occurrence, oldest first, named by how the theme said it and its year, its events the first
    sentence of its entries: each year's first event before any year's second, while they fit in `budget` tokens."""
    lines: list[list[dict[str, str]]] = [[] for _ in season.occurrences]
    cost = [0 for _ in season.occurrences]  # each period's summary, as counted once its lines are joined
    depth = max((len(o.entry_ids) for o in season.occurrences), default=0)
    for n in range(depth):
        for k, o in enumerate(season.occurrences):
            row = texts.get(o.entry_ids[n]) if n < len(o.entry_ids) else None
            line = _first_sentence(row["text"] or "") if row else ""
            longer = count("\n".join([*(e["text"] for e in lines[k]), line])) if line else 0
            if line and sum(cost) - cost[k] + longer <= budget:
                cost[k] = longer
                lines[k].append({"text": line, "entry_id": o.entry_ids[n]})
    return [
        {
            "id": f"{SEASON_ID}{o.start.isoformat()}/{o.end.isoformat()}",
            "name": f"{season.said} {o.start.year}",
            "start": o.start.isoformat(),
            "end": o.end.isoformat(),
            "summary": "\n".join(e["text"] for e in kept),
            "events": kept,
        }
        for o, kept in zip(season.occurrences, lines, strict=True)
    ]


def _first_sentence(text: str) -> str:
    first = re.split(r"(?<=[.!?])\s", " ".join(text.split()), maxsplit=1)[0]
    words = first.split()
    return first if len(words) <= MAX_EVENT_WORDS else " ".join(words[:MAX_EVENT_WORDS]) + " …"
