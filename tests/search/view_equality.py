"""Two kept views hold the same entries, dates, authors, told times, mentions, conversation turns, chunks and
vectors."""

from __future__ import annotations

import numpy as np

from queries.search.view_build import View


def assert_same_view(a: View, b: View) -> None:
    assert a.entry_ids == b.entry_ids and a.author_keys == b.author_keys and a.told == b.told
    assert np.array_equal(a.start, b.start, equal_nan=True) and np.array_equal(a.end, b.end, equal_nan=True)
    assert {x: (i.tolist(), c.tolist()) for x, (i, c) in a.mentioned_by.items()} == {
        x: (i.tolist(), c.tolist()) for x, (i, c) in b.mentioned_by.items()
    }
    assert a.thread_of == b.thread_of and a.turn_of == b.turn_of
    assert a.embedded.tolist() == b.embedded.tolist() and a.embedded_ids == b.embedded_ids
    assert a.starts.tolist() == b.starts.tolist() and a.chunk_ids == b.chunk_ids and a.stamps == b.stamps
    assert np.array_equal(a.matrix[a.rows], b.matrix[b.rows])
