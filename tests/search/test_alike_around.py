"""The ranker's facts of a conversation turn's neighbours (queries/search/ranker.py `gather`,
queries/search/turns_around.py): `alike_after`, how alike the question is to the next two turns of the search's scope
the viewer may see, and `alike_before`, to the one before, each on the candidates' own scale. Counted among those turns
only: a hidden turn is neither read nor a gap in the count; the kept view and the statement give the same."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from graph.db import Graph
from graph.embeddings import stores_key
from graph.entries import delete_entry
from graph.members import set_member
from graph.schema import vector_property
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import ranker, turns_around, visible_view
from queries.search.fusion import Hit
from queries.search.query_constraints import SoftConstraints
from queries.search.scope import SearchScope
from tests.search.test_replies import message

pytestmark = pytest.mark.neo4j

QUESTION = "¿Qué tomaste para el dolor de cabeza?"
# A copy of the model's vectors under a property of the test's own (see tests/search/test_alike.py).
PROBE = "MATCH (c:Chunk)-[:OF]->(e:Entry) WHERE e.id IN $ids SET c.alike_probe = c[$prop]"


def _chat(graph: Graph, prefix: str, ingest: Callable[..., Any], embedder: CheckedEmbedder) -> dict[str, str]:
    project, ana, bob, eva = f"{prefix}around", f"{prefix}ana", f"{prefix}bob", f"{prefix}eva"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, bob, "coauthor")
    set_member(graph, project, eva, "reader")

    turn = partial(message, project)
    rows = [
        turn(1, ana, "¿y al final qué hiciste ayer?"),
        turn(2, bob, "uf"),
        turn(3, bob, "El coche se averió en la autopista de vuelta de Cádiz.", "private"),
        turn(4, bob, "me dolía muchísimo la cabeza y me tomé un paracetamol"),
        turn(5, ana, "Pasamos la tarde en la playa con los primos."),
    ]
    assert ingest(rows).written == len(rows)
    graph.write(PROBE, {"ids": [r["entry_id"] for r in rows], "prop": vector_property(embedder.slug)})
    return {"project": project, "ana": ana, "bob": bob, "eva": eva}


def _facts(
    graph: Graph, embedder: CheckedEmbedder, user: str, ids: list[str], vector: bool = True, **filters: Any
) -> dict[str, Any]:
    query = [float(x) for x in embedder.embed_query(QUESTION)] if vector else None
    found = {"fulltext": [Hit(i, 1.0) for i in ids]}
    viewer = Viewer(user_id=user)
    scope = SearchScope(viewer, (ids[0].split("/")[0],), **filters)
    record = ranker.gather(graph, QUESTION, found, SoftConstraints(), viewer, None, query, "alike_probe", scope).record
    return record["facts"]


def test_the_turns_around_are_counted_among_those_the_viewer_may_see(
    graph: Graph, prefix: str, ingest: Callable[..., Any], embedder: CheckedEmbedder
) -> None:
    chat = _chat(graph, prefix, ingest, embedder)
    p = chat["project"]
    ids = [f"{p}/m{n}" for n in range(1, 6)]

    reader = _facts(graph, embedder, chat["eva"], ids)
    alike = {n: reader[f"{p}/m{n}"]["alike"] for n in (1, 2, 4, 5)}
    assert f"{p}/m3" not in reader
    assert reader[f"{p}/m1"]["alike_after"] == max(alike[2], alike[4]), "the next two it may see: m3 is not a gap"
    assert reader[f"{p}/m2"]["alike_after"] == max(alike[4], alike[5])
    assert reader[f"{p}/m4"]["alike_before"] == alike[2], "the one before it may see"
    assert reader[f"{p}/m5"]["alike_before"] == alike[4]
    assert reader[f"{p}/m5"]["alike_after"] == 0.0, "the last turn has nothing after it"
    assert reader[f"{p}/m1"]["alike_before"] == 0.0, "the first turn has nothing before it"

    author = _facts(graph, embedder, chat["bob"], ids)
    mine = {n: author[f"{p}/m{n}"]["alike"] for n in (2, 3)}
    assert author[f"{p}/m1"]["alike_after"] == max(mine[2], mine[3]), "its author sees m3: the next two are m2, m3"
    assert author[f"{p}/m4"]["alike_before"] == mine[3]

    by_ana = _facts(graph, embedder, chat["eva"], ids, author_ids=(chat["ana"],))
    assert by_ana[f"{p}/m1"]["alike_after"] == by_ana[f"{p}/m5"]["alike"], "the next turn in the search's scope"

    delete_entry(graph, f"{p}/m3")
    assert _facts(graph, embedder, chat["eva"], ids) == reader, (
        "deleting the hidden turn changes nothing the reader sees"
    )


def test_the_kept_view_gives_the_turns_the_statement_gives(
    graph: Graph, prefix: str, ingest: Callable[..., Any], embedder: CheckedEmbedder, settings: Settings
) -> None:
    chat = _chat(graph, prefix, ingest, embedder)
    p = chat["project"]
    ids = [f"{p}/m{n}" for n in range(1, 6)]
    vector = [float(x) for x in embedder.embed_query(QUESTION)]
    kept = settings.model_copy(update={"dense_matrix_viewers": 8})
    for user in (chat["eva"], chat["bob"]):
        scope = SearchScope(Viewer(user_id=user), (p,))
        assert turns_around.from_view(graph, kept, scope, "alike_probe", ids, vector) is None, "no view listed yet"
        params = {**scope.params(), "prop": "alike_probe"}
        assert visible_view.view_for(graph, kept, scope.viewer, params, stores_key(embedder.slug), len(vector))
        viewed = turns_around.from_view(graph, kept, scope, "alike_probe", ids, vector)
        read = turns_around.by_statement(graph, scope, "alike_probe", ids, vector)
        assert viewed is not None and viewed.keys() == read.keys() and len(read) == (4 if user == chat["eva"] else 5)
        for x, (after, before) in read.items():
            assert len(after) == len(viewed[x][0]) and len(before) == len(viewed[x][1]), x
            assert all(abs(a - b) < 1e-5 for a, b in zip(after + before, viewed[x][0] + viewed[x][1], strict=True))
        assert read[f"{p}/m5"][0] == [] and read[f"{p}/m1"][1] == []


def test_without_the_query_vector_or_a_conversation_the_turns_around_weigh_nothing(
    graph: Graph, prefix: str, ingest: Callable[..., Any], embedder: CheckedEmbedder
) -> None:
    chat = _chat(graph, prefix, ingest, embedder)
    p = chat["project"]
    ids = [f"{p}/m{n}" for n in (1, 2, 4, 5)]
    facts = _facts(graph, embedder, chat["eva"], ids, vector=False)
    assert {f[k] for f in facts.values() for k in ("alike_after", "alike_before")} == {0.0}

    lone = f"{p}/note"
    assert ingest([{"entry_id": lone, "project_id": p, "author": chat["ana"], "text": "Un ibuprofeno."}]).written == 1
    graph.write(PROBE, {"ids": [lone], "prop": vector_property(embedder.slug)})
    alone = _facts(graph, embedder, chat["eva"], [*ids, lone])[lone]
    assert alone["alike_after"] == alone["alike_before"] == 0.0, "an entry outside a conversation has no turns around"


def test_on_scale_puts_a_neighbour_on_the_candidates_scale() -> None:
    assert ranker.on_scale([0.85, 0.88], (0.85, 0.91)) == 0.5
    assert ranker.on_scale([0.95], (0.85, 0.91)) == 1.0, "above every candidate: held at 1"
    assert ranker.on_scale([0.80], (0.85, 0.91)) == 0.0
    assert (
        ranker.on_scale([], (0.85, 0.91)) == ranker.on_scale([0.9], None) == ranker.on_scale([0.9], (0.9, 0.9)) == 0.0
    )
