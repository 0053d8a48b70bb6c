"""The analysed text: sanitised, folded (``graph.textnorm.fold``) with a map back to the original, and tokenised.

Matching runs on the folded text (lower-case, no accents); spans are mapped back to the original to quote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from graph.textnorm import fold

MAX_CHARS = 2000
_T = TypeVar("_T")

_PUNCT_MAP = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "`": "'",
        "\u00b4": "'",
        "\u02bc": "'",
        "\u2013": "-",
        "\u2014": "-",
        "\u2010": "-",
        "\u2011": "-",
    }
)
_INVISIBLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_FOLD_CACHE: dict[str, str] = {}


def sanitise(raw: str) -> str:
    """The first MAX_CHARS characters without control or invisible characters, with plain quotes and hyphens."""
    return _INVISIBLE.sub("", _CONTROL.sub(" ", raw[: MAX_CHARS * 2]))[:MAX_CHARS].translate(_PUNCT_MAP)


def _fold_char(ch: str) -> str:
    """Per-character fold, memoised: queries reuse a small alphabet."""
    out = _FOLD_CACHE.get(ch)
    if out is None:
        out = fold(ch)
        if len(_FOLD_CACHE) < 50_000:
            _FOLD_CACHE[ch] = out
    return out


def fold_with_map(text: str) -> tuple[str, list[int] | None]:
    """Fold keeping, for each folded char, the index of the original char it came from (None = identity)."""
    if text.isascii():
        return text.lower(), None
    out: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        f = _fold_char(ch)
        out.append(f)
        index.extend([i] * len(f))
    return "".join(out), index


@dataclass(frozen=True)
class QueryText:
    """The analysed text in both spaces, with span conversion from folded to original offsets."""

    orig: str
    folded: str
    index: list[int] | None

    def ostart(self, i: int) -> int:
        if self.index is None:
            return i
        return self.index[i] if i < len(self.index) else len(self.orig)

    def oend(self, j: int) -> int:
        if self.index is None:
            return j
        return self.index[j] if j < len(self.index) else len(self.orig)

    def slice(self, i: int, j: int) -> str:
        return self.orig[self.ostart(i) : self.oend(j)]


_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    text: str
    word: bool


def tokenize(folded: str) -> list[Token]:
    """Words and single punctuation marks of the folded text, with their offsets."""
    return [
        Token(m.start(), m.end(), m.group(), m.group()[0].isalnum() or m.group()[0] == "_")
        for m in _TOKEN.finditer(folded)
    ]


def select(cands: list[_T], key: Callable[[_T], tuple[int, int]], rank: Callable[[_T], int]) -> list[_T]:
    """Greedy non-overlapping choice: higher rank, then longer, then earlier wins."""
    chosen: list[_T] = []
    for c in sorted(cands, key=lambda c: (-rank(c), key(c)[0] - key(c)[1], key(c)[0])):
        s, e = key(c)
        if all(e <= key(o)[0] or s >= key(o)[1] for o in chosen):
            chosen.append(c)
    return sorted(chosen, key=lambda c: key(c)[0])


def alt(items: Iterable[str]) -> str:
    """Regex alternation of literal (folded) words, longest first, spaces as \\s+."""
    parts = sorted({re.escape(w).replace("\\ ", " ").replace(" ", r"\s+") for w in items}, key=len, reverse=True)
    return "|".join(parts)


def rx(parts: Iterable[str]) -> str:
    """Regex alternation of regex fragments, in their order."""
    return "|".join(parts)
