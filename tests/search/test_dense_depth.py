"""The dense channel reaches deeper than the keyword channel: its hits past the keyword depth become candidates of the
learned ranker, on the kept view and on the Cypher scan alike, and the depth is the search's option."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

PLANTS = "rosas tomates geranios lechugas hortensias pimientos margaritas fresas olivos tulipanes".split()
CHORES = "regamos podamos abonamos plantamos cuidamos trasplantamos limpiamos miramos cortamos".split()
QUESTION = "¿qué hicimos con las plantas del jardín?"


@pytest.fixture()
def garden(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> tuple[str, str]:
    """Ninety notes about the garden, every one alike to the question and holding its word "jardín"."""
    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    rows = [
        {
            "entry_id": f"{project}/n{n}",
            "project_id": project,
            "author": owner,
            "text": f"Esta mañana {CHORES[n % len(CHORES)]} las {PLANTS[n % len(PLANTS)]} del jardín"
            + " con mucho cuidado" * (n % 4)
            + f" antes de comer ({n}).",
        }
        for n in range(90)
    ]
    assert not ingest(rows).errors
    return project, owner


def captured(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, garden: tuple[str, str], **options: Any
) -> dict[str, list[list[Any]]]:
    project, owner = garden
    sink: list[dict[str, Any]] = []
    hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=owner),
        QUESTION,
        Scope(project_id=project),
        SearchOptions(k=10, fusion="learned", capture=sink, **options),
    )
    channels: dict[str, list[list[Any]]] = sink[0]["channels"]
    return channels


def test_dense_hits_past_the_keyword_depth_are_candidates(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, garden: tuple[str, str]
) -> None:
    default = SearchOptions()
    channels = captured(graph, embedder, settings, garden)
    assert len(channels["fulltext"]) <= default.candidates_per_channel < len(channels["dense"])
    assert len(channels["dense"]) == default.dense_candidates

    shallow = captured(graph, embedder, settings, garden, dense_candidates=default.candidates_per_channel)
    assert len(shallow["dense"]) == default.candidates_per_channel
    assert [h[0] for h in shallow["dense"]] == [h[0] for h in channels["dense"][: default.candidates_per_channel]]


def test_the_cypher_scan_and_the_vector_index_reach_as_deep_as_the_kept_view(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, garden: tuple[str, str]
) -> None:
    kept = captured(graph, embedder, settings, garden)
    scanned = captured(graph, embedder, settings.model_copy(update={"dense_matrix_viewers": 0}), garden)
    assert len(scanned["dense"]) == len(kept["dense"]) == SearchOptions().dense_candidates
    assert {h[0] for h in scanned["dense"]} == {h[0] for h in kept["dense"]}
    by_index = settings.model_copy(update={"dense_matrix_viewers": 0, "exact_scan_max_chunks": 0})
    indexed = captured(graph, embedder, by_index, garden)
    assert len(indexed["dense"]) == SearchOptions().dense_candidates, "the fetch grows until that many visible hits"
    assert [h[0] for h in indexed["dense"][:10]] == [h[0] for h in kept["dense"][:10]]
