"""The two summarisers of a set of entries: extractive (default, no model) and abstractive (an OpenAI-compatible chat
model, `inference.providers.llm`). Both see only the entries they are given: choosing those (the audience) is the
caller's job, and nothing here can widen it.

Extractive: split entries into sentences, then pick greedily the sentence that adds most not-yet-covered people,
places, dates and themes (the scope's frequent content words), skipping near-duplicates, until the word budget is
spent; the chosen sentences are printed in date order, each after its entry's date. Abstractive: one prompt that asks
to keep names and dates; any failure falls back to the extractive text, and the result says which produced it and why.
"""

from __future__ import annotations

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
_SENTENCE = re.compile(r"(?<=[.!?…])\s+|\n+")
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
_STOP = set(
    """
a al algo ante como con contra cual cuando de del desde donde dos el ella ellas ello ellos en entre era eran es esa
ese eso esta estaba este esto fue fueron ha habia han hasta la las le les lo los mas me mi mis muy nada ni no nos
nosotros o os otra otro para pero poco por porque que quien se ser si sin sobre su sus tambien te tenia todo todos
tu un una uno unos y ya yo the and of to in on at for with was were is are be been it its this that these those we
our you your he she they them his her i my me not no but or as by from had have has a an le la les un une des et de
du en est il elle ils nous vous je pas que qui dans pour sur avec au aux ce cette son sa ses mais ou
""".split()
)


@dataclass(frozen=True)
class Summary:
    text: str
    producer: str  # "extractive" or "llm:<model>"
    fallback_reason: str | None = None


@dataclass(frozen=True)
class _Sentence:
    entry: int
    pos: int
    text: str
    date: str | None
    features: frozenset[str]
    words: frozenset[str]
    length: int


def word_count(text: str) -> int:
    return len(text.split())


def _sentences(entries: list[dict[str, Any]], themes: set[str]) -> list[_Sentence]:
    out: list[_Sentence] = []
    for i, e in enumerate(entries):
        names = [("person", n) for n in e.get("persons") or []] + [("place", n) for n in e.get("places") or []]
        body = str(e.get("text") or "")
        for pos, raw in enumerate(s.strip() for s in _SENTENCE.split(body)):
            if not raw or not any(ch.isalnum() for ch in raw):
                continue
            folded = fold(raw)
            ws = words(raw)
            feats = {f"{kind}:{fold(name)}" for kind, name in names if fold(name) in folded}
            feats |= {f"date:{m.group(0)}" for m in _DATE_WORDS.finditer(raw)}
            feats |= {f"date:{w}" for w in ws if w in _MONTHS}
            feats |= {f"theme:{w}" for w in ws if w in themes}
            if pos == 0 and e.get("occurred_on"):
                feats.add(f"day:{e['occurred_on']}")  # the first sentence of an entry stands for its day
            out.append(
                _Sentence(
                    i,
                    pos,
                    " ".join(raw.split()),
                    e.get("occurred_on"),
                    frozenset(feats),
                    frozenset(ws),
                    len(raw.split()),
                )
            )
    return out


def _themes(entries: list[dict[str, Any]], n: int = 24) -> set[str]:
    """Content words that recur across entries (document frequency >= 2, or the top ones of a single entry)."""
    df: Counter[str] = Counter()
    for e in entries:
        df.update(
            {
                w
                for w in words(f"{e.get('title') or ''} {e.get('text') or ''}")
                if len(w) > 3 and w not in _STOP and not w.isdigit()
            }
        )
        df.update(fold(t) for t in e.get("tags") or [])
    common = [w for w, c in df.most_common(n * 2) if c >= 2 or len(entries) == 1]
    return set(common[:n])


def extractive(entries: list[dict[str, Any]], max_words: int) -> str:
    """Sentences chosen for coverage, near-duplicates removed, in date order, within `max_words`."""
    if not entries:
        return ""
    sentences = _sentences(entries, _themes(entries))
    chosen: list[_Sentence] = []
    covered: set[str] = set()
    used = 0
    remaining = list(sentences)
    while remaining and used < max_words - 2:
        snapshot = frozenset(covered)
        best = max(remaining, key=partial(_gain, covered=snapshot))
        remaining.remove(best)
        cost = best.length + (1 if best.date else 0)
        if used + cost > max_words:
            continue
        if any(_jaccard(best.words, c.words) >= NEAR_DUPLICATE for c in chosen):
            continue
        if best.features <= covered and chosen and used > max_words * 0.8:
            continue
        chosen.append(best)
        covered |= best.features
        used += cost
    chosen.sort(key=lambda s: (s.date or "9999", s.entry, s.pos))
    parts: list[str] = []
    last_date: str | None = None
    for s in chosen:
        text = s.text if s.text[-1] in ".!?…" else s.text + "."
        if s.date and s.date != last_date:
            parts.append(f"{s.date}: {text}")
            last_date = s.date
        else:
            parts.append(text)
    return " ".join(parts)


def _gain(s: _Sentence, covered: frozenset[str]) -> tuple[float, int, int]:
    """New people, places, dates and themes per word (a short sentence that adds as much wins), then earliest."""
    return (len(s.features - covered) / (1 + s.length / 25), -s.entry, -s.pos)


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
    entries: list[dict[str, Any]], max_words: int, llm: ChatClient | None = None, scope_name: str = ""
) -> Summary:
    """The abstractive summary when a model is configured and answers; otherwise (or on failure) the extractive."""
    if llm is None or not entries:
        return Summary(extractive(entries, max_words), EXTRACTIVE)
    try:
        text = llm.complete(_prompt(entries, max_words, scope_name), max_tokens=max_words * 3)
    except LLMError as exc:
        return Summary(extractive(entries, max_words), EXTRACTIVE, str(exc))
    text = " ".join(text.split())
    if word_count(text) > max_words * 1.25:  # a model that ignored the length: cut at a word boundary
        text = " ".join(text.split()[:max_words]) + " …"
    return Summary(text, llm.name)
