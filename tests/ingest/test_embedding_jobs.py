"""Embeddings never lose a write: outage during ingest, resumable backfill, bounded retries, and a model migration
during which searches keep answering."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from graph.db import Graph
from graph.embeddings import EmbeddingState, get_state, set_state
from graph.schema import vector_property
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest import embedding_jobs as jobs
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

# Serial: these tests count how many of their pending chunks a backfill claims, and the embedding worker of any
# `memora serve` another test runs claims every project's pending chunks.
pytestmark = pytest.mark.serial


class Outage:
    """The real model behind a switch: while `down`, every call fails like an unreachable service."""

    def __init__(self, real: CheckedEmbedder) -> None:
        self.real = real.inner
        self.model_id, self.slug, self.dimensions = real.model_id, real.slug, real.dimensions
        self.down = True
        self.calls = 0

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        if self.down:
            raise ConnectionError("embedding service unreachable")
        return np.asarray(self.real.embed_passages(texts))

    def embed_query(self, text: str) -> np.ndarray:
        if self.down:
            raise ConnectionError("embedding service unreachable")
        return np.asarray(self.real.embed_query(text))


def _rows(project: str, author: str, n: int) -> list[dict[str, Any]]:
    topics = [
        "paracetamol para la fiebre",
        "la playa de Tarifa con viento",
        "el piso de Lavapiés y la gotera",
        "la nieve en Berlín",
        "la bici en Cádiz",
        "la boda en Bolonia",
    ]
    return [
        {
            "entry_id": f"{project}/e{i}",
            "project_id": project,
            "author": author,
            "intimacy": "circle",
            "text": f"Entrada {i}: {topics[i % len(topics)]}, día {i}.",
        }
        for i in range(n)
    ]


def _chunk_status(graph: Graph, project: str) -> dict[str, int]:
    rows = graph.read("MATCH (c:Chunk {project_id: $p}) RETURN c.embedding_status AS s, count(*) AS n", {"p": project})
    return {r["s"]: r["n"] for r in rows}


def _project_pending(graph: Graph, project: str, prop: str) -> int:
    return int(
        graph.read(
            "MATCH (c:Chunk {project_id: $p}) WHERE c[$prop] IS NULL RETURN count(c) AS n", {"p": project, "prop": prop}
        )[0]["n"]
    )


def test_outage_during_ingest_saves_everything_and_backfill_embeds_it_once(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, owner = f"{prefix}p", f"{prefix}owner"
    from graph.members import set_member

    set_member(graph, project, owner, "owner")
    outage = Outage(embedder)
    report = ingest(_rows(project, owner, 6), emb=CheckedEmbedder(outage))
    assert report.written == 6 and report.chunks_pending == 6
    assert _chunk_status(graph, project) == {"pending": 6}

    found = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=owner),
        "paracetamol",
        Scope(project_id=project),
        SearchOptions(channels=("fulltext",)),
    )
    assert found.results and found.results[0].entry_id == f"{project}/e0"

    stats = jobs.backfill(graph, CheckedEmbedder(outage), project_id=project)
    assert stats.embedded == 0 and stats.errors
    outage.down = False
    assert jobs.backfill(graph, CheckedEmbedder(outage), project_id=project).embedded == 6
    assert _chunk_status(graph, project) == {"done": 6}
    chunks = graph.read(
        "MATCH (c:Chunk {project_id: $p}) RETURN count(c) AS n, count(DISTINCT c.id) AS d", {"p": project}
    )[0]
    assert chunks["n"] == chunks["d"] == 6
    dense = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=owner),
        "medicine for a fever",
        Scope(project_id=project),
        SearchOptions(channels=("dense",)),
    )
    assert dense.results[0].entry_id == f"{project}/e0"


def test_interrupted_backfill_resumes_without_repeating_work(
    graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any]
) -> None:
    project = f"{prefix}p"
    outage = Outage(embedder)
    ingest(_rows(project, f"{prefix}a", 10), emb=CheckedEmbedder(outage))
    outage.down = False
    prop = vector_property(embedder.slug)
    first = jobs.backfill(graph, CheckedEmbedder(outage), batch_size=3, max_batches=1, project_id=project)
    assert first.embedded == 3
    assert _project_pending(graph, project, prop) == 7
    second = jobs.backfill(graph, CheckedEmbedder(outage), batch_size=3, project_id=project)
    assert second.embedded == 7
    assert _project_pending(graph, project, prop) == 0
    assert _chunk_status(graph, project) == {"done": 10}


def test_bounded_retries_mark_failed_and_retry_failed_resets(
    graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any]
) -> None:
    project = f"{prefix}p"
    outage = Outage(embedder)
    ingest(_rows(project, f"{prefix}a", 2), emb=CheckedEmbedder(outage))
    for _ in range(jobs.MAX_ATTEMPTS + 1):
        jobs.backfill(graph, CheckedEmbedder(outage), project_id=project)
    assert _chunk_status(graph, project) == {"failed": 2}
    err = graph.read("MATCH (c:Chunk {project_id: $p}) RETURN c.embedding_error AS e LIMIT 1", {"p": project})[0]["e"]
    assert "unreachable" in err
    assert jobs.retry_failed(graph, CheckedEmbedder(outage)) >= 2
    outage.down = False
    jobs.backfill(graph, CheckedEmbedder(outage), project_id=project)
    assert _chunk_status(graph, project) == {"done": 2}


@pytest.fixture()
def restore_state(graph: Graph, settings: Settings) -> Iterator[EmbeddingState]:
    before = jobs.current_state(graph, settings)
    yield before
    after = get_state(graph)
    set_state(graph, before)
    if after is not None:
        for slug in {after.active_slug, after.target_slug or "", *after.retired} - {before.active_slug, ""}:
            graph.run_auto(f"DROP INDEX chunk_vec_{slug} IF EXISTS")
            graph.write(
                "MATCH (c:Chunk) WHERE c[$prop] IS NOT NULL SET c += $nulls",
                {"prop": vector_property(slug), "nulls": {vector_property(slug): None, f"attempts_{slug}": None}},
            )
    graph.write(
        "MATCH (c:Chunk) WHERE c.embedding_model <> $m SET c.embedding_model = $m",
        {"m": jobs.embedder_for_spec(settings, before.active).model_id},
    )


# This one changes the installation's embedding model, which every other test's writes and searches use.
def test_searches_keep_answering_during_a_model_migration(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    prefix: str,
    ingest: Callable[..., Any],
    restore_state: EmbeddingState,
) -> None:
    from graph.members import set_member

    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    ingest(_rows(project, owner, 12))
    target_spec = f"{restore_state.active}@128"

    def search() -> Any:
        return hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=owner),
            "medicine for a fever",
            Scope(project_id=project),
            SearchOptions(k=5, channels=("dense", "fulltext")),
        )

    state = jobs.start_migration(graph, settings, target_spec)
    assert state.target == target_spec
    target = jobs.target_embedder(graph, settings)
    assert target is not None and target.dimensions == 128
    seen_next = False
    while True:
        resp = search()
        assert resp.results, "search must answer at every step of the migration"
        assert resp.results[0].entry_id in {f"{project}/e0", f"{project}/e6"}
        seen_next |= any("dense_next" in r.score_breakdown for r in resp.results)
        stats = jobs.backfill(graph, target, active=False, batch_size=200, max_batches=1)
        if stats.embedded == 0:
            break
    assert seen_next
    final = jobs.finish_migration(graph, settings)
    assert final.active == target_spec and final.target is None and restore_state.active_slug in final.retired
    resp = hybrid_search(
        graph,
        jobs.active_embedder(graph, settings),
        settings,
        Viewer(user_id=owner),
        "medicine for a fever",
        Scope(project_id=project),
        SearchOptions(k=5, channels=("dense",)),
    )
    assert resp.results[0].entry_id in {f"{project}/e0", f"{project}/e6"}
    assert "dense_next" not in resp.results[0].score_breakdown
