"""Comparing snapshots of read paths: a deterministic copy of an answer, and where two snapshots first differ (a
property test's failure names every read path that changed, with its first difference)."""

from __future__ import annotations

import json
from typing import Any


def plain(value: Any) -> Any:
    """A deterministic, comparable copy (neo4j dates as ISO strings)."""
    return json.loads(json.dumps(value, default=str, sort_keys=True, ensure_ascii=False))


def _short(value: Any, limit: int = 240) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= limit else text[:limit] + " …"


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two snapshots of one read path first differ, and how."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}: {_short(a.get(key, '<absent>'))} -> {_short(b.get(key, '<absent>'))}"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list):
        for n, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return first_difference(x, y, f"{path}[{n}]")
        if len(a) != len(b):
            return f"{path}: {len(a)} items -> {len(b)} items, e.g. {_short((a if len(a) > len(b) else b)[-1])}"
    return f"{path or '(value)'}: {_short(a)} -> {_short(b)}"


def changed_paths(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [
        f"{key}\n      {first_difference(before.get(key), after.get(key))}"
        for key in sorted(set(before) | set(after))
        if before.get(key) != after.get(key)
    ]
