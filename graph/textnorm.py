"""Text normalisation shared by ingest and queries: accents and case never matter."""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"\w+", re.UNICODE)


def fold(text: str) -> str:
    """Lower-case and strip diacritics, so "Berlín" and "berlin" compare equal."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    """Folded word tokens (letters, digits, underscore) of a text."""
    return _WORD.findall(fold(text))
