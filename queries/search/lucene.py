"""User text to a safe Lucene query: only word tokens survive, so no operator or syntax can be injected."""

from __future__ import annotations

import re

_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
_TOKEN = re.compile(r"\w+", re.UNICODE)
MAX_TERMS = 64


def escape(term: str) -> str:
    """Backslash-escape every Lucene special character in one term."""
    return _SPECIAL.sub(r"\\\1", term)


def to_lucene(text: str) -> str:
    """OR of the escaped word tokens of `text`; `AND`/`OR`/`NOT` lose their operator meaning by lower-casing.

    Returns "" when nothing searchable is left (the fulltext channel is then skipped).
    """
    tokens = [t.lower() for t in _TOKEN.findall(text.replace("\x00", " ")) if t.strip("_")]
    seen: list[str] = []
    for token in tokens:
        if token not in seen:
            seen.append(token)
        if len(seen) >= MAX_TERMS:
            break
    return " ".join(escape(t) for t in seen)
