"""The forgetting benchmark cannot silently rot: run end to end at a small size on the real Neo4j, each operation
it times removes what it should (counted from the records it writes), and it leaves nothing behind."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bench_forgetting import FORGOTTEN, record, run, victim_numbers
from graph.db import Graph
from tests.design_rule import member_may_see

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]


def test_each_timed_operation_removes_what_it_should_and_nothing_is_left(graph: Graph) -> None:
    n, deletes = 300, 5
    out: Any = run(n, deletes)
    kept = [record("p", "u-", i) for i in range(n) if i not in victim_numbers(n, deletes)]
    naming = [r for r in kept if FORGOTTEN in r["persons"]]
    owner_sees = [r for r in naming if member_may_see("owner", str(r["intimacy"]), r["author"] == "u-ana")]
    leaver = [r for r in kept if r["author"] == "u-leo"]
    assert out["entry_delete_ms"]["n"] == deletes
    assert out["forget"]["entries_redacted"] == len(owner_sees) > 0
    assert out["forget"]["not_editable"] == 0
    assert out["leave"]["entries_deleted"] == len(leaver) > 0
    assert out["project_delete"]["entries"] == len(kept) - len(leaver)
    left = graph.read(
        "MATCH (n) WHERE n.project_id = $p OR (n:Project AND n.id = $p) RETURN count(n) AS n", {"p": out["project"]}
    )
    assert left[0]["n"] == 0
