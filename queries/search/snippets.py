"""Snippets with highlights, cut from the entry's own text around the query's words."""

from __future__ import annotations

import re

from graph.textnorm import fold
from queries.search.fusion import STOPWORDS

_WORD = re.compile(r"\w+", re.UNICODE)
WINDOW = 240
MAX_TERMS = 64  # a 10,000-character query highlights its first 64 content words, not all of them
MAX_SCAN_CHARS = 250_000  # longer than any entry (200,000): bounds the work per result whatever is stored


def query_terms(text: str) -> set[str]:
    terms: dict[str, None] = {}
    for token in _WORD.finditer(text):
        w = fold(token.group(0))
        if len(w) >= 3 and w not in STOPWORDS:
            terms[w] = None
            if len(terms) >= MAX_TERMS:
                break
    return set(terms)


def snippet(body: str, terms: set[str], window: int = WINDOW) -> tuple[str, list[str]]:
    """The window with most query terms, terms in **bold**; returns the markdown and the words highlighted."""
    body = body[:MAX_SCAN_CHARS]
    spans = [(m.start(), m.end()) for m in _WORD.finditer(body) if fold(m.group(0)) in terms] if terms else []
    if len(body) <= window:
        start, end = 0, len(body)
    elif not spans:
        start, end = 0, window
    else:
        # Sliding window over the sorted spans: linear in the number of matches, never quadratic.
        best, best_count, j = spans[0][0], 0, 0
        for i, (s, _) in enumerate(spans):
            j = max(j, i)
            while j < len(spans) and spans[j][0] < s + window:
                j += 1
            if j - i > best_count:
                best, best_count = s, j - i
        start = max(0, best - window // 4)
        end = min(len(body), start + window)
        while start > 0 and body[start - 1].isalnum():
            start -= 1
    while end < len(body) and body[end - 1].isalnum() and body[end].isalnum():
        end += 1
    out: list[str] = []
    highlighted: list[str] = []
    cursor = start
    for s, e in spans:
        if s >= end:
            break
        if s < start or e > end:
            continue
        out.append(_md(body[cursor:s]))
        word = body[s:e]
        out.append(f"**{_md(word)}**")
        if word not in highlighted:
            highlighted.append(word)
        cursor = e
    out.append(_md(body[cursor:end]))
    text = "".join(out).strip()
    return ("…" if start > 0 else "") + text + ("…" if end < len(body) else ""), highlighted


def _md(text: str) -> str:
    return text.replace("*", "\\*").replace("_", "\\_")
