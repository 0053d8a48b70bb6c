"""The two summarisers of a set of entries: extractive (default, no model) and abstractive (an OpenAI-compatible chat
model, `inference.providers.llm`). Both see only the entries they are given: choosing those (the audience) is the
caller's job, and nothing here can widen it.

Extractive: a list of events, each a line that says when, who (when the scope has several authors) and what, taken
from one entry, whose id the summary cites. The candidate lines are each entry's sentences that may tell something:
never a question, a greeting or a reaction ("Wow, that's cool!"), nor an annotation of the recording ("[image: …]");
a short turn's sentences stay together. Lines are chosen greedily for what they add (people, places, dates, the
scope's recurring themes, words not yet said) and how central they are, told by who lived them (first person) rather
than addressed to the listener, per word spent; a near-duplicate of a chosen line is left out; the lines are printed
in date order, each date once. Abstractive: one prompt that asks to keep names and dates; any failure falls back to
the extractive text, and the result says which produced it and why.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import partial
from typing import Any

from graph.summaries import EXTRACTIVE
from graph.textnorm import fold, words
from inference.providers.llm import ChatClient, ChatMessage, LLMError

PERIOD_WORDS = 400
PROJECT_WORDS = 800
NEAR_DUPLICATE = 0.6
SENTENCE_BREAK = re.compile(r"(?<=[.!?…])\s+|\n+")
_DATE_WORDS = re.compile(r"\b(1[89]\d\d|20\d\d)\b|\b\d{1,2}[/-]\d{1,2}\b")
_MONTHS = {
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "janvier",
    "fevrier",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "aout",
    "septembre",
    "octobre",
    "novembre",
    "decembre",
    "verano",
    "invierno",
    "primavera",
    "otono",
    "summer",
    "winter",
    "spring",
    "autumn",
    "ete",
    "hiver",
    "navidad",
    "christmas",
}
STOP_WORDS = set(
    """
a al algo ante como con contra cual cuando de del desde donde dos el ella ellas ello ellos en entre era eran es esa
ese eso esta estaba este esto fue fueron ha habia han hasta la las le les lo los mas me mi mis muy nada ni no nos
nosotros o os otra otro para pero poco por porque que quien se ser si sin sobre su sus tambien te tenia todo todos
tu un una uno unos y ya yo the and of to in on at for with was were is are be been it its this that these those we
our you your he she they them his her i my me not no but or as by from had have has a an le la les un une des et de
du en est il elle ils nous vous je pas que qui dans pour sur avec au aux ce cette son sa ses mais ou
""".split()
)


# Said to keep a conversation going, not to tell anything: a sentence made mostly of these is never an event.
_PHATIC = set(
    """
hey hi hello hola bonjour salut wow oh ah aw awww yay haha lol omg yeah yes yep sure ok okay cool great awesome nice
amazing lovely wonderful fantastic thanks thank gracias merci congrats congratulations felicidades bye adios
goodbye see soon care glad good really so totally definitely absolutely guess mean know right well cheers
""".split()
)
ANNOTATION = re.compile(r"\[[^\]]*\]")  # [image: ...], [laughs]: about the recording, not what happened
_FIRST_PERSON = {"i", "we", "my", "our", "me", "us", "yo", "nosotros", "mi", "mis", "nuestro", "nuestra", "je", "nous"}
# Addressed to the listener: a reaction to what they told, not something that happened to the speaker.
_SECOND_PERSON = {"you", "your", "yours", "tu", "tus", "usted", "vous", "votre", "toi"}
# When, said relative to the telling: the mark of a sentence that reports something that happened or will.
_WHEN = set(
    """
yesterday today tonight tomorrow weekend ago last recently lately soon finally first week month year
ayer hoy anoche manana semana mes ano pasado pasada recien finalmente primera primer
hier aujourd demain semaine mois annee dernier derniere recemment enfin premiere
""".split()
)
MIN_CONTENT_WORDS = 3
UNIT_WORDS = 40


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


def word_count(text: str) -> int:
    return len(text.split())


def _content(ws: list[str]) -> list[str]:
    return [w for w in ws if len(w) > 2 and w not in STOP_WORDS and w not in _PHATIC and not w.isdigit()]


def _tells(raw: str, ws: list[str]) -> bool:
    """Whether a sentence may tell an event: not a question, not a greeting or a reaction, enough content words."""
    if raw.rstrip().endswith("?") or not ws:
        return False
    return len(_content(ws)) >= MIN_CONTENT_WORDS


def _sentences(entries: list[dict[str, Any]], themes: set[str]) -> list[_Sentence]:
    """The candidate lines: per entry, its sentences that may tell an event, together when they are short (a turn of
    a conversation tells one thing over two or three sentences), one by one otherwise."""
    out: list[_Sentence] = []
    for i, e in enumerate(entries):
        names = [("person", n) for n in e.get("persons") or []] + [("place", n) for n in e.get("places") or []]
        body = ANNOTATION.sub(" ", str(e.get("text") or ""))
        telling: list[tuple[int, str]] = []
        for pos, raw in enumerate(" ".join(s.split()) for s in SENTENCE_BREAK.split(body)):
            said = {t for _, t in telling}
            if raw and raw not in said and any(ch.isalnum() for ch in raw) and _tells(raw, words(raw)):
                telling.append((pos, raw))
        if telling and sum(len(raw.split()) for _, raw in telling) <= UNIT_WORDS:
            telling = [(telling[0][0], " ".join(_ended(raw) for _, raw in telling))]
        for pos, raw in telling:
            ws = words(raw)
            folded = fold(raw)
            feats = {f"{kind}:{fold(name)}" for kind, name in names if fold(name) in folded}
            feats |= {f"date:{m.group(0)}" for m in _DATE_WORDS.finditer(raw)}
            feats |= {f"date:{w}" for w in ws if w in _MONTHS}
            feats |= {f"theme:{w}" for w in ws if w in themes}
            out.append(
                _Sentence(
                    i,
                    pos,
                    raw,
                    e.get("occurred_on"),
                    frozenset(feats),
                    frozenset(_content(ws)),
                    len(raw.split()),
                    _voice(set(ws)),
                )
            )
    return _centred(out)


def _ended(raw: str) -> str:
    return raw if raw[-1] in ".!…" else raw + "."


def _voice(ws: set[str]) -> float:
    """Told by who lived it (first person) and placed in time ("yesterday", "last week") counts for a sentence;
    addressed to the listener counts against it."""
    return (1.5 if _FIRST_PERSON & ws else 0.0) - (1.5 if _SECOND_PERSON & ws else 0.0) + (1.0 if _WHEN & ws else 0.0)


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
        out.append(_Sentence(s.entry, s.pos, s.text, s.date, s.features, s.words, s.length, s.weight + centrality))
    return out


def _themes(entries: list[dict[str, Any]], n: int = 24) -> set[str]:
    """Content words that recur across entries (document frequency >= 2, or the top ones of a single entry), counted
    in what the entries tell (a word only asked about or exclaimed is no theme)."""
    df: Counter[str] = Counter()
    for e in entries:
        told = [
            raw
            for raw in SENTENCE_BREAK.split(ANNOTATION.sub(" ", str(e.get("text") or "")))
            if _tells(raw, words(raw))
        ]
        df.update(
            {
                w
                for w in words(" ".join([e.get("title") or "", *told]))
                if len(w) > 3 and w not in STOP_WORDS and w not in _PHATIC and not w.isdigit()
            }
        )
        df.update(fold(t) for t in e.get("tags") or [])
    ordered = sorted(df.items(), key=lambda wc: (-wc[1], wc[0]))  # ties by the word, not by a set's order
    common = [w for w, c in ordered[: n * 2] if c >= 2 or len(entries) == 1]
    return set(common[:n])


def events(entries: list[dict[str, Any]], max_words: int) -> list[Event]:
    """The sentences that tell what happened, chosen for what they add (people, places, dates, recurring themes) and
    how central they are, near-duplicates left out, in date order, within `max_words` (each line's speaker
    counted)."""
    return in_date_order(ranked(entries, max_words))


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


def ranked(entries: list[dict[str, Any]], max_words: int) -> list[Event]:
    """`events`, in the order they were chosen (the most telling first)."""
    if not entries:
        return []
    authors = {e.get("author_id") for e in entries if e.get("author_id")}
    several = len(authors) > 1
    chosen: list[_Sentence] = []
    covered: set[str] = set()
    used = 0
    remaining = _sentences(entries, _themes(entries))
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
        )
        for s in chosen
    ]


def render(found: list[Event]) -> str:
    """One line per event, each date once before its events: "2023-05-08: Caroline: I went to a support group."."""
    lines: list[str] = []
    last_date: str | None = None
    for event in found:
        head = f"{event.who}: " if event.who else ""
        if event.date and event.date != last_date:
            lines.append(f"{event.date}: {head}{event.text}")
            last_date = event.date
        else:
            lines.append(f"{head}{event.text}")
    return "\n".join(lines)


def extractive(entries: list[dict[str, Any]], max_words: int) -> str:
    """The events of `entries` as text (`events`, then `render`)."""
    return render(events(entries, max_words))


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
) -> Summary:
    """The abstractive summary when a model is configured and answers; otherwise (or on failure) the extractive,
    which takes `chosen` in order when given (a project's events, from its periods) instead of choosing."""
    if llm is None or not entries:
        return extractive_summary(entries, max_words, chosen=chosen)
    try:
        text = llm.complete(_prompt(entries, max_words, scope_name), max_tokens=max_words * 3)
    except LLMError as exc:
        return extractive_summary(entries, max_words, str(exc), chosen)
    text = " ".join(text.split())
    if word_count(text) > max_words * 1.25:  # a model that ignored the length: cut at a word boundary
        text = " ".join(text.split()[:max_words]) + " …"
    return Summary(text, llm.name)


def extractive_summary(
    entries: list[dict[str, Any]], max_words: int, reason: str | None = None, chosen: list[Event] | None = None
) -> Summary:
    """The extractive summary with the entry each of its lines cites, and its rank and date (`reason`: why the
    model was not used)."""
    order = chosen if chosen is not None else ranked(entries, max_words)
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
