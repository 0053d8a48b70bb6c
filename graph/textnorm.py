"""Text normalisation shared by ingest and queries: accents and case never matter."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_WORD = re.compile(r"\w+", re.UNICODE)


# Every code point with a combining class lies in [U+0300, U+1F000) (tests/graph/test_textnorm.py scans them all): the
# marks `fold` strips, as a table `str.translate` applies in C.
_MARKS_FROM, _MARKS_TO = 0x300, 0x1F000
_MARKS: dict[int, None] = {cp: None for cp in range(_MARKS_FROM, _MARKS_TO) if unicodedata.combining(chr(cp))}


def _runs(code_points: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted code points as runs of consecutive ones, (first, last)."""
    runs: list[list[int]] = []
    for cp in sorted(code_points):
        if runs and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    return [(a, b) for a, b in runs]


# The marks below U+0370 (the accents of Latin text, U+034F excepted), as one regular-expression class: removing them
# this way is several times faster than the table, and after it a text with nothing from U+0370 up holds no mark.
_LATIN_MARKS = re.compile(
    "[" + "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in _runs(cp for cp in _MARKS if cp < 0x370)) + "]+"
)
_FROM_GREEK = re.compile("[\u0370-\U0010ffff]")
# ASCII characters that are not word characters, turned into spaces: then `split` finds the words `findall` would.
_ASCII_GAPS: dict[int, str] = {cp: " " for cp in range(128) if not _WORD.match(chr(cp))}


def fold(text: str) -> str:
    """Lower-case and strip diacritics, so "Berlín" and "berlin" compare equal. Plain ASCII needs neither Unicode
    normalisation nor the filter (for it `lower` is `casefold`), and most text is: about 10x faster. Latin text
    loses its accents through one small regular expression; only text with characters from U+0370 up (Greek,
    Cyrillic, Hebrew, ...) goes through the whole table (snippets, word sets and coverage fold every result)."""
    if text.isascii():
        return text.lower()
    decomposed = _LATIN_MARKS.sub("", unicodedata.normalize("NFKD", text.casefold()))
    if decomposed.isascii() or _FROM_GREEK.search(decomposed) is None:
        return decomposed
    return decomposed.translate(_MARKS)


def words(text: str) -> list[str]:
    """Folded word tokens (letters, digits, underscore) of a text."""
    folded = fold(text)
    if folded.isascii():
        return folded.translate(_ASCII_GAPS).split()
    return _WORD.findall(folded)


def term_string(tokens: list[str]) -> str:
    """Folded tokens each wrapped in its own pair of spaces (" a  b  a "): the keyword channel counts a word's
    occurrences in Cypher as those of " word ", which adjacent repeats cannot share (queries/search/keyword.py)."""
    return "".join(f" {t} " for t in tokens)
