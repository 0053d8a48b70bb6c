"""Entity vectors per audience: a reader's "similar to X" never moves when entries hidden from them are added,
edited or deleted, while an author's own private entries shape the author's view."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from api.cli import main
from graph.db import Graph
from graph.entity_vectors import refresh_project
from graph.members import set_member
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor
from queries.entities.similar import similar

CIRCLE = [
    ("m1", "2008-07", ["Pep", "Juan"], ["Berlín"], "Pep y Juan tocaron la guitarra en un concierto de rock en Berlín."),
    ("m2", "2009-02", ["Pep", "Juan"], ["Berlín"], "Ensayo con la banda: Pep a la batería, Juan al bajo, Berlín."),
    ("m3", "2009-05", ["Juan"], ["Viena"], "Juan compuso una canción nueva para el disco en Viena."),
    ("b1", "2010-08", ["Marta", "Lola"], ["Tarifa"], "Marta y Lola nadaron en la playa de Tarifa, sol y arena."),
    ("b2", "2011-07", ["Marta"], ["Cádiz"], "Marta tomó el sol en la playa de Cádiz y nadamos en el mar."),
    ("b3", "2012-08", ["Lola"], ["Tarifa"], "Lola hizo surf en las olas de Tarifa todo el verano."),
    ("w1", "2013-03", ["Andrés"], ["Madrid"], "Andrés firmó el contrato en la oficina de Madrid con el banco."),
]
# The owner's private entries pull Pep towards the beach: only the owner's own view may move.
PRIVATE = [
    ("p1", "2014-08", ["Pep", "Secretina"], ["Tarifa"], "Pep y Secretina nadaron en la playa de Tarifa al sol."),
    ("p2", "2015-07", ["Pep"], ["Cádiz"], "Pep se bañó en el mar de Cádiz, arena y olas de playa."),
]


def _records(project: str, author: str, rows: list[Any], intimacy: str) -> list[dict[str, Any]]:
    return [
        {
            "entry_id": f"{project}/{k}",
            "project_id": project,
            "author": author,
            "occurred_on": when,
            "intimacy": intimacy,
            "persons": persons,
            "places": places,
            "text": text,
        }
        for k, when, persons, places, text in rows
    ]


@pytest.fixture()
def band(graph: Graph, prefix: str, ingest: Callable[..., Any], embedder: CheckedEmbedder) -> dict[str, str]:
    project = f"{prefix}band"
    users = {"owner": f"{prefix}ana", "coauthor": f"{prefix}coa", "reader": f"{prefix}lola"}
    for role, user in users.items():
        set_member(graph, project, user, role)
    assert not ingest(_records(project, users["owner"], CIRCLE, "circle")).errors
    refresh_project(graph, project, embedder.slug)
    return {"project": project, **users}


def _similar(
    graph: Graph, band: dict[str, str], user: str, slug: str, name: str = "Pep", kind: str | None = "person"
) -> list[tuple[str, float, int]]:
    viewer = Viewer(user_id=band[user])
    return [
        (s.name, s.score, s.entries)
        for s in similar(graph, viewer, band["project"], f"{band['project']}/person/{name.lower()}", slug, kind)
    ]


def test_reader_view_never_moves_with_hidden_entries(
    graph: Graph, band: dict[str, str], embedder: CheckedEmbedder, ingest: Callable[..., Any]
) -> None:
    slug = embedder.slug
    before = {u: _similar(graph, band, u, slug) for u in ("owner", "coauthor", "reader")}
    assert before["reader"][0][0] == "Juan"  # Pep's band mate is the closest person
    assert before["owner"] == before["reader"] == before["coauthor"]  # nothing hidden from anyone yet

    assert not ingest(_records(band["project"], band["owner"], PRIVATE, "private")).errors
    refresh_project(graph, band["project"], slug)
    after = {u: _similar(graph, band, u, slug) for u in ("owner", "coauthor", "reader")}
    assert after["reader"] == before["reader"]  # identical, scores to the last digit
    assert after["coauthor"] == before["coauthor"]  # a coauthor does not see private entries either
    assert after["owner"] != before["owner"]
    assert "Secretina" in [n for n, _, _ in after["owner"]]
    assert "Secretina" not in [n for n, _, _ in after["reader"]]
    owner_marta = dict((n, s) for n, s, _ in after["owner"])["Marta"]
    assert owner_marta > dict((n, s) for n, s, _ in before["owner"])["Marta"]  # Pep moved towards the beach

    # Intimate entries shape the owner's and coauthors' view, never a reader's.
    ingest(
        _records(
            band["project"],
            band["owner"],
            [("i1", "2016-08", ["Pep"], ["Tarifa"], "Pep en la playa de Tarifa, surf y sol.")],
            "intimate",
        )
    )
    refresh_project(graph, band["project"], slug)
    assert _similar(graph, band, "reader", slug) == before["reader"]
    assert _similar(graph, band, "coauthor", slug) != before["coauthor"]

    # A circle entry turned private leaves the reader's vectors at once (dropped in the write), and the rebuilt
    # ones hold the reader's remaining entries only.
    ingest(_records(band["project"], band["owner"], [CIRCLE[0]], "private"))
    assert _similar(graph, band, "reader", slug) == []
    refresh_project(graph, band["project"], slug)
    rebuilt = _similar(graph, band, "reader", slug)
    assert rebuilt and dict((n, e) for n, _, e in rebuilt)["Juan"] == 2  # m2, m3: m1 is private now


def test_an_entry_written_and_deleted_between_refreshes_leaves_every_vector_as_it_was(
    graph: Graph, band: dict[str, str], embedder: CheckedEmbedder, ingest: Callable[..., Any]
) -> None:
    """The write drops the variants the entry fed; the refresh must rebuild them even though the entity's sources
    are, once the entry is gone, exactly what they were at the last refresh."""
    slug = embedder.slug
    before = {u: _similar(graph, band, u, slug) for u in ("owner", "reader")}
    assert before["reader"]
    written = [("tmp", "2016-01", ["Pep", "Marta"], [], "Pep y Marta.")]
    assert not ingest(_records(band["project"], band["owner"], written, "circle")).errors
    assert Ingestor(graph, embedder).delete(f"{band['project']}/tmp")
    assert _similar(graph, band, "reader", slug) == []  # Pep's variants left with the delete
    refresh_project(graph, band["project"], slug)
    assert {u: _similar(graph, band, u, slug) for u in ("owner", "reader")} == before


def test_outsiders_and_unknown_names(graph: Graph, band: dict[str, str], embedder: CheckedEmbedder) -> None:
    assert _similar(graph, {**band, "x": "nobody"}, "x", embedder.slug) == []
    assert _similar(graph, band, "reader", embedder.slug, name="Nadie") == []
    places = _similar(graph, band, "reader", embedder.slug, name="Marta", kind="place")
    assert places[0][0] in ("Tarifa", "Cádiz")


def test_api_and_cli(
    graph: Graph,
    band: dict[str, str],
    client: Any,
    auth: Callable[[str], dict[str, str]],
    ingest: Callable[..., Any],
    embedder: CheckedEmbedder,
    capsys: pytest.CaptureFixture[str],
) -> None:
    project = band["project"]
    url = f"/v1/projects/{project}/analytics/similar"
    r = client.get(url, params={"entity": "Pep"}, headers=auth(band["reader"]))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["entity"] == {"id": f"{project}/person/pep", "name": "Pep", "kind": "person"}
    assert body["similar"][0]["name"] == "Juan" and body["similar"][0]["entries"] == 3
    assert all(s["kind"] == "person" for s in body["similar"])
    places = client.get(url, params={"entity": "Berlín", "kind": "place", "limit": 2}, headers=auth(band["reader"]))
    assert places.status_code == 200 and len(places.json()["similar"]) == 2
    assert places.json()["similar"][0]["name"] == "Viena"

    ingest(_records(project, band["owner"], PRIVATE, "private"))
    refresh_project(graph, project, embedder.slug)
    hidden = client.get(url, params={"entity": "Secretina"}, headers=auth(band["reader"]))
    missing = client.get(url, params={"entity": "Nadie"}, headers=auth(band["reader"]))
    assert hidden.status_code == missing.status_code == 404 and hidden.json() == missing.json()
    assert client.get(url, params={"entity": "Secretina"}, headers=auth(band["owner"])).status_code == 200
    assert client.get(url, params={"entity": "Pep"}, headers=auth(f"{band['owner']}x")).status_code == 403
    assert client.get(url, params={"entity": "Pep", "kind": "planet"}, headers=auth(band["owner"])).status_code == 422

    assert main(["entity", "similar", "--project", project, "--name", "Pep", "--as", band["reader"], "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [set(i) for i in listed] == [{"id", "name", "kind", "score"}] * len(listed)
    assert listed[0]["name"] == "Juan" and "Secretina" not in [i["name"] for i in listed]
    assert main(["entity", "similar", "--project", project, "--name", "Secretina", "--as", band["reader"]]) == 2
    assert "no such person" in capsys.readouterr().err
    assert main(["entity", "similar", "--project", project, "--name", "Pep"]) == 2
    assert main(["entity", "refresh", "--project", project, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["rebuilt"] == 0  # nothing changed since the last refresh
    assert main(["entity", "refresh", "--project", project, "--force", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["rebuilt"] > 0


# Memberships no write path makes: two edges at once, and one with no role.
ODD_MEMBERS = """
MATCH (p:Project {id: $p})
MERGE (t:User {id: $two}) CREATE (t)-[:MEMBER_OF {role: 'reader'}]->(p), (t)-[:MEMBER_OF {role: 'coauthor'}]->(p)
MERGE (n:User {id: $none}) CREATE (n)-[:MEMBER_OF]->(p)
"""


def test_a_member_with_two_edges_or_none_reads_the_variant_of_the_role_the_predicate_applies(
    graph: Graph, band: dict[str, str], embedder: CheckedEmbedder, ingest: Callable[..., Any], prefix: str
) -> None:
    slug = embedder.slug
    intimate = [("i1", "2016-08", ["Pep"], ["Tarifa"], "Pep en la playa de Tarifa, surf y sol.")]
    assert not ingest(_records(band["project"], band["owner"], intimate, "intimate")).errors
    refresh_project(graph, band["project"], slug)
    graph.write(ODD_MEMBERS, {"p": band["project"], "two": f"{prefix}two", "none": f"{prefix}none"})
    odd = {**band, "two": f"{prefix}two", "none": f"{prefix}none"}
    views = {u: _similar(graph, odd, u, slug) for u in ("coauthor", "reader", "two", "none")}
    assert views["coauthor"] != views["reader"], "the intimate entry shapes only the inner view"
    assert views["two"] == views["coauthor"], "the stronger edge decides, and each entity comes once"
    assert views["none"] == views["reader"]
