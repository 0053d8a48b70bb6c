"""Deleting an entry leaves no trace of it in the database: after the delete, no property of any node or relationship
(texts, names, ids, lists) holds its words, the name only it gave, its chapter or its id; what other entries and
declarations give stays."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import Services, create_app
from graph.db import Graph
from graph.entity_vectors import refresh_project
from graph.ids import period_id
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.summary_jobs import Summaries
from tests.graph_grep import grep_graph

WORD, NAME, CHAPTER = "Xilofonista", "Remedios Zubiaurre", "Viaje a Oporto"


@pytest.fixture()
def logged(graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str) -> Iterator[TestClient]:
    """Every search logged, the result cache off."""
    services = Services(
        settings.model_copy(update={"search_log_sample": 1.0, "search_cache_seconds": 0.0}),
        graph=graph,
        embedder=embedder,
    )
    with TestClient(create_app(services)) as c:
        yield c


def test_a_deleted_entry_leaves_no_trace_in_the_graph(
    graph: Graph,
    embedder: CheckedEmbedder,
    prefix: str,
    ingest: Callable[..., Any],
    logged: TestClient,
    auth: Callable[[str], dict[str, str]],
) -> None:
    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    gone = f"{project}/gone"
    report = ingest(
        [
            {
                "entry_id": gone,
                "project_id": project,
                "author": owner,
                "intimacy": "private",
                "occurred_on": "1999-08-02",
                "period": CHAPTER,
                "text": f"El {WORD} tocó en la boda; {NAME} lloró con Josep junto al río.",
                "persons": [NAME, "Josep"],
                "places": ["Oporto"],
            },
            {
                "entry_id": f"{project}/stays",
                "project_id": project,
                "author": owner,
                "intimacy": "circle",
                "occurred_on": "2001-05-03",
                "text": "Josep arregló la bicicleta en el patio de casa.",
                "persons": ["Josep"],
            },
        ]
    )
    assert not report.errors
    # Everything the entry is derived into: a logged search that shows it, the summaries it feeds, entity vectors.
    headers = auth(owner)
    found = logged.post("/v1/search", json={"q": WORD, "project_id": project, "k": 5}, headers=headers)
    assert found.status_code == 200 and gone in [r["entry_id"] for r in found.json()["results"]]
    summaries = Summaries(graph, embedder)
    viewer = Viewer(user_id=owner)
    assert WORD in (summaries.for_viewer(viewer, project, period_id(project, CHAPTER)) or {}).get("text", "")
    assert summaries.for_viewer(viewer, project, None) is not None
    refresh_project(graph, project, embedder.slug)
    needles = [WORD, NAME, "Oporto", gone]
    before = grep_graph(graph, needles)
    assert set(before) == {n.lower() for n in needles}, before  # the grep sees every trace while the entry exists
    assert "SearchLog.result_ids" in before[gone.lower()] and "Summary.text" in before[WORD.lower()]
    assert "EntityVector.name" in before[NAME.lower()] and "Period.id" in before["oporto"]

    deleted = logged.delete(f"/v1/entries/{gone}", headers=headers)
    assert deleted.status_code == 200, deleted.text

    assert grep_graph(graph, needles) == {}
    # What the remaining entry gives is kept: Josep, his vector, the project summary rebuilt without the entry.
    assert graph.read("MATCH (x:Person {project_id: $p}) RETURN collect(x.name) AS n", {"p": project})[0]["n"] == [
        "Josep"
    ]
    refresh_project(graph, project, embedder.slug)
    assert graph.read(
        "MATCH (v:EntityVector)-[:VECTOR_OF]->(:Person {project_id: $p}) RETURN count(v) AS n", {"p": project}
    )[0]["n"]
    rebuilt = summaries.for_viewer(viewer, project, None)
    assert rebuilt is not None and "bicicleta" in rebuilt["text"] and WORD not in rebuilt["text"]
    assert grep_graph(graph, needles) == {}
    emptied = summaries.for_viewer(viewer, project, period_id(project, CHAPTER))
    assert emptied is not None and emptied["entry_count"] == 0 and not emptied["text"]


def test_an_edit_that_drops_a_name_and_a_chapter_leaves_neither_behind(
    graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")

    def entry(key: str, text: str, persons: list[str], **extra: Any) -> dict[str, Any]:
        return {
            "entry_id": f"{project}/{key}",
            "project_id": project,
            "author": owner,
            "intimacy": "circle",
            "occurred_on": "1999-08-02",
            "text": text,
            "persons": persons,
            **extra,
        }

    edited = entry("edited", f"{NAME} lloró con Josep junto al río.", [NAME, "Josep"], period=CHAPTER)
    other = entry("other", "Josep arregló la bicicleta.", ["Josep"])
    assert not ingest([edited, other]).errors
    refresh_project(graph, project, embedder.slug)
    Summaries(graph, embedder).for_viewer(Viewer(user_id=owner), project, period_id(project, CHAPTER))
    needles = [NAME, "oporto"]
    assert set(grep_graph(graph, needles)) == {n.lower() for n in needles}

    rewritten = {k: v for k, v in edited.items() if k != "period"}
    assert not ingest([{**rewritten, "text": "Lloramos con Josep junto al río.", "persons": ["Josep"]}]).errors

    assert grep_graph(graph, needles) == {}
    persons = graph.read("MATCH (x:Person {project_id: $p}) RETURN collect(x.name) AS n", {"p": project})[0]["n"]
    assert persons == ["Josep"]
