"""Routing hints for the search layers: the query's language, emotion and intent, and which layer leads.

language: counted distinctive function words; ties go to ``locale`` when given, else Spanish (the product's primary
language). layer: "structured" when a date was found, else "keyword" (< 3 words), "dense" (> 10 words) or
"balanced".
"""

from __future__ import annotations

import re

from inference.dates.text import QueryText, Token, rx

from . import word_lists as wl

_RECALL_CUE = re.compile(rf"(?<!\w)(?:{rx(wl.RECALL_CUES)})(?!\w)")
_SUBJECTIVE = re.compile(rf"(?<!\w)(?:{rx(wl.SUBJECTIVE_PHRASES)})(?!\w)")
_NEG_STEMS = re.compile("(?:" + "|".join(wl.EMOTION_NEGATIVE_STEMS) + ")")
_POS_STEMS = re.compile("(?:" + "|".join(wl.EMOTION_POSITIVE_STEMS) + ")")
_TIME_QUESTION = re.compile(rf"(?<!\w)(?:{rx(wl.TIME_QUESTIONS)})(?!\w)")
_FR_ACCENTS = frozenset("çèêàùâîôûëïœ")
_ES_MARKS = frozenset("¿¡ñ")


def _is_past(tok: str, orig: str, lang: str, after_question: bool) -> bool:
    """Whether a token looks like a past-tense verb (lived experience) in the guessed language."""
    if tok in wl.PAST_WORDS and (after_question or tok not in wl.PAST_AMBIGUOUS):
        return True
    if lang == "es":
        return (len(orig) >= 4 and orig[-1] in "óé" and tok not in wl.QUESTION_WORDS) or (
            len(tok) >= 5 and tok.endswith(wl.SPANISH_PAST_ENDINGS)
        )
    if lang == "en":
        return len(tok) >= 5 and tok.endswith("ed")
    return (len(tok) >= 5 and tok.endswith(("ait", "ais", "ions", "aient"))) or (
        len(orig) >= 4 and orig.rstrip("se").endswith("é")
    )


def guess_language(toks: list[Token], skip: set[int], orig: str, locale: str | None) -> str:
    scores = {"es": 0.0, "en": 0.0, "fr": 0.0}
    for k, t in enumerate(toks):
        if t.word and k not in skip:
            for lang, vocab in wl.LANGUAGE_WORDS.items():
                if t.text in vocab:
                    scores[lang] += 1
    low = orig.lower()
    if any(ch in _ES_MARKS for ch in low):
        scores["es"] += 1.5
    if any(ch in _FR_ACCENTS for ch in low):
        scores["fr"] += 1.5
    pref = _locale_language(locale)
    top = max(scores.values())
    tied = [lang for lang, s in scores.items() if s == top]
    if pref in tied:
        return pref
    return tied[0] if top > 0 else (pref or "es")


def _locale_language(locale: str | None) -> str | None:
    if not locale:
        return None
    lang = locale.replace("_", "-").split("-")[0].lower()
    return lang if lang in ("es", "en", "fr") else None


def guess_emotion(toks: list[Token], skip: set[int]) -> str:
    pos = neg = 0
    inquiry = False
    word_idx = [k for k, t in enumerate(toks) if t.word]
    for n, k in enumerate(word_idx):
        if k in skip:
            continue
        w = toks[k].text
        polarity = 0
        if w in wl.EMOTION_NEGATIVE_WORDS or _NEG_STEMS.match(w):
            polarity = -1
        elif w in wl.EMOTION_POSITIVE_WORDS or _POS_STEMS.match(w):
            polarity = 1
        elif w in wl.EMOTION_INQUIRY:
            inquiry = True
        if polarity and any(toks[p].text in wl.NEGATORS for p in word_idx[max(0, n - 2) : n]):
            inquiry = True
            polarity = -1 if polarity > 0 else 0
        pos += polarity > 0
        neg += polarity < 0
    if pos and neg:
        return "neutral"
    if pos:
        return "positive"
    if neg:
        return "negative"
    return "neutral" if inquiry else "none"


def _fr_passe(toks: list[Token], word_idx: list[int], skip: set[int], text: QueryText) -> bool:
    """French compound past ("a dit", "sommes allés"): an auxiliary followed by a participle."""
    for n, k in enumerate(word_idx[:-1]):
        if k in skip or toks[k].text not in wl.FR_AUXILIARIES:
            continue
        for nxt in word_idx[n + 1 : n + 3]:
            t = toks[nxt]
            if nxt in skip:
                break
            if t.text in wl.FR_PARTICIPLES or text.slice(t.start, t.end).rstrip("sS").rstrip("eE").endswith(("é", "É")):
                return True
            if t.text not in ("pas", "deja", "bien", "tous", "encore", "jamais"):
                break
    return False


def guess_intent(folded: str, toks: list[Token], text: QueryText, lang: str, browse: bool, skip: set[int]) -> str:
    if _SUBJECTIVE.search(folded):
        return "subjective"
    if browse:
        return "browse"
    if _RECALL_CUE.search(folded):
        return "recall"
    word_idx = [k for k, t in enumerate(toks) if t.word]
    if not word_idx:
        return "lookup"
    first = toks[word_idx[0]].text
    question = "?" in folded or first in wl.QUESTION_WORDS or first in wl.PAST_AUX_START
    if lang == "fr" and _fr_passe(toks, word_idx, skip, text):
        return "recall"
    if question:
        rest = word_idx[1:] if first in wl.QUESTION_WORDS else word_idx
        for k in rest:
            t = toks[k]
            if t.text in wl.QUESTION_WORDS or (t.text in wl.CLITICS and t.text not in wl.PAST_WORDS):
                continue
            return "recall" if _is_past(t.text, text.slice(t.start, t.end), lang, True) else "lookup"
        return "lookup"
    for k in word_idx:
        if k not in skip and _is_past(toks[k].text, text.slice(toks[k].start, toks[k].end), lang, False):
            return "recall"
    return "lookup"


def choose_layer(has_date: bool, n_words: int) -> str:
    """The layer that leads: structured for a date, keywords for short queries, dense for long ones."""
    return "structured" if has_date else "keyword" if n_words < 3 else "dense" if n_words > 10 else "balanced"


def asks_time(folded: str) -> bool:
    """Whether the question asks for a time ("when did we...", "¿cuándo...?", "en quelle année..."): its answer is
    then likely a passage that tells one (the learned ranker's `tells_when`). A "cuando" inside a clause ("lo que
    dijo cuando fuimos", "what did he say when we moved?") asks nothing: the time words must lead the question."""
    m = _TIME_QUESTION.search(folded)
    return m is not None and not folded[: m.start()].strip(" ¿¡,.:;\"'")
