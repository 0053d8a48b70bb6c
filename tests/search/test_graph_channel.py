"""The `graph` channel on the real Neo4j: it reaches entries through entities where words miss, a hidden entry is
never a node of its graph, and a query naming nothing leaves it empty without error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions, SearchResponse

Ingest = Callable[..., IngestReport]
HYBRID = ("dense", "fulltext", "structured")
QUERY = "¿Qué recuerdos tengo de Pep?"


@pytest.fixture()
def search(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> Callable[..., SearchResponse]:
    def run(user: str, query: str, project: str, channels: tuple[str, ...]) -> SearchResponse:
        return hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=user),
            query,
            Scope(project_id=project),
            SearchOptions(k=50, channels=channels, diversify=False),
        )

    return run


@pytest.fixture()
def calella(graph: Graph, prefix: str, ingest: Ingest) -> dict[str, str]:
    """Pep is met in Calella twice; one entry is about Calella alone, with none of the query's words; one about
    Girona shares nothing with Pep. Two turns of one conversation (same `occurred_at`) close the set."""
    project = f"{prefix}cal"
    owner, reader = f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    rows: list[dict[str, Any]] = [
        {
            "entry_id": "walk",
            "text": "Pep y yo paseamos por la playa al atardecer.",
            "occurred_on": "2009-07-02",
            "persons": ["Pep"],
            "places": ["Calella"],
        },
        {
            "entry_id": "sardines",
            "text": "Con Pep comimos sardinas en el chiringuito.",
            "occurred_on": "2009-07-05",
            "persons": ["Pep"],
            "places": ["Calella"],
        },
        {
            "entry_id": "lighthouse",
            "text": "El faro seguía apagado aquel invierno, nadie sabía por qué.",
            "occurred_on": "2010-01-10",
            "places": ["Calella"],
        },
        {
            "entry_id": "cheese",
            "text": "Fui al mercado a comprar queso curado.",
            "occurred_on": "2011-03-03",
            "places": ["Girona"],
        },
        {
            "entry_id": "turn1",
            "text": "¿Te acuerdas del verano con Pep?",
            "occurred_at": "2012-05-01T10:00",
            "turn": 1,
            "persons": ["Pep"],
        },
        {
            "entry_id": "turn3",
            "text": "Sí, fue el año de la tormenta grande.",
            "occurred_at": "2012-05-01T10:00",
            "turn": 3,
        },
    ]
    report = ingest(
        [
            {
                **r,
                "entry_id": f"{project}/{r['entry_id']}",
                "project_id": project,
                "author": owner,
                "intimacy": "circle",
            }
            for r in rows
        ]
    )
    assert report.errors == [] and report.written == len(rows)
    return {"project": project, "owner": owner, "reader": reader}


def graph_hits(resp: SearchResponse) -> list[tuple[str, float]]:
    return [
        (r.entry_id.rsplit("/", 1)[1], r.score_breakdown["graph"]["score"])
        for r in resp.results
        if "graph" in r.score_breakdown
    ]


def test_graph_reaches_an_entry_words_miss(calella: dict[str, str], search: Callable[..., SearchResponse]) -> None:
    p, reader = calella["project"], calella["reader"]
    hits = dict(graph_hits(search(reader, QUERY, p, ("graph",))))
    assert "lighthouse" in hits, hits  # Pep -> walk/sardines -> Calella -> lighthouse
    assert "cheese" not in hits  # nothing links Girona to Pep
    assert hits["walk"] > hits["lighthouse"] and hits["sardines"] > hits["lighthouse"]
    assert "turn3" in hits  # the next visible turn of a conversation that names Pep
    without = {r.entry_id for r in search(reader, QUERY, p, HYBRID).results}
    with_graph = search(reader, QUERY, p, (*HYBRID, "graph"))
    assert f"{p}/lighthouse" not in without
    assert f"{p}/lighthouse" in {r.entry_id for r in with_graph.results}
    assert with_graph.latency_ms["graph"] >= 0


def test_hidden_entries_are_never_nodes(
    calella: dict[str, str], ingest: Ingest, search: Callable[..., SearchResponse]
) -> None:
    """The owner's private entries mention Pep and Calella, tie Pep to Girona and sit between two visible turns: the
    reader's graph ranking (ids and scores) does not move, while the owner's does (so the test can fail)."""
    p, owner, reader = calella["project"], calella["owner"], calella["reader"]
    before = {u: graph_hits(search(u, QUERY, p, ("graph",))) for u in (owner, reader)}
    before_hybrid = [(r.entry_id, r.score) for r in search(reader, QUERY, p, (*HYBRID, "graph")).results]
    hidden: list[dict[str, Any]] = [
        {
            "entry_id": "h1",
            "text": "Pep me llevó a Girona en secreto.",
            "occurred_on": "2011-03-04",
            "persons": ["Pep"],
            "places": ["Girona"],
        },
        {
            "entry_id": "h2",
            "text": "Pep, Calella y Girona, todo junto.",
            "occurred_on": "2009-07-06",
            "persons": ["Pep", "Marta"],
            "places": ["Calella", "Girona"],
        },
        {
            "entry_id": "h3",
            "text": "Otra vez Pep en Calella.",
            "occurred_on": "2010-01-11",
            "persons": ["Pep"],
            "places": ["Calella"],
        },
        {
            "entry_id": "turn2",
            "text": "Pep lloró aquella tarde.",
            "occurred_at": "2012-05-01T10:00",
            "turn": 2,
            "persons": ["Pep"],
        },
    ]
    report = ingest(
        [
            {**r, "entry_id": f"{p}/{r['entry_id']}", "project_id": p, "author": owner, "intimacy": "private"}
            for r in hidden
        ]
    )
    assert report.errors == [] and report.written == len(hidden)
    after = {u: graph_hits(search(u, QUERY, p, ("graph",))) for u in (owner, reader)}
    assert after[reader] == before[reader]
    assert [(r.entry_id, r.score) for r in search(reader, QUERY, p, (*HYBRID, "graph")).results] == before_hybrid
    assert after[owner] != before[owner]
    assert {"h1", "h2", "h3", "turn2"} <= {i for i, _ in after[owner]}


def test_no_entity_named_leaves_the_channel_empty(
    graph: Graph, prefix: str, ingest: Ingest, search: Callable[..., SearchResponse]
) -> None:
    project, owner = f"{prefix}plain", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    rows = [
        {
            "entry_id": f"{project}/{i}",
            "project_id": project,
            "author": owner,
            "occurred_on": f"2015-0{i}-01",
            "text": text,
        }
        for i, text in enumerate(
            ("Llovió toda la mañana.", "El tren llegó tarde otra vez.", "Hicimos pan en casa."), start=1
        )
    ]
    assert ingest(rows).errors == []
    query = "recuerdos de aquel día de lluvia"
    alone = search(owner, query, project, ("graph",))
    assert graph_hits(alone) == [] and alone.source == "recency" and alone.warnings == []
    both = search(owner, query, project, (*HYBRID, "graph"))
    assert both.results and graph_hits(both) == []
    assert "graph" in both.latency_ms


def test_api_and_cli_accept_the_channel(
    client: Any, auth: Callable[[str], dict[str, str]], calella: dict[str, str]
) -> None:
    from api.commands.search import channel_list

    body = {"q": QUERY, "project_id": calella["project"], "channels": ["graph"], "k": 20}
    resp = client.post("/v1/search", json=body, headers=auth(calella["reader"]))
    assert resp.status_code == 200, resp.text
    assert any(r["entry_id"].endswith("/lighthouse") for r in resp.json()["results"])
    assert channel_list("dense,graph") == ("dense", "graph")
    bad = client.post("/v1/search", json={**body, "channels": ["graaph"]}, headers=auth(calella["reader"]))
    assert bad.status_code == 422
