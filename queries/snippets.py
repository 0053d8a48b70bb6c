"""Snippets with highlights, cut from the entry's own text around the query's words."""

from __future__ import annotations

import re

from graph.textnorm import fold
from queries.fusion import STOPWORDS

_WORD = re.compile(r"\w+", re.UNICODE)
WINDOW = 240


def query_terms(text: str) -> set[str]:
    return {w for w in (fold(t) for t in _WORD.findall(text)) if len(w) >= 3 and w not in STOPWORDS}


def snippet(body: str, terms: set[str], window: int = WINDOW) -> tuple[str, list[str]]:
    """The window with most query terms, terms in **bold**; returns the markdown and the words highlighted."""
    spans = [(m.start(), m.end()) for m in _WORD.finditer(body) if fold(m.group(0)) in terms]
    if len(body) <= window:
        start, end = 0, len(body)
    elif not spans:
        start, end = 0, window
    else:
        best, best_count = spans[0][0], 0
        for s, _ in spans:
            count = sum(1 for a, _b in spans if s <= a < s + window)
            if count > best_count:
                best, best_count = s, count
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
