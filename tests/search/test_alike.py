"""The learned ranker's `alike` fact (queries/search/ranker.py `gather`): the vector the dense channel searched with,
against each visible candidate's best chunk, scaled over the candidates the viewer may see; 0 for a candidate without
a vector yet, and for every candidate when the dense channel did not run; no embedding of its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.db import Graph
from graph.members import set_member
from graph.schema import vector_property
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import query_vectors, ranker
from queries.search.door import hybrid_search
from queries.search.fusion import Hit
from queries.search.query_constraints import SoftConstraints
from queries.search.request import Scope, SearchOptions

QUESTION = "¿Qué tomé para el dolor de cabeza?"


# The vectors the statement-level test reads: a copy of the model's, on the chunks the test names. Another test's
# embedding worker (a served app) may embed any chunk that is pending, so "an entry without a vector" is made this way.
PROBE = "MATCH (c:Chunk)-[:OF]->(e:Entry) WHERE e.id IN $ids SET c.alike_probe = c[$prop]"


def _world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> tuple[str, str, str]:
    project, owner, reader = f"{prefix}alike", f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")

    def row(key: str, text: str, intimacy: str = "circle") -> dict[str, Any]:
        return {
            "entry_id": f"{project}/{key}",
            "project_id": project,
            "author": owner,
            "intimacy": intimacy,
            "text": text,
        }

    assert not ingest(
        [
            row("pill", "Tomé un paracetamol porque me dolía mucho la cabeza."),
            row("car", "El coche se averió en la autopista de vuelta de Cádiz."),
            row("beach", "Pasamos la tarde en la playa con los primos."),
            row("hidden", "Me dolía la cabeza y tomé una pastilla, lo escribo solo para mí.", "private"),
        ]
    ).errors
    return project, owner, reader


def test_every_visible_candidate_is_scaled_against_the_others_and_nothing_hidden_is_read(
    graph: Graph, prefix: str, ingest: Callable[..., Any], embedder: CheckedEmbedder
) -> None:
    project, owner, reader = _world(graph, prefix, ingest)
    assert not ingest(
        [{"entry_id": f"{project}/late", "project_id": project, "author": owner, "text": "Un ibuprofeno."}]
    ).errors
    with_vectors = [f"{project}/{k}" for k in ("pill", "car", "beach", "hidden")]
    graph.write(PROBE, {"ids": with_vectors, "prop": vector_property(embedder.slug)})
    ids = [*with_vectors, f"{project}/late"]
    vector = [float(x) for x in embedder.embed_query(QUESTION)]

    def facts(viewer: str, these: list[str], with_vector: bool = True) -> dict[str, float]:
        found = {"fulltext": [Hit(i, 1.0) for i in these]}
        record = ranker.gather(
            graph,
            QUESTION,
            found,
            SoftConstraints(),
            Viewer(user_id=viewer),
            None,
            vector if with_vector else None,
            "alike_probe",
        ).record
        return {i: f["alike"] for i, f in record["facts"].items()}

    seen = facts(reader, ids)
    assert f"{project}/hidden" not in seen, "a private entry of another is never read"
    assert seen[f"{project}/pill"] == 1.0, "the entry that says what the question asks is the most alike"
    assert min(seen[f"{project}/car"], seen[f"{project}/beach"]) == 0.0
    assert seen[f"{project}/late"] == 0.0, "an entry without a vector yet counts as least alike, and is still there"
    assert facts(reader, [i for i in ids if not i.endswith("/hidden")]) == seen, "the hidden entry moves nothing"

    own = facts(owner, ids)
    assert 0.0 < own[f"{project}/hidden"] <= 1.0, "its author sees it, scaled with the rest"
    assert set(facts(reader, ids, with_vector=False).values()) == {0.0}, "no vector: no likeness for anyone"
    assert set(facts(reader, [f"{project}/pill"]).values()) == {0.0}, "one candidate alone is level with itself"


def test_the_door_reuses_the_dense_channels_vector_and_without_it_weighs_nothing(
    graph: Graph, prefix: str, ingest: Callable[..., Any], embedder: CheckedEmbedder, settings: Settings
) -> None:
    project, _, reader = _world(graph, prefix, ingest)
    viewer, scope = Viewer(user_id=reader), Scope(project_id=project)
    sink: list[dict[str, Any]] = []
    query_vectors.clear(graph)
    answer = hybrid_search(graph, embedder, settings, viewer, QUESTION, scope, SearchOptions(k=5, capture=sink))
    assert answer.results
    likeness = {i: f["alike"] for i, f in sink[0]["facts"].items()}
    assert likeness[f"{project}/pill"] == max(likeness.values()) == 1.0
    assert query_vectors.kept_vectors(graph).stats.misses == 1, "the question was embedded once, for the dense channel"

    sink.clear()
    words = SearchOptions(k=5, capture=sink, channels=("fulltext",))
    assert hybrid_search(graph, embedder, settings, viewer, "paracetamol cabeza", scope, words).results
    assert set(f["alike"] for f in sink[0]["facts"].values()) == {0.0}, "no dense channel, no meaning score"


def test_scaled_spreads_the_candidates_over_zero_to_one() -> None:
    assert ranker.scaled({"a": 0.91, "b": 0.85, "c": 0.88}) == {"a": 1.0, "b": 0.0, "c": 0.5}
    assert ranker.scaled({"a": 0.9, "b": 0.9}) == {"a": 0.0, "b": 0.0}
    assert ranker.scaled({}) == {}
