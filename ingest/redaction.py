"""Replacing a name in a text by a neutral mark, the way names are matched everywhere else: case and accents never
matter ("remedios" finds "Remedios" and "REMEDIOS"), a name is found only as whole words ("Ana" is not redacted out
of "Anaïs"), and words of a name may be separated by any run of non-word characters ("Ana  María", "Ana-María")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph.textnorm import fold, words

MARK = "[—]"
MIN_NAME = 2  # folded characters: a one-letter "name" would redact every such word


def _folded_with_origin(text: str) -> tuple[str, list[int]]:
    """`fold(text)` character by character, with the index in `text` each folded character comes from (a character
    may fold to none, like a combining accent, or to several, like "ß")."""
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        f = fold(ch)
        out.append(f)
        origin.extend([i] * len(f))
    return "".join(out), origin


def name_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern over folded text for every name, longest first (so "Ana María" wins over "Ana"); None when no
    name has a word of at least MIN_NAME characters."""
    alternatives = sorted(
        {r"\W+".join(re.escape(w) for w in ws) for ws in (words(n) for n in names) if sum(map(len, ws)) >= MIN_NAME},
        key=len,
        reverse=True,
    )
    if not alternatives:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")


def redact(text: str, pattern: re.Pattern[str] | None, mark: str = MARK) -> tuple[str, int]:
    """`text` with every occurrence of the pattern's names replaced by `mark`, and how many there were."""
    if pattern is None or not text:
        return text, 0
    folded, origin = _folded_with_origin(text)
    spans: list[tuple[int, int]] = []
    for m in pattern.finditer(folded):
        start, end = origin[m.start()], origin[m.end() - 1] + 1
        while end < len(text) and not fold(text[end]):  # combining marks that belong to the last letter
            end += 1
        spans.append((start, end))
    if not spans:
        return text, 0
    parts: list[str] = []
    at = 0
    for start, end in spans:
        parts.append(text[at:start])
        parts.append(mark)
        at = end
    parts.append(text[at:])
    return "".join(parts), len(spans)
