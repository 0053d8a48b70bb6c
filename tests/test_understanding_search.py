"""Query understanding inside the search door: extracted dates and kinship names narrow the channels, are relaxed
when they leave nothing (and the response says so), while the caller's own filters are never relaxed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from graph.db import Graph
from graph.entities import upsert_entity
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from ingest.embedders import CheckedEmbedder
from queries.search import Filters, Scope, SearchOptions, SearchResponse, hybrid_search

NOW = date(2026, 11, 30)


@pytest.fixture()
def diary(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    project, owner = f"{prefix}diary", f"{prefix}lucia"
    set_member(graph, project, owner, "owner")
    upsert_entity(graph, project, "person", "Andrés", ["papá", "mi padre", "aita"])
    upsert_entity(graph, project, "person", "Nerea", [])
    rows = [
        ("car-2026", "2026-07-15", "Papá me ha dicho que el coche hace un ruido raro y que lo va a llevar al taller."),
        ("car-2025", "2025-07-20", "Papá me ha dicho que el coche necesita ruedas nuevas antes de las vacaciones."),
        ("car-nerea-2026", "2026-08-02", "Nerea dice que su coche no arranca y que lo va a vender."),
        ("beach-2026", "2026-08-10", "Un día entero en la playa de Sopelana con Nerea, el agua helada."),
        ("xmas-2025", "2025-12-24", "Nochebuena en Vitoria: papá hizo el cordero y cantamos villancicos."),
    ]
    assert not ingest([{"entry_id": f"{project}/{eid}", "project_id": project, "author": owner, "text": text,
                        "occurred_on": when} for eid, when, text in rows]).errors
    return {"project": project, "owner": owner}


def _search(graph: Graph, embedder: CheckedEmbedder, settings: Settings, d: dict[str, str], query: str,
            **kw: Any) -> SearchResponse:
    options = SearchOptions(k=5, explain=True, now=NOW, **kw)
    return hybrid_search(graph, embedder, settings, Viewer(user_id=d["owner"]), query,
                         Scope(project_id=d["project"]), options)


def test_kinship_and_relative_date_pick_the_right_summer(graph: Graph, embedder: CheckedEmbedder,
                                                        settings: Settings, diary: dict[str, str]) -> None:
    resp = _search(graph, embedder, settings, diary, "¿qué me dijo papá del coche el verano pasado?")
    assert resp.results[0].entry_id == f"{diary['project']}/car-2026"
    u = resp.query_understanding or {}
    assert u["temporal"]["start"] == "2026-06-21" and u["temporal"]["end"] == "2026-09-22"
    assert [p["name"] for p in u["persons"]] == ["Andrés"]
    assert u["relaxed"] == [] and u["layer"] == "structured"
    ids = {r.entry_id for r in resp.results}
    assert f"{diary['project']}/car-2025" not in ids and f"{diary['project']}/car-nerea-2026" not in ids


def test_a_constraint_that_leaves_nothing_is_relaxed_and_reported(graph: Graph, embedder: CheckedEmbedder,
                                                                  settings: Settings, diary: dict[str, str]) -> None:
    resp = _search(graph, embedder, settings, diary, "el coche de papá en 2019")
    u = resp.query_understanding or {}
    assert u["relaxed"][0] == "temporal"
    assert resp.results and resp.results[0].entry_id.rsplit("/", 1)[1] in {"car-2026", "car-2025"}


def test_caller_filters_are_never_relaxed(graph: Graph, embedder: CheckedEmbedder, settings: Settings,
                                          diary: dict[str, str]) -> None:
    resp = _search(graph, embedder, settings, diary, "el coche de papá",
                   filters=Filters(date_from=date(2019, 1, 1), date_to=date(2019, 12, 31)))
    assert resp.results == [] and resp.total_candidates == 0


def test_holiday_without_year_is_the_most_recent_one(graph: Graph, embedder: CheckedEmbedder, settings: Settings,
                                                     diary: dict[str, str]) -> None:
    resp = _search(graph, embedder, settings, diary, "la cena de Nochebuena")
    assert resp.results[0].entry_id == f"{diary['project']}/xmas-2025"


def test_short_query_uses_keywords_and_falls_back_to_dense(graph: Graph, embedder: CheckedEmbedder,
                                                          settings: Settings, diary: dict[str, str]) -> None:
    keyword = _search(graph, embedder, settings, diary, "Sopelana")
    assert (keyword.query_understanding or {})["layer"] == "keyword"
    assert keyword.results[0].entry_id == f"{diary['project']}/beach-2026"
    assert "dense" not in keyword.results[0].score_breakdown
    semantic = _search(graph, embedder, settings, diary, "automóvil")
    assert semantic.source == "dense"
    assert semantic.results[0].entry_id.rsplit("/", 1)[1].startswith("car")


def test_understanding_can_be_turned_off(graph: Graph, embedder: CheckedEmbedder, settings: Settings,
                                         diary: dict[str, str]) -> None:
    resp = _search(graph, embedder, settings, diary, "papá coche verano pasado", understand=False)
    assert (resp.query_understanding or {}).get("understanding") == "off"
    assert len(resp.results) >= 2


def test_the_projects_hemisphere_decides_what_summer_means(graph: Graph, embedder: CheckedEmbedder,
                                                           settings: Settings, diary: dict[str, str],
                                                           ingest: Callable[..., Any]) -> None:
    from fastapi.testclient import TestClient

    from api import auth
    from api.app import Services, create_app

    project = diary["project"]
    assert not ingest([{"entry_id": f"{project}/beach-jan", "project_id": project, "author": diary["owner"],
                        "occurred_on": "2026-01-15", "text": "Un día entero en la playa, calor de enero."}]).errors
    client = TestClient(create_app(Services(settings, graph=graph, embedder=embedder)))
    owner = {"Authorization": f"Bearer {auth.issue(settings, diary['owner'])}"}
    north = _search(graph, embedder, settings, diary, "la playa el verano pasado")
    assert north.results[0].entry_id == f"{project}/beach-2026"

    assert client.patch(f"/v1/projects/{project}", json={"hemisphere": "equator"}, headers=owner).status_code == 422
    reader = f"{project}-reader"
    set_member(graph, project, reader, "reader")
    as_reader = {"Authorization": f"Bearer {auth.issue(settings, reader)}"}
    assert client.patch(f"/v1/projects/{project}", json={"hemisphere": "south"}, headers=as_reader).status_code == 403
    changed = client.patch(f"/v1/projects/{project}", json={"hemisphere": "south"}, headers=owner)
    assert changed.status_code == 200 and changed.json()["hemisphere"] == "south"

    south = _search(graph, embedder, settings, diary, "la playa el verano pasado")
    u = south.query_understanding or {}
    assert u["temporal"]["start"] == "2025-12-21" and u["temporal"]["end"] == "2026-03-20"
    assert south.results[0].entry_id == f"{project}/beach-jan"
