"""Text normalisation shared by ingest and queries: accents and case never matter."""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"\w+", re.UNICODE)


# Every code point with a combining class lies in [U+0300, U+1F000) (tests/test_textnorm.py scans them all): the
# marks `fold` strips, as a table `str.translate` applies in C.
_MARKS_FROM, _MARKS_TO = 0x300, 0x1F000
_MARKS: dict[int, None] = {cp: None for cp in range(_MARKS_FROM, _MARKS_TO) if unicodedata.combining(chr(cp))}


def fold(text: str) -> str:
    """Lower-case and strip diacritics, so "Berlín" and "berlin" compare equal. Plain ASCII needs neither Unicode
    normalisation nor the filter (for it `lower` is `casefold`), and most text is: about 10x faster. Other text drops
    its combining marks through one translation table, not a Python test per character (snippets and the word sets
    of diversification fold every word of every result: several ms a search in Spanish)."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFKD", text.casefold()).translate(_MARKS)


def words(text: str) -> list[str]:
    """Folded word tokens (letters, digits, underscore) of a text."""
    return _WORD.findall(fold(text))


def term_string(tokens: list[str]) -> str:
    """Folded tokens each wrapped in its own pair of spaces (" a  b  a "): the keyword channel counts a word's
    occurrences in Cypher as those of " word ", which adjacent repeats cannot share (queries/keyword.py)."""
    return "".join(f" {t} " for t in tokens)
