"""Property-based privacy of summaries and chapter bundles on the real Neo4j: random worlds (the generator of
tests/privacy/test_property_privacy.py: projects, members with random roles, entries with random author, intimacy and
chapter, an optional witness grant; an entry without a chapter dated in one of two months, so it falls in an
automatic chapter), and for every viewer the project summary, each period summary, the period list (with the people
it names) and a chapter bundle are compared with `can_see` written from docs/architecture.md ("Privacy: who sees
what"): none of them may carry a hidden entry's marker or person, and each summary must be built from exactly the
entries of its scope the viewer may see."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings

from graph.db import Graph
from graph.ids import period_id
from graph.members import set_member
from graph.settings import Settings
from graph.summaries import visible_periods
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from ingest.summary_jobs import Summaries
from queries.context.chapter import chapter_context
from tests.budget import examples, spent
from tests.conftest import CLEANUP, SUMMARY
from tests.privacy.test_property_privacy import CHAPTERS, KEYWORD, NAMES, Names, Who, World, can_see, records, worlds

pytestmark = pytest.mark.slow

MAX_EXAMPLES = examples(12)
BUDGETS = (25, 400)
TALLY = {"worlds": 0, "checks": 0}


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    since = time.monotonic()
    yield
    SUMMARY.append(
        f"property privacy of summaries and chapter bundles: {TALLY['worlds']} worlds, "
        f"{TALLY['checks']} (viewer, entry, output) cases"
        f" {spent(since)}"
    )


def _hidden(world: World, names: Names, who: Who) -> list[str]:
    return [w for k in range(len(world.entries)) if not can_see(world, who, k) for w in (names.marker(k), NAMES[k])]


def _month(k: int) -> str:
    """The month an entry without a chapter is dated in: its automatic chapter's name."""
    return ("2008-01", "2008-02")[k % 2]


def _chapter(world: World, k: int) -> str:
    return world.entries[k].chapter or _month(k)


def _records(world: World, names: Names) -> list[dict[str, Any]]:
    return [
        rec if "period" in rec else {**rec, "occurred_on": f"{_month(k)}-15"}
        for k, rec in enumerate(records(world, names))
    ]


def _visible(world: World, who: Who, project: int, chapter: str | None) -> int:
    return sum(
        1
        for k, e in enumerate(world.entries)
        if e.project == project and can_see(world, who, k) and (chapter is None or _chapter(world, k) == chapter)
    )


def _check(label: str, text: str, hidden: list[str], n_entries: int) -> None:
    leaked = [w for w in hidden if w in text]
    assert not leaked, f"{label} carries hidden {leaked}"
    TALLY["checks"] += n_entries


@hyp_settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(world=worlds())
def test_summaries_and_chapter_bundles_carry_nothing_hidden(
    world: World, graph: Graph, embedder: CheckedEmbedder, settings: Settings, ingest: Callable[..., IngestReport]
) -> None:
    names = Names()
    try:
        for i in range(world.n_users):
            for j in range(world.n_projects):
                if world.roles[i][j] is not None:
                    set_member(graph, names.project(j), names.user(i), world.roles[i][j])
        assert not ingest(_records(world, names)).errors
        summaries = Summaries(graph, embedder)
        n = len(world.entries)
        for i in range(world.n_users):
            who, viewer = Who(i), Viewer(user_id=names.user(i))
            hidden = _hidden(world, names, who)
            for j in range(world.n_projects):
                if world.roles[i][j] is None:
                    continue
                project = names.project(j)
                allowed = {names.entry(world, k) for k in range(n) if can_see(world, who, k)}
                row = summaries.for_viewer(viewer, project, None)
                assert row is not None and row["entry_count"] == _visible(world, who, j, None), (i, j, row)
                _check(f"project summary for u{i}", row["text"], hidden, n)
                assert set(row["cites"]) <= allowed, "a summary cites an entry its viewer may not see"
                listed = visible_periods(graph, project, viewer)
                expected = {c for c in (*CHAPTERS, _month(0), _month(1)) if _visible(world, who, j, c)}
                assert {p["name"] for p in listed} == expected, (i, j, listed)
                assert all(p["automatic"] == (p["name"] not in CHAPTERS) for p in listed), listed
                _check(f"period list for u{i}", json.dumps(listed, ensure_ascii=False), hidden, n)
                for p in listed:
                    told = {
                        NAMES[k]
                        for k, e in enumerate(world.entries)
                        if e.project == j and can_see(world, who, k) and _chapter(world, k) == p["name"]
                    }
                    assert set(p["people"]) <= told and len(p["people"]) == min(3, len(told)), (p, told)
                for p in listed:
                    row = summaries.for_viewer(viewer, project, p["id"])
                    assert row is not None and row["entry_count"] == _visible(world, who, j, p["name"])
                    _check(f"summary of {p['name']} for u{i}", row["text"], hidden, n)
                    assert set(row["cites"]) <= allowed
                for budget in BUDGETS:
                    ctx = chapter_context(graph, embedder, settings, summaries, viewer, project, KEYWORD, budget)
                    assert ctx.used_tokens <= budget
                    _check(f"chapter bundle for u{i}", json.dumps(ctx.as_dict(), ensure_ascii=False), hidden, n)
                    cited = {e["entry_id"] for e in ctx.entries}
                    cited |= {event["entry_id"] for p in ctx.periods for event in p["events"]}
                    assert cited <= allowed
        if world.grant is not None:
            j, chapter = world.grant
            witness = Who(None)
            row = summaries.for_viewer(
                Viewer(witness_period_id=period_id(names.project(j), chapter)),
                names.project(j),
                period_id(names.project(j), chapter),
            )
            if any((e.project, e.chapter) == world.grant for e in world.entries):
                assert row is not None and row["entry_count"] == _visible(world, witness, j, chapter)
                _check("witness summary", row["text"], _hidden(world, names, witness), n)
        TALLY["worlds"] += 1
    finally:
        graph.write(CLEANUP, {"prefix": names.prefix})
