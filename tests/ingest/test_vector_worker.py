"""The entity-vector worker inside `serve`: it builds vectors for what changed without anyone asking, keeps going
after a failed round, and stops when told."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from graph.db import Graph
from graph.entity_vectors import VectorWorker
from graph.members import set_member
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.entities.similar import similar
from tests.entities.test_entity_vectors import CIRCLE, _records


def _wait_for(check: Callable[[], bool], seconds: float = 90.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


def test_worker_builds_and_follows_changes(
    graph: Graph, prefix: str, ingest: Callable[..., Any], embedder: CheckedEmbedder
) -> None:
    project, owner, reader = f"{prefix}band", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    assert not ingest(_records(project, owner, CIRCLE, "circle")).errors
    viewer = Viewer(user_id=reader)
    pep = f"{project}/person/pep"

    def names() -> list[str]:
        return [s.name for s in similar(graph, viewer, project, pep, embedder.slug, "person")]

    assert names() == []  # nothing built yet: no one refreshed
    fail = {"next": True}

    def slug() -> str:
        if fail["next"]:
            fail["next"] = False
            raise RuntimeError("the model state could not be read")
        return embedder.slug

    worker = VectorWorker(graph, slug, interval=0.2, full_sweep_seconds=3600)
    with pytest.raises(RuntimeError):
        worker.run_once()
    first = {s.project_id: s for s in worker.run_once()}  # the first round looks at every project
    assert first[project].rebuilt > 0 and names()[0] == "Juan"
    assert project not in {s.project_id for s in worker.run_once()}  # nothing moved: not read again

    ingest(
        _records(
            project,
            owner,
            [
                (
                    "m4",
                    "2010-01",
                    ["Pep", "Nico"],
                    ["Berlín"],
                    "Pep y Nico grabaron el disco de rock en Berlín con la banda.",
                )
            ],
            "circle",
        )
    )
    fail["next"] = True  # the thread's first round fails; the next ones must still run
    worker.start()
    try:
        assert _wait_for(lambda: "Nico" in names()), "a new circle entry never reached the reader's vectors"
        assert not fail["next"]
    finally:
        worker.stop()
    assert worker._thread is not None and not worker._thread.is_alive()
