"""Which entries of a kept view meet a search's own constraints (dates, named entities, an author): a mask over the
view's arrays, the same selection the structured channel's Cypher makes (tests/search/test_dense_matrix.py compares
them). A date is met by either clock: the entry's own date overlapping it, or a time its text tells within it."""

from __future__ import annotations

from typing import Any

import numpy as np

from queries.search.query_constraints import SoftConstraints
from queries.search.view_build import View


def _day(value: Any) -> float:
    """A date as its day number; NaN for none, so that every comparison with it fails as Cypher's null does."""
    if value is None:
        return float("nan")
    native = value.to_native() if hasattr(value, "to_native") else value
    return float(native.toordinal())


def constrained(soft: SoftConstraints) -> bool:
    """Whether the query sets any of its own constraints that `meeting` tests (dates, named entities, an author)."""
    return soft.date_from is not None or soft.date_to is not None or bool(soft.entity_ids) or bool(soft.author_keys)


def meeting(view: View, soft: SoftConstraints) -> np.ndarray | None:
    """Which entries of the view meet the query's own constraints, tested as QUERY_SCOPE tests them (None: no
    constraint). An undated entry meets no date bound; an entry without author no author phrase."""
    if not constrained(soft):
        return None
    n = len(view.entry_ids)
    mask: np.ndarray | None = None

    def both(m: np.ndarray) -> np.ndarray:
        return m if mask is None else mask & m

    if soft.date_from is not None or soft.date_to is not None:
        lo = _day(soft.date_from) if soft.date_from is not None else -np.inf
        hi = _day(soft.date_to) if soft.date_to is not None else np.inf
        told_hi = _day(soft.told_to) if soft.told_to is not None else np.inf
        dated = (view.end >= lo) & (view.start <= hi)  # NaN (undated) meets no bound
        for i, spans in enumerate(view.told):
            if spans and not dated[i] and any(start >= lo and end <= told_hi for start, end in spans):
                dated[i] = True
        mask = both(dated)
    if soft.entity_ids:
        named = np.zeros(n, dtype=bool)
        for x in soft.entity_ids:
            if x in view.mentioned_by:
                named[view.mentioned_by[x][0]] = True
        mask = both(named)
    if soft.author_keys:
        keys = set(soft.author_keys)
        mask = both(np.fromiter((a is not None and a in keys for a in view.author_keys), dtype=bool, count=n))
    return mask
