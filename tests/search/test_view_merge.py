"""A view listed again in part (`view_build.merge`) is the view a full listing builds (`build`), over random
projects and random changes: entries added, removed (hidden, deleted or out of scope), re-dated, given chunks or
losing them, mentioning other entities, telling other times. The listing itself is tested against Neo4j in
tests/search/test_dense_matrix.py; here every vector is already in the pool, so neither function reads the graph."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from queries.search import view_build
from tests.search.view_equality import assert_same_view

DIM = 8
ENTITIES = [f"x{i}" for i in range(12)]


def _record(rng: random.Random, entry_id: str, version: int) -> list[Any]:
    start = None if rng.random() < 0.2 else 730000 + rng.randrange(4000)
    chunks = [[f"{entry_id}#{k}", f"h{version}", 1] for k in range(rng.choice((0, 0, 1, 2, 3)))]
    mentions = [[x, rng.randrange(1, 4)] for x in rng.sample(ENTITIES, rng.randrange(0, 4))]
    told = [
        [day, day + rng.randrange(5)]
        for day in sorted(730000 + rng.randrange(4000) for _ in range(rng.choice((0, 0, 1, 2))))
    ]
    return [
        entry_id,
        start,
        None if start is None else start + rng.randrange(30),
        rng.choice((None, "ana", "pep")),
        chunks,
        mentions,
        told,
        rng.choice((None, "thread-a", "thread-b")),
        rng.randrange(10),
    ]


def _pooled(pool: view_build.Pool, records: list[list[Any]], rng: np.random.Generator) -> None:
    pool.add(
        [
            ((c[0], c[1], int(c[2])), list(rng.standard_normal(DIM)))
            for r in records
            for c in r[4]
            if (c[0], c[1], int(c[2])) not in pool.slots
        ]
    )


@pytest.mark.parametrize("seed", range(40))
def test_a_view_merged_in_part_is_the_view_built_in_full(seed: int) -> None:
    rng, vectors = random.Random(seed), np.random.default_rng(seed)
    ids = sorted({f"e{rng.randrange(10_000):05d}" for _ in range(rng.randrange(0, 60))})
    records = {i: _record(rng, i, 0) for i in ids}
    pool = view_build.Pool(DIM)
    listed = [records[i] for i in sorted(records)]
    _pooled(pool, listed, vectors)
    view = view_build.build(_scope(pool, "scope"), _under("e0"), listed)
    assert view is not None
    for step in range(1, 6):
        changed: set[str] = set()
        for _ in range(rng.randrange(0, 8)):
            roll = rng.random()
            # new (or, by chance, an existing one rewritten), else an existing one
            entry = f"e{rng.randrange(10_000):05d}" if roll < 0.35 or not records else rng.choice(sorted(records))
            changed.add(entry)
            if roll < 0.75:
                records[entry] = _record(rng, entry, step)
            else:
                records.pop(entry, None)  # hidden from the viewer now, deleted, or out of scope
        again = [records[i] for i in sorted(changed) if i in records]
        _pooled(pool, again, vectors)
        merged = view_build.merge(_scope(pool, "scope"), _under(f"e{step}"), view, changed, again)
        full = view_build.build(_scope(pool, "other"), _under(f"e{step}"), [records[i] for i in sorted(records)])
        assert merged is not None and full is not None
        assert_same_view(merged, full)
        view = merged


def _scope(pool: view_build.Pool, key: str) -> view_build.ViewScope:
    """A scope whose vectors are all in `pool` already: nothing is read (no graph)."""
    return view_build.ViewScope(None, pool, {}, "k", key, "viewer")  # type: ignore[arg-type]


def _under(epoch: str) -> view_build.Under:
    return view_build.Under([], epoch)


def _by_id(view: view_build.View) -> dict[str, Any]:
    """What the view says of each entry, whatever order it holds them in."""
    chunks: dict[str, list[tuple[str, list[float]]]] = {}
    ends = np.append(view.starts[1:], len(view.rows))
    for k, i in enumerate(view.embedded.tolist()):
        rows = range(int(view.starts[k]), int(ends[k]))
        chunks[view.entry_ids[i]] = [(view.chunk_ids[r], view.matrix[view.rows[r]].round(6).tolist()) for r in rows]
    mentions: dict[str, list[tuple[str, int]]] = {}
    for x, (at, counts) in view.mentioned_by.items():
        for i, c in zip(at.tolist(), counts.tolist(), strict=True):
            mentions.setdefault(view.entry_ids[i], []).append((x, c))
    return {
        x: (
            None if np.isnan(view.start[i]) else view.start[i],
            None if np.isnan(view.end[i]) else view.end[i],
            view.author_keys[i],
            view.told[i],
            chunks.get(x, []),
            sorted(mentions.get(x, [])),
        )
        for i, x in enumerate(view.entry_ids)
    }


def test_an_entry_whose_id_neo4j_orders_otherwise_than_python_still_leaves_the_view() -> None:
    """Neo4j may order ids outside the BMP by UTF-16 code units: an emoji before U+FF01, where Python puts it
    after. Listed in that order, the entry re-levelled away must still leave, and the others keep their data."""
    rng, vectors = random.Random(5), np.random.default_rng(5)
    ids = ["a\U0001f600", "a\uff01", "b", "c\U0001f33b", "c\uffe0"]
    ordered = sorted(ids, key=lambda x: x.encode("utf-16-be"))
    assert ordered != sorted(ids)
    records = {i: _record(rng, i, 0) for i in ids}
    pool = view_build.Pool(DIM)
    _pooled(pool, list(records.values()), vectors)
    view = view_build.build(_scope(pool, "scope"), _under("e0"), [records[i] for i in ordered])
    assert view is not None
    del records["a\U0001f600"]
    records["c\U0001f33b"] = _record(rng, "c\U0001f33b", 1)
    _pooled(pool, [records["c\U0001f33b"]], vectors)
    merged = view_build.merge(
        _scope(pool, "scope"), _under("e1"), view, {"a\U0001f600", "c\U0001f33b"}, [records["c\U0001f33b"]]
    )
    full = view_build.build(
        _scope(pool, "other"), _under("e1"), [records[i] for i in sorted(records, key=lambda x: x.encode("utf-16-be"))]
    )
    assert merged is not None and full is not None
    assert "a\U0001f600" not in merged.entry_ids
    assert _by_id(merged) == _by_id(full)
