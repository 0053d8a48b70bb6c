"""Someone named after "without" is missed in what the question looks for: "la Navidad sin Andrés" finds the
Christmas that does not name him, and he constrains nothing (he is no chip to set aside)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

Ingest = Callable[..., IngestReport]
pytestmark = pytest.mark.neo4j


def write(ingest: Ingest, project: str, author: str, rows: list[tuple[str, str, str, list[str]]]) -> None:
    """One diary entry a row: (key, date, text, persons listed)."""
    entries = [
        {
            "entry_id": f"{project}/{k}",
            "project_id": project,
            "author": author,
            "occurred_on": d,
            "text": t,
            "persons": persons,
        }
        for k, d, t, persons in rows
    ]
    assert ingest(entries).written == len(rows)


@pytest.fixture()
def family(graph: Graph, prefix: str, ingest: Ingest) -> dict[str, str]:
    project, ana = f"{prefix}family", f"{prefix}ana"
    set_member(graph, project, ana, "owner")
    rows = [
        ("xmas-2023", "2023-12-24", "Cena de Nochebuena: Andrés trinchó el pavo y contó chistes.", ["Andrés"]),
        ("xmas-2024", "2024-12-25", "Primera Navidad con la silla vacía. Nadie quiso trinchar el pavo.", []),
        ("summer-2024", "2024-07-10", "Andrés en el hospital; le llevamos el periódico.", ["Andrés"]),
    ]
    write(ingest, project, ana, rows)
    return {"project": project, "ana": ana}


@pytest.mark.parametrize("question", ["la Navidad sin Andrés", "Christmas without Andrés"])
def test_someone_named_after_without_is_no_constraint(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str], question: str
) -> None:
    p = family["project"]
    resp = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=family["ana"]),
        question,
        Scope(project_id=p),
        SearchOptions(k=5, explain=True),
    )
    u = resp.query_understanding or {}
    assert [m["name"] for m in u["missed"]] == ["Andrés"] and u["persons"] == []
    assert u["relaxed"] == [] and u["temporal"]["recurring"] is True
    ids = [r.entry_id.rsplit("/", 1)[1] for r in resp.results]
    assert "xmas-2024" in ids, "the Christmas that does not name him is found"
    assert "summer-2024" not in ids, "Christmas still constrains"


def test_someone_named_plainly_still_constrains(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    p = family["project"]
    resp = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=family["ana"]),
        "la Navidad con Andrés",
        Scope(project_id=p),
        SearchOptions(k=5, explain=True),
    )
    u = resp.query_understanding or {}
    assert [m["name"] for m in u["persons"]] == ["Andrés"] and "missed" not in u
    assert [r.entry_id.rsplit("/", 1)[1] for r in resp.results] == ["xmas-2023"]


def test_a_name_that_empties_a_time_becomes_a_preference_when_that_time_holds_it_in_words(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Ingest
) -> None:
    project, ana = f"{prefix}summers", f"{prefix}ana"
    set_member(graph, project, ana, "owner")
    rows = [
        ("marta-2005", "2005-03-01", "Conocí a Marta en la facultad.", ["Marta"]),
        ("beach-2006", "2006-07-15", "Fuimos a la playa de Bolonia; Marta se quemó la espalda.", []),
        ("heat-2006", "2006-08-02", "Un calor espantoso en Madrid, sin nadie en la oficina.", []),
        ("rain-2007", "2007-07-20", "Llovió todo julio en Santander.", []),
    ]
    write(ingest, project, ana, rows)
    viewer = Viewer(user_id=ana)

    def ask(q: str) -> tuple[list[str], dict[str, object]]:
        resp = hybrid_search(
            graph, embedder, settings, viewer, q, Scope(project_id=project), SearchOptions(k=5, explain=True)
        )
        return [r.entry_id.rsplit("/", 1)[1] for r in resp.results], resp.query_understanding or {}

    linked = graph.read(
        "MATCH (e:Entry {id: $id})-[:MENTIONS]->(x:Person) RETURN count(x) AS n", {"id": f"{project}/beach-2006"}
    )[0]["n"]
    assert linked == 0, "a name only listed elsewhere links nothing in this text"
    found, u = ask("Marta en el verano de 2006")
    assert u["relaxed"] == ["entities"], "the time is kept, the name is a preference"
    assert found[0] == "beach-2006" and "marta-2005" not in found
    other, v = ask("Marta en el verano de 2007")
    assert v["relaxed"] == ["temporal"], "no entry of that summer holds her name: the time goes first"
    assert other[0] == "marta-2005"
