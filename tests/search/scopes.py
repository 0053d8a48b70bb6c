"""A search scope of one project written as the statement parameters name its parts (`q_from`, `q_entity_ids`,
`intimacy_levels`…), so a test can state a case as Cypher reads it and hand the typed scope to the code under test."""

from __future__ import annotations

from datetime import date
from typing import Any

from graph.visibility import Viewer
from queries.search.query_constraints import SoftConstraints
from queries.search.scope import SearchScope

_SOFT = {
    "q_from": "date_from",
    "q_to": "date_to",
    "q_told_to": "date_own_to",  # a day's reach: the written clock's `q_to`, the told clock's `q_told_to`
    "q_entity_ids": "entity_ids",
    "q_author_keys": "author_keys",
}


def scope_of(project: str, viewer: Viewer, **parts: Any) -> SearchScope:
    soft: dict[str, Any] = {_SOFT[k]: tuple(v) if isinstance(v, list) else v for k, v in parts.items() if k in _SOFT}
    if parts.get("q_occ") is not None:
        spans: list[list[date] | None] = parts["q_occ"]
        soft["occurrences"] = tuple((s[0], s[1]) if s else None for s in spans)
    rest = {k: tuple(v) if isinstance(v, list) else v for k, v in parts.items() if k not in _SOFT and k != "q_occ"}
    return SearchScope(viewer, (project,), soft=SoftConstraints(**soft), **rest)
