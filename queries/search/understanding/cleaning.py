"""The text to embed: the query without dates, person mentions, author phrases, browse fillers ("muéstrame",
"everything about") and recall openers ("¿te acuerdas de"), and without the articles and prepositions they leave
dangling. Places and things stay (they are topical keywords). If no content word is left, it is the original text.
"""

from __future__ import annotations

import re

from graph.textnorm import words
from inference.dates.text import QueryText, Token, rx

from . import word_lists as wl

_BROWSE = re.compile(rf"(?<!\w)(?:{rx(wl.BROWSE_PHRASES)})(?!\w)")
_RECALL_FILLER = re.compile(rf"^[\s¿¡\"'«(]*(?P<f>(?:{rx(wl.RECALL_FILLERS)}))(?!\w)")
_FILLER_WORDS = frozenset(
    {
        "solo",
        "only",
        "seulement",
        "todo",
        "todos",
        "todas",
        "everything",
        "all",
        "tout",
        "toutes",
        "entradas",
        "entries",
        "entrees",
        "notes",
        "notas",
        "show",
        "me",
        "muestrame",
        "montre",
        "moi",
        "lo",
        "que",
        "qu",
        "what",
        "est",
        "ce",
        "se",
        "te",
        "nos",
        "le",
        "les",
        "es",
        "is",
        "was",
        "did",
        "do",
        "does",
        "are",
        "were",
    }
)
_STOP = wl.DANGLING | wl.QUESTION_WORDS | wl.LEADING_CONNECTORS | _FILLER_WORDS

_CLOSERS = frozenset('?!.,;:)]»…"')
_SPACE_BEFORE = re.compile(r"\s+([?!.,;:)\]»…])")
_SPACE_AFTER = re.compile(r"([¿¡(\[«])\s+")
_REPEAT_PUNCT = re.compile(r"([,;:])(?:\s*[,;:])+")
_PUNCT_BEFORE_END = re.compile(r"[,;:]\s*([?!.])")
_EMPTY_PAIR = re.compile(r"¿\s*\?|¡\s*!|\(\s*\)")


def _cleaned(text: QueryText, toks: list[Token], removed: list[bool], replace: dict[int, str]) -> str:
    """Rebuild the query without removed tokens, dropping articles/prepositions left hanging."""
    n = len(toks)
    k = 0
    while k < n:
        if removed[k] and (k == 0 or not removed[k - 1]):
            j = k - 1
            while j >= 0 and toks[j].word and not removed[j] and toks[j].text in wl.DANGLING:
                removed[j] = True
                j -= 1
        k += 1
    for k in range(1, n - 1):
        if removed[k - 1] and not removed[k] and toks[k].text == "'" and toks[k + 1].text == "s":
            removed[k] = removed[k + 1] = True
    for k in range(n - 1, -1, -1):
        if removed[k] or (not toks[k].word and toks[k].text in _CLOSERS):
            continue
        if toks[k].word and toks[k].text in wl.DANGLING:
            removed[k] = True
            continue
        break
    for k in range(n):
        if removed[k]:
            continue
        if (toks[k].word and toks[k].text in wl.LEADING_CONNECTORS) or toks[k].text in ",;:-":
            removed[k] = True
            continue
        break
    pieces: list[str] = []
    prev_end = -1
    for k, t in enumerate(toks):
        if removed[k]:
            continue
        piece = replace.get(k, text.slice(t.start, t.end))
        if pieces and (k == 0 or removed[k - 1] or toks[k - 1].end != t.start or prev_end != toks[k - 1].end):
            pieces.append(" ")
        pieces.append(piece)
        prev_end = t.end
    out = "".join(pieces)
    out = _SPACE_BEFORE.sub(r"\1", out)
    out = _SPACE_AFTER.sub(r"\1", out)
    out = _REPEAT_PUNCT.sub(r"\1", out)
    out = _PUNCT_BEFORE_END.sub(r"\1", out)
    out = _EMPTY_PAIR.sub("", out)
    return " ".join(out.split()).strip(" ,;:-")


def browse_spans(folded: str) -> list[tuple[int, int]]:
    """Browse fillers ("muéstrame", "everything about"): removed, and they make the intent "browse"."""
    return [(m.start(), m.end()) for m in _BROWSE.finditer(folded)]


def filler_span(folded: str) -> tuple[int, int] | None:
    """A recall opener at the start ("¿te acuerdas de ..."), removed from the text to embed."""
    filler = _RECALL_FILLER.match(folded)
    return (filler.start("f"), filler.end("f")) if filler else None


def cleaned_text(text: QueryText, toks: list[Token], removed: list[bool], replace: dict[int, str]) -> str:
    """The query rebuilt without removed tokens; the whole original (whitespace collapsed) when nothing is left."""
    cleaned = _cleaned(text, toks, removed, replace)
    if not any(w not in _STOP for w in words(cleaned)):
        fallback = " ".join(text.orig.split())
        if words(fallback) or not cleaned:
            cleaned = fallback
    return cleaned
