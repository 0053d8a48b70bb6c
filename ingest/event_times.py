"""When what an entry tells happened, read from its sentences by the date grammar the search reads questions with
(`inference.dates`), against the day the entry was written, not the day it was ingested: "ayer" in an entry of
2010-06-02 is 2010-06-01. An entry dated to a month reads "ayer" as any day of it; one dated more loosely, or not at
all, keeps only the times that name their own date ("en el verano de 2008").

Each expression becomes an interval with the grammar's precision ("day", "month", "season", "year", "range",
"approx"), so a vague one ("the summer after the move" is not read; "el verano pasado" is a season) stays wide. An
expression without a year ("en agosto", "at Christmas") is read as its latest occurrence that had begun by the
writing day, but a calendar day or days ("on the 10th of February", "del 3 al 5 de marzo") as the occurrence nearest
to it: days named without their year are as often a plan as a memory ("a trip on the 10th of February", written in
late January).
A bare month or holiday word that may be something else ("Mayo", "Pascua") is kept too; all with a lower weight,
never narrowed to a day the text does not give.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Protocol

from graph.db import Graph
from graph.members import project_hemisphere
from graph.textnorm import words
from inference.dates import calendar_math as cal
from inference.dates.temporal import DateContext, find_dates
from inference.dates.temporal_resolve import resolve_dates
from inference.dates.text import QueryText, fold_with_map, sanitise
from ingest.dates import DateRange
from ingest.linking import Mention

SENTENCE_END = re.compile(r"(?<=[.!?…;])\s+|\n+")
MAX_PER_TEXT = 32
# Part of every entry's content hash: a new reading of the times rewrites each entry once, at its next ingest or
# re-link (its vectors reused), instead of leaving entries written before it without their times.
EVENT_FORM = "told-6"
YEARLESS_WEIGHT = 0.5
AMBIGUOUS_WEIGHT = 0.3
GRAIN_DAYS = 31  # the grain of automatic periods: a summary line says when it was told when farther than this


@dataclass(frozen=True)
class EventTime:
    """An interval a sentence names, inclusive, with the grammar's precision, the words it was read from and the
    sentence that said it (whose names it dates: `mention_times`)."""

    start: date
    end: date
    precision: str
    words: str
    weight: float
    sentence: str = ""


class Hemispheres:
    """What a season means in each project, read once per project and only when a sentence names a season."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.known: dict[str, str] = {}

    def of(self, project_id: str) -> Callable[[], str]:
        def read() -> str:
            if project_id not in self.known:
                self.known[project_id] = project_hemisphere(self.graph, [project_id])
            return self.known[project_id]

        return read


# Two days far apart: an expression read alike against both names its own date ("en el verano de 2008"), one read
# otherwise needs a writing day ("ayer", "en agosto", "hace dos años").
_APART = (date(2001, 3, 14), date(2013, 10, 2))


def times_told(text: str, occurred: DateRange | None, hemisphere: str | Callable[[], str] = "north") -> list[EventTime]:
    """The times `text` tells against its entry's writing time, whatever that time's precision. A day reads every
    expression (`event_times`). A month or less reads each relative one against the first and the last day it may
    have been written, and keeps the interval that covers both, as approximate ("ayer" in July 2008: June 30 to July
    30). A longer range (a season, a year) or no date at all keeps only the expressions that name their own date."""
    if occurred is not None and occurred.precision == "day":
        return event_times(text, occurred.start, hemisphere)
    if occurred is not None and (occurred.end - occurred.start).days < GRAIN_DAYS:
        return [
            a
            if (a.start, a.end) == (b.start, b.end)
            else replace(a, start=min(a.start, b.start), end=max(a.end, b.end), precision="approx")
            for a, b in _paired(
                event_times(text, occurred.start, hemisphere), event_times(text, occurred.end, hemisphere)
            )
        ]
    first, second = (event_times(text, day, hemisphere) for day in _APART)
    return [a for a, b in _paired(first, second) if (a.start, a.end) == (b.start, b.end)]


def _paired(first: list[EventTime], second: list[EventTime]) -> list[tuple[EventTime, EventTime]]:
    """The same expression read against two days, matched by sentence, words and order (one read only once is
    dropped)."""
    seen: dict[tuple[str, str], int] = {}
    keyed: dict[tuple[str, str, int], EventTime] = {}
    for t in second:
        n = seen[(t.sentence, t.words)] = seen.get((t.sentence, t.words), -1) + 1
        keyed[(t.sentence, t.words, n)] = t
    seen.clear()
    out = []
    for t in first:
        n = seen[(t.sentence, t.words)] = seen.get((t.sentence, t.words), -1) + 1
        if (other := keyed.get((t.sentence, t.words, n))) is not None:
            out.append((t, other))
    return out


def event_props(told: list[EventTime]) -> dict[str, Any]:
    """A chunk's properties for the times it tells, parallel lists (none: all null, no property stored)."""
    if not told:
        return {"event_starts": None, "event_ends": None, "event_precisions": None, "event_weights": None}
    return {
        "event_starts": [t.start for t in told],
        "event_ends": [t.end for t in told],
        "event_precisions": [t.precision for t in told],
        "event_weights": [t.weight for t in told],
    }


def told_props(told: list[EventTime]) -> dict[str, Any]:
    """The entry's own copy of the intervals its chunks tell that a question's date may match (weight at least
    YEARLESS_WEIGHT; an ambiguous word is not enough), distinct, in date order: `told_starts`/`told_ends`."""
    spans = sorted({(t.start, t.end) for t in told if t.weight >= YEARLESS_WEIGHT})
    if not spans:
        return {"told_starts": None, "told_ends": None}
    return {"told_starts": [s for s, _ in spans], "told_ends": [e for _, e in spans]}


class NameFinder(Protocol):
    def find_in(self, text: str) -> Mapping[str, Any]: ...


def mention_times(names: NameFinder, mentions: Sequence[Mention], told: Sequence[EventTime]) -> dict[str, Any]:
    """Per linked entity id, the times told in the sentences that name it (weight at least YEARLESS_WEIGHT, as
    `told_props`): a sentence names an entity when a declared name or alias of it occurs there (`names.find_in`) or
    the name it was linked by does. An entity named only in sentences that tell no time has none."""
    by_sentence: dict[str, list[EventTime]] = {}
    for t in told:
        if t.weight >= YEARLESS_WEIGHT and t.sentence:
            by_sentence.setdefault(t.sentence, []).append(t)
    linked_by = {m.id: f" {' '.join(words(m.name))} " for m in mentions}
    out: dict[str, Any] = {}
    for sentence, times in by_sentence.items():
        folded = f" {' '.join(words(sentence))} "
        found = names.find_in(sentence)
        for m in mentions:
            if m.id in found or linked_by[m.id] in folded:
                out.setdefault(m.id, []).extend(times)
    return {i: told_props(times) for i, times in out.items()}


def line_date(
    text: str, written_on: str | None, hemisphere: str | Callable[[], str] = "north"
) -> tuple[str | None, str | None]:
    """When what a summary line says happened and, if it was told apart from then, the day it was told. Its first
    time of weight at least YEARLESS_WEIGHT that fits one year, as precisely as it says it (`YYYY-MM-DD`, `YYYY-MM`
    or `YYYY`), when that lies more than a period's grain (GRAIN_DAYS, a month) from the writing day: "en 2008"
    written in 2020 is `2008`, told on that day. Otherwise ("ayer", "last week", no time, no writing day) the
    writing date, and None."""
    try:
        day = date.fromisoformat(written_on or "")
    except ValueError:  # a month, a year, no date: no writing day
        return written_on, None
    for t in event_times(text, day, hemisphere):
        label = _label(t) if t.weight >= YEARLESS_WEIGHT else None
        if label is None:
            continue
        gap = (t.start - day).days if day < t.start else (day - t.end).days
        return (label, written_on) if gap > GRAIN_DAYS else (written_on, None)
    return written_on, None


def _label(t: EventTime) -> str | None:
    if t.start == t.end:
        return t.start.isoformat()
    if t.start.year != t.end.year:
        return None
    if (t.start, t.end) == cal.month_span(t.start.year, t.start.month):
        return f"{t.start.year:04d}-{t.start.month:02d}"
    return f"{t.start.year:04d}"


def event_times(text: str, written: date, hemisphere: str | Callable[[], str] = "north") -> list[EventTime]:
    """Every time expression of `text`, sentence by sentence, resolved against `written`, in the order written (at
    most MAX_PER_TEXT). `hemisphere` may be a callable, asked only when a sentence names a season."""
    ctx = DateContext(written, hemisphere, month_first=False)
    found: list[EventTime] = []
    for sentence in SENTENCE_END.split(text):
        if not sentence.strip() or not any(ch.isdigit() or ch.isalpha() for ch in sentence):
            continue
        orig = sanitise(sentence)
        folded, index = fold_with_map(orig)
        said = QueryText(orig, folded, index)
        read, _ = resolve_dates(find_dates(folded, ctx, []), said)
        years = [c for c in read if c.whole_year]
        anchored = [c for c in read if c.anchor is not None]
        # One year and year-less expressions in the same sentence ("en verano, en 2008"): that year's occurrence.
        in_year = years[0].lo.year if len(years) == 1 and anchored else None
        for cand in read:
            if in_year is not None and cand.whole_year:
                continue
            lo, hi, weight = cand.lo, cand.hi, 1.0
            if cand.anchor is not None:
                span = cal.in_year(cand.anchor, in_year) if in_year is not None else None
                if span is None:
                    weight = YEARLESS_WEIGHT
                    span = cal.nearest(cand.anchor, written) if cand.calendar_day else None
                if span is not None:
                    lo, hi = span
            if cand.weak:
                weight = min(weight, AMBIGUOUS_WEIGHT)
            read_from = said.slice(cand.text_start, cand.end).strip()
            found.append(EventTime(lo, hi, cand.precision, read_from, weight, sentence))
            if len(found) == MAX_PER_TEXT:
                return found
    return found
