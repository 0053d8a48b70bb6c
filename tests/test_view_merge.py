"""A view listed again in part (`visible_view._merge`) is the view a full listing builds (`_build`), over random
projects and random changes: entries added, removed (hidden, deleted or out of scope), re-dated, given chunks or
losing them, mentioning other entities. The listing itself is tested against Neo4j in tests/test_dense_matrix.py;
here every vector is already in the pool, so neither function reads the graph."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from queries import visible_view

DIM = 8
ENTITIES = [f"x{i}" for i in range(12)]


def _record(rng: random.Random, entry_id: str, version: int) -> list[Any]:
    start = None if rng.random() < 0.2 else 730000 + rng.randrange(4000)
    chunks = [[f"{entry_id}#{k}", f"h{version}", 1] for k in range(rng.choice((0, 0, 1, 2, 3)))]
    mentions = [[x, rng.randrange(1, 4)] for x in rng.sample(ENTITIES, rng.randrange(0, 4))]
    return [entry_id, start, None if start is None else start + rng.randrange(30),
            rng.choice((None, "ana", "pep")), chunks, mentions]


def _pooled(pool: visible_view._Pool, records: list[list[Any]], rng: np.random.Generator) -> None:
    pool.add([((c[0], c[1], int(c[2])), list(rng.standard_normal(DIM))) for r in records for c in r[4]
              if (c[0], c[1], int(c[2])) not in pool.slots])


def _same(a: visible_view.View, b: visible_view.View) -> None:
    assert a.entry_ids == b.entry_ids and a.author_keys == b.author_keys
    assert np.array_equal(a.start, b.start, equal_nan=True) and np.array_equal(a.end, b.end, equal_nan=True)
    assert {x: (i.tolist(), c.tolist()) for x, (i, c) in a.mentioned_by.items()} == \
        {x: (i.tolist(), c.tolist()) for x, (i, c) in b.mentioned_by.items()}
    assert a.embedded.tolist() == b.embedded.tolist() and a.embedded_ids == b.embedded_ids
    assert a.starts.tolist() == b.starts.tolist() and a.chunk_ids == b.chunk_ids and a.stamps == b.stamps
    assert np.array_equal(a.matrix[a.rows], b.matrix[b.rows])


@pytest.mark.parametrize("seed", range(40))
def test_a_view_merged_in_part_is_the_view_built_in_full(seed: int) -> None:
    rng, vectors = random.Random(seed), np.random.default_rng(seed)
    ids = sorted({f"e{rng.randrange(10_000):05d}" for _ in range(rng.randrange(0, 60))})
    records = {i: _record(rng, i, 0) for i in ids}
    pool = visible_view._Pool(DIM)
    listed = [records[i] for i in sorted(records)]
    _pooled(pool, listed, vectors)
    view = visible_view._build(None, pool, {}, "k", "scope", [], "e0", listed)  # type: ignore[arg-type]
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
        merged = visible_view._merge(None, pool, {}, "k", "scope", [], f"e{step}", view,  # type: ignore[arg-type]
                                     changed, again)
        full = visible_view._build(None, pool, {}, "k", "other", [], f"e{step}",  # type: ignore[arg-type]
                                   [records[i] for i in sorted(records)])
        assert merged is not None and full is not None
        _same(merged, full)
        view = merged
