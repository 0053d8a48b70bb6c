"""bge-m3's lexical weights as a search channel: stored with each chunk, scored in Cypher over the visible scope,
fused by RRF. Uses a tiny BGE-M3-shaped model the test builds, loaded by the production code path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graph.db import Graph
from graph.members import set_member
from graph.schema import ensure_vector_index
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder, EmbedderSettings, get_embedder
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions
from tests.tiny_models import build_tiny_bge_m3


@pytest.fixture(scope="module")
def bge(tmp_path_factory: pytest.TempPathFactory) -> CheckedEmbedder:
    pytest.importorskip("FlagEmbedding")
    path = build_tiny_bge_m3(tmp_path_factory.mktemp("models") / "bge-m3-tiny")
    return get_embedder(Settings(embedder="flagembedding", embedder_model=str(path)), EmbedderSettings())


def test_sparse_weights_are_stored_and_searched_within_privacy(
    graph: Graph, settings: Settings, prefix: str, bge: CheckedEmbedder, ingest: Callable[..., Any]
) -> None:
    ensure_vector_index(graph, bge.slug, bge.dimensions)
    project, owner, reader = f"{prefix}p", f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    rows = [
        ("dog", "circle", "la abuela y el perro en la playa de cádiz"),
        ("train", "circle", "el tren a madrid en invierno con mi hermano"),
        ("dinner", "circle", "cena en sevilla con la madre y el padre"),
        ("secret", "private", "el perro y el gato en el jardín de la casa"),
    ]
    report = ingest(
        [
            {"entry_id": f"{project}/{k}", "project_id": project, "author": owner, "intimacy": lvl, "text": text}
            for k, lvl, text in rows
        ],
        emb=bge,
    )
    assert not report.errors and report.chunks_embedded == 4
    stored = graph.read(
        "MATCH (c:Chunk {project_id: $p}) RETURN c.entry_id AS id, c.sparse_tokens AS t", {"p": project}
    )
    tokens = {r["id"].rsplit("/", 1)[1]: set(r["t"] or []) for r in stored}
    assert "perro" in tokens["dog"] and "sevilla" in tokens["dinner"]

    def search(user: str) -> Any:
        return hybrid_search(
            graph,
            bge,
            settings,
            Viewer(user_id=user),
            "perro playa",
            Scope(project_id=project),
            SearchOptions(k=4, channels=("dense",)),
        )

    owner_view = search(owner)
    ranked = [r.entry_id.rsplit("/", 1)[1] for r in owner_view.results]
    by_sparse = sorted(
        (r for r in owner_view.results if "sparse" in r.score_breakdown),
        key=lambda r: r.score_breakdown["sparse"]["rank"],
    )
    assert by_sparse[0].entry_id == f"{project}/dog"
    assert {"dog", "secret"} <= {r.entry_id.rsplit("/", 1)[1] for r in by_sparse}
    assert "dog" in ranked[:2]
    reader_view = search(reader)
    assert f"{project}/secret" not in {r.entry_id for r in reader_view.results}
    assert reader_view.total_candidates == 3
