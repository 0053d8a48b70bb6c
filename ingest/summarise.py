"""The two summarisers of a set of entries: extractive (default, no model) and abstractive (an OpenAI-compatible chat
model, `inference.providers.llm`). Both see only the entries they are given: choosing those (the audience) is the
caller's job, and nothing here can widen it.

Extractive: a list of events, each a line that says when, who (when the scope has several authors) and what, taken
from one entry, whose id the summary cites. The candidate lines are the pieces of each entry's sentences, cut where
a sentence joins two things it says, that may tell something (`ingest/telling.py`): never a question, a greeting or
a reaction ("Wow, that's cool!"), nor an annotation of the recording ("[image: …]"); a short turn's pieces stay
together. Lines are chosen greedily for what they add (people, places, dates, the scope's recurring themes, words
not yet said) and how central they are, for an act narrated by who lived it ("I signed up for a pottery class
yesterday") rather than words addressed to the listener, and for news told early in a day's turns, per word spent;
a near-duplicate of a chosen line is left out; the lines are printed in date order, each date once.

Abstractive: one prompt that asks to keep names and dates; any failure falls back to the extractive text, and the
result says which produced it and why.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from graph.summaries import EXTRACTIVE
from graph.textnorm import fold, words
from inference.providers.llm import ChatClient, ChatMessage, LLMError
from ingest.event_times import line_date
from ingest.language import detect_language
from ingest.telling import (
    ANNOTATION,
    DATE_WORDS,
    MONTHS,
    PHATIC,
    SENTENCE_BREAK,
    STOP_WORDS,
    content,
    joined,
    opened,
    pieces,
    tells,
    voice,
)

PERIOD_WORDS = 400
PROJECT_WORDS = 800
NEAR_DUPLICATE = 0.6
UNIT_WORDS = 40  # a turn whose telling pieces hold no more words is one line
# The prior of news told early (`_earliness`), added to a line's weight like its voice (`ingest/telling.voice`).
EARLY_WEIGHT = 2.0
FIRST_TURN_WEIGHT = 1.5


@dataclass(frozen=True)
class Summary:
    text: str
    producer: str  # "extractive" or "llm:<model>"
    fallback_reason: str | None = None
    cites: tuple[str, ...] = ()  # the entry each event line was taken from, in the order of the lines
    ranks: tuple[int, ...] = ()  # each line's place in the order the lines were chosen (0: the most telling)
    dates: tuple[str, ...] = ()  # each line's date ("" when none); `render` writes a date once per run of lines


@dataclass(frozen=True)
class Event:
    """One thing that happened, as an entry tells it: when, who tells it, the sentence, and the entry it cites."""

    date: str | None
    who: str | None
    text: str
    entry_id: str | None
    position: tuple[int, int] = (0, 0)  # its entry's place in the scope, its sentence's in the entry
    told_on: str | None = None  # the day it was told, when apart from `date`: rendered, not counted, like the date
    language: str | None = None  # its entry's ("es", "en", "fr"), when it says when it was told: the note's words


@dataclass(frozen=True)
class _Sentence:
    entry: int
    pos: int
    text: str
    date: str | None
    features: frozenset[str]
    words: frozenset[str]
    length: int
    weight: float = 0.0  # centrality: how much of the scope's recurring content it carries
    told_on: str | None = None  # the day it was told, when that is apart from `date` (`line_date`)


def word_count(text: str) -> int:
    return len(text.split())


def _sentences(entries: list[dict[str, Any]], themes: set[str], hemisphere: str) -> list[_Sentence]:
    """The candidate lines: per entry, its sentences that may tell an event, together when they are short (a turn of
    a conversation tells one thing over two or three sentences), one by one otherwise. A line is dated by the time it
    tells where it tells one (`line_date`), else by its entry's date."""
    out: list[_Sentence] = []
    early = _earliness(entries)
    for i, e in enumerate(entries):
        names = [("person", n) for n in e.get("persons") or []] + [("place", n) for n in e.get("places") or []]
        body = ANNOTATION.sub(" ", str(e.get("text") or ""))
        telling: list[tuple[int, int, str]] = []  # (piece's place, its sentence's, text)
        for pos, (sentence, raw) in enumerate(pieces(body)):
            said = {t for _, _, t in telling}
            if raw and raw not in said and any(ch.isalnum() for ch in raw) and tells(raw, words(raw)):
                telling.append((pos, sentence, raw))
        units = [(pos, raw) for pos, _, raw in telling]
        if telling and sum(len(raw.split()) for _, _, raw in telling) <= UNIT_WORDS:
            units = [(telling[0][0], joined(telling))]
        else:
            units = [(pos, opened(raw)) for pos, raw in units]
        for pos, raw in units:
            ws = words(raw)
            folded = fold(raw)
            feats = {f"{kind}:{fold(name)}" for kind, name in names if fold(name) in folded}
            feats |= {f"date:{m.group(0)}" for m in DATE_WORDS.finditer(raw)}
            feats |= {f"date:{w}" for w in ws if w in MONTHS}
            feats |= {f"theme:{w}" for w in ws if w in themes}
            when, told_on = line_date(raw, e.get("occurred_on"), hemisphere)
            out.append(
                _Sentence(
                    i,
                    pos,
                    raw,
                    when,
                    frozenset(feats),
                    frozenset(content(ws)),
                    len(raw.split()),
                    voice(raw, set(ws)) + early[i],
                    told_on,
                )
            )
    return _centred(out)


def _earliness(entries: list[dict[str, Any]]) -> list[float]:
    """A prior for each entry: news are told first. Among the entries of one day (the turns of a session), the early
    ones and each author's first one; a day of one entry (a diary's) gets the whole prior, so it never tilts a
    period towards its first days."""
    day_size = Counter(e.get("occurred_on") for e in entries)
    seen: Counter[Any] = Counter()
    authors: set[tuple[Any, Any]] = set()
    out = []
    for e in entries:
        day = e.get("occurred_on")
        share = seen[day] / day_size[day]
        first = (day, e.get("author_id")) not in authors
        out.append(EARLY_WEIGHT * (1 - share) + (FIRST_TURN_WEIGHT if first else 0.0))
        seen[day] += 1
        authors.add((day, e.get("author_id")))
    return out


def _centred(sentences: list[_Sentence]) -> list[_Sentence]:
    """Each line's weight: how much of the scope's recurring content it carries (each word weighted by the log of
    how many lines use it; a word of one line counts nothing), plus its voice (`_voice`)."""
    df: Counter[str] = Counter()
    for s in sentences:
        df.update(s.words)
    out = []
    for s in sentences:
        shared = math.fsum(math.log(df[w]) for w in s.words if df[w] > 1)  # the same sum in any word order
        centrality = shared / (1 + math.log(1 + len(s.words)))
        out.append(replace(s, weight=s.weight + centrality))
    return out


def _themes(entries: list[dict[str, Any]], n: int = 24) -> set[str]:
    """Content words that recur across entries (document frequency >= 2, or the top ones of a single entry), counted
    in what the entries tell (a word only asked about or exclaimed is no theme)."""
    df: Counter[str] = Counter()
    for e in entries:
        told = [
            raw for raw in SENTENCE_BREAK.split(ANNOTATION.sub(" ", str(e.get("text") or ""))) if tells(raw, words(raw))
        ]
        df.update(
            {
                w
                for w in words(" ".join([e.get("title") or "", *told]))
                if len(w) > 3 and w not in STOP_WORDS and w not in PHATIC and not w.isdigit()
            }
        )
        df.update(fold(t) for t in e.get("tags") or [])
    ordered = sorted(df.items(), key=lambda wc: (-wc[1], wc[0]))  # ties by the word, not by a set's order
    common = [w for w, c in ordered[: n * 2] if c >= 2 or len(entries) == 1]
    return set(common[:n])


def events(entries: list[dict[str, Any]], max_words: int, hemisphere: str = "north") -> list[Event]:
    """The sentences that tell what happened, chosen for what they add (people, places, dates, recurring themes) and
    how central they are, near-duplicates left out, in the order they happened, within `max_words` (each line's
    speaker counted)."""
    return in_date_order(ranked(entries, max_words, hemisphere))


def in_date_order(found: list[Event]) -> list[Event]:
    return sorted(found, key=lambda e: (e.date or "9999", e.position))


def within(found: list[Event], max_words: int) -> list[Event]:
    """The first of `found` (in their order) that fit `max_words`, in date order."""
    kept, used = [], 0
    for event in found:
        cost = word_count(event.text) + (1 if event.who else 0)
        if used + cost <= max_words:
            kept.append(event)
            used += cost
    return in_date_order(kept)


def ranked(entries: list[dict[str, Any]], max_words: int, hemisphere: str = "north") -> list[Event]:
    """`events`, in the order they were chosen (the most telling first); `hemisphere`: the project's, for seasons."""
    if not entries:
        return []
    authors = {e.get("author_id") for e in entries if e.get("author_id")}
    several = len(authors) > 1
    chosen: list[_Sentence] = []
    covered: set[str] = set()
    used = 0
    remaining = _sentences(entries, _themes(entries), hemisphere)
    while remaining and used < max_words - 2:
        snapshot = frozenset(covered)
        best = max(remaining, key=partial(_gain, covered=snapshot))
        remaining.remove(best)
        cost = best.length + (1 if several else 0)
        if used + cost > max_words:
            continue
        if any(_jaccard(best.words, c.words) >= NEAR_DUPLICATE for c in chosen):
            continue
        chosen.append(best)
        covered |= best.features | {f"word:{w}" for w in best.words}
        used += cost
    return [
        Event(
            s.date,
            entries[s.entry].get("author_id") if several else None,
            s.text if s.text[-1] in ".!…" else s.text + ".",
            entries[s.entry].get("id"),
            (s.entry, s.pos),
            s.told_on,
            detect_language(str(entries[s.entry].get("text") or ""), "en") if s.told_on else None,
        )
        for s in chosen
    ]


# The note on a line told apart from when it happened, in its entry's language.
TOLD_ON = {"es": "contado el", "en": "told on", "fr": "raconté le"}


def render(found: list[Event]) -> str:
    """One line per event, each date once before its events: "2023-05-08: Caroline: I went to a support group.", and
    when it was told if apart, in its entry's language: "2008: En 2008 la abuela vivía en Berlín (contado el
    2020-05-04)."."""
    lines: list[str] = []
    last_date: str | None = None
    for event in found:
        head = f"{event.who}: " if event.who else ""
        note = TOLD_ON.get(event.language or "en", TOLD_ON["en"])
        said = f"{event.text[:-1]} ({note} {event.told_on}){event.text[-1]}" if event.told_on else event.text
        if event.date and event.date != last_date:
            lines.append(f"{event.date}: {head}{said}")
            last_date = event.date
        else:
            lines.append(f"{head}{said}")
    return "\n".join(lines)


def extractive(entries: list[dict[str, Any]], max_words: int, hemisphere: str = "north") -> str:
    """The events of `entries` as text (`events`, then `render`)."""
    return render(events(entries, max_words, hemisphere))


def _gain(s: _Sentence, covered: frozenset[str]) -> tuple[float, int, int]:
    """New people, places, dates, themes and words, and centrality, per word (a short sentence that adds as much
    wins), then earliest."""
    new_words = sum(1 for w in s.words if f"word:{w}" not in covered)
    value = 2 * len(s.features - covered) + 0.5 * new_words + s.weight
    return (value / (1 + s.length / 25), -s.entry, -s.pos)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def _prompt(entries: list[dict[str, Any]], max_words: int, scope_name: str) -> list[ChatMessage]:
    lines = []
    for e in entries:
        who = f" ({e['author_id']})" if e.get("author_id") else ""
        title = f" {e['title']}." if e.get("title") else ""
        lines.append(f"[{e.get('occurred_on') or 'sin fecha'}]{who}{title} {e.get('text') or ''}")
    system = (
        f"Destila estos recuerdos en {max_words} palabras como máximo, conservando los nombres propios y las "
        "fechas exactamente como aparecen, en orden cronológico. No inventes nada que no esté en el texto. "
        "Responde en el idioma de los recuerdos, sin preámbulo."
    )
    return [ChatMessage("system", system), ChatMessage("user", f"{scope_name}\n\n" + "\n".join(lines))]


def summarise(
    entries: list[dict[str, Any]],
    max_words: int,
    llm: ChatClient | None = None,
    scope_name: str = "",
    chosen: list[Event] | None = None,
    hemisphere: str = "north",
) -> Summary:
    """The abstractive summary when a model is configured and answers; otherwise (or on failure) the extractive,
    which takes `chosen` in order when given (a project's events, from its periods) instead of choosing."""
    if llm is None or not entries:
        return extractive_summary(entries, max_words, chosen=chosen, hemisphere=hemisphere)
    try:
        text = llm.complete(_prompt(entries, max_words, scope_name), max_tokens=max_words * 3)
    except LLMError as exc:
        return extractive_summary(entries, max_words, str(exc), chosen, hemisphere)
    text = " ".join(text.split())
    if word_count(text) > max_words * 1.25:  # a model that ignored the length: cut at a word boundary
        text = " ".join(text.split()[:max_words]) + " …"
    return Summary(text, llm.name)


def extractive_summary(
    entries: list[dict[str, Any]],
    max_words: int,
    reason: str | None = None,
    chosen: list[Event] | None = None,
    hemisphere: str = "north",
) -> Summary:
    """The extractive summary with the entry each of its lines cites, and its rank and date (`reason`: why the
    model was not used)."""
    order = chosen if chosen is not None else ranked(entries, max_words, hemisphere)
    found = within(order, max_words)
    place = {(e.entry_id, e.position): n for n, e in enumerate(order)}
    return Summary(
        render(found),
        EXTRACTIVE,
        reason,
        tuple(e.entry_id or "" for e in found),
        tuple(place[(e.entry_id, e.position)] for e in found),
        tuple(e.date or "" for e in found),
    )
