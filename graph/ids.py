"""Deterministic ids, so MERGE keeps every write idempotent."""

from __future__ import annotations

import hashlib
import re

from graph.textnorm import fold

_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
ENTITY_KINDS = ("person", "place", "thing")


def slug(text: str) -> str:
    return _NON_WORD.sub("-", fold(text)).strip("-") or hashlib.sha1(text.encode()).hexdigest()[:10]


def entity_id(project_id: str, kind: str, name: str) -> str:
    return f"{project_id}/{kind}/{slug(name)}"


def period_id(project_id: str, name: str) -> str:
    return f"{project_id}/period/{slug(name)}"


def chunk_id(entry_id: str, ordinal: int) -> str:
    return f"{entry_id}#{ordinal}"


def sha256(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\x1f")
    return digest.hexdigest()
