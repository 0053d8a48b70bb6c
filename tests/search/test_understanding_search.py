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
from inference.embedders import CheckedEmbedder
from queries.search.door import hybrid_search
from queries.search.request import Filters, Scope, SearchOptions, SearchResponse

NOW = date(2026, 11, 30)


def _dated_diary(
    graph: Graph,
    ingest: Callable[..., Any],
    project: str,
    owner: str,
    entities: list[tuple[str, str, list[str]]],
    rows: list[tuple[str, str, str]],
) -> dict[str, str]:
    """A project owned by `owner` with declared (kind, name, aliases) and dated (id, occurred_on, text) entries."""
    set_member(graph, project, owner, "owner")
    for kind, name, aliases in entities:
        upsert_entity(graph, project, kind, name, aliases)
    assert not ingest(
        [
            {"entry_id": f"{project}/{eid}", "project_id": project, "author": owner, "text": text, "occurred_on": when}
            for eid, when, text in rows
        ]
    ).errors
    return {"project": project, "owner": owner}


@pytest.fixture()
def diary(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    return _dated_diary(
        graph,
        ingest,
        f"{prefix}diary",
        f"{prefix}lucia",
        [("person", "Andrés", ["papá", "mi padre", "aita"]), ("person", "Nerea", [])],
        [
            (
                "car-2026",
                "2026-07-15",
                "Papá me ha dicho que el coche hace un ruido raro y que lo va a llevar al taller.",
            ),
            ("car-2025", "2025-07-20", "Papá me ha dicho que el coche necesita ruedas nuevas antes de las vacaciones."),
            ("car-nerea-2026", "2026-08-02", "Nerea dice que su coche no arranca y que lo va a vender."),
            ("beach-2026", "2026-08-10", "Un día entero en la playa de Sopelana con Nerea, el agua helada."),
            ("xmas-2025", "2025-12-24", "Nochebuena en Vitoria: papá hizo el cordero y cantamos villancicos."),
        ],
    )


def _search(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, d: dict[str, str], query: str, **kw: Any
) -> SearchResponse:
    options = SearchOptions(k=5, explain=True, now=NOW, **kw)
    return hybrid_search(
        graph, embedder, settings, Viewer(user_id=d["owner"]), query, Scope(project_id=d["project"]), options
    )


def test_kinship_and_relative_date_pick_the_right_summer(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    resp = _search(graph, embedder, settings, diary, "¿qué me dijo papá del coche el verano pasado?")
    assert resp.results[0].entry_id == f"{diary['project']}/car-2026"
    u = resp.query_understanding or {}
    assert u["temporal"]["start"] == "2026-06-21" and u["temporal"]["end"] == "2026-09-22"
    assert [p["name"] for p in u["persons"]] == ["Andrés"]
    assert u["relaxed"] == [] and u["layer"] == "structured"
    ids = {r.entry_id for r in resp.results}
    assert f"{diary['project']}/car-2025" not in ids and f"{diary['project']}/car-nerea-2026" not in ids


def test_a_constraint_that_leaves_nothing_is_relaxed_and_reported(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    resp = _search(graph, embedder, settings, diary, "el coche de papá en 2019")
    u = resp.query_understanding or {}
    assert u["relaxed"][0] == "temporal"
    assert resp.results and resp.results[0].entry_id.rsplit("/", 1)[1] in {"car-2026", "car-2025"}
    assert resp.warnings == ["nothing you can see matched the query's date ('2019'); these results ignore it"], (
        "said without explain too: a client must not take these for 2019's entries"
    )
    kept = _search(graph, embedder, settings, diary, "el coche de papá el verano pasado")
    assert (kept.query_understanding or {})["relaxed"] == [] and kept.warnings == []


def test_caller_filters_are_never_relaxed(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    resp = _search(
        graph,
        embedder,
        settings,
        diary,
        "el coche de papá",
        filters=Filters(date_from=date(2019, 1, 1), date_to=date(2019, 12, 31)),
    )
    assert resp.results == [] and resp.total_candidates == 0


def test_holiday_without_year_matches_any_years_holiday(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    resp = _search(graph, embedder, settings, diary, "la cena de Nochebuena")
    assert resp.results[0].entry_id == f"{diary['project']}/xmas-2025"


def test_short_query_uses_keywords_and_falls_back_to_dense(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    keyword = _search(graph, embedder, settings, diary, "Sopelana")
    assert (keyword.query_understanding or {})["layer"] == "keyword"
    assert keyword.results[0].entry_id == f"{diary['project']}/beach-2026"
    assert "dense" not in keyword.results[0].score_breakdown
    semantic = _search(graph, embedder, settings, diary, "automóvil")
    assert semantic.source == "dense"
    assert semantic.results[0].entry_id.rsplit("/", 1)[1].startswith("car")


def test_understanding_can_be_turned_off(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    resp = _search(graph, embedder, settings, diary, "papá coche verano pasado", understand=False)
    assert (resp.query_understanding or {}).get("understanding") == "off"
    assert len(resp.results) >= 2


def test_the_projects_hemisphere_decides_what_summer_means(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str], ingest: Callable[..., Any]
) -> None:
    from fastapi.testclient import TestClient

    from api import auth
    from api.app import Services, create_app

    project = diary["project"]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/beach-jan",
                "project_id": project,
                "author": diary["owner"],
                "occurred_on": "2026-01-15",
                "text": "Un día entero en la playa, calor de enero.",
            }
        ]
    ).errors
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


@pytest.fixture()
def summers(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    """Cádiz with the grandmother in two summers nine years apart, a winter, and an entry dated only by its year."""
    return _dated_diary(
        graph,
        ingest,
        f"{prefix}summers",
        f"{prefix}lucia",
        [("place", "Cádiz", []), ("person", "Abuela Rosa", ["la abuela"])],
        [
            ("cadiz-2017", "2017-07-20", "Un verano entero en Cádiz con la abuela: la playa de la Caleta cada tarde."),
            ("cadiz-2026", "2026-08-05", "Un verano entero en Cádiz con la abuela, otra vez en la Caleta."),
            ("cadiz-winter", "2019-01-10", "Un invierno entero en Cádiz con la abuela, con lluvia y levante."),
            ("cadiz-year", "2015", "Aquel año fui a Cádiz con la abuela, no recuerdo cuándo exactamente."),
        ],
    )


def test_a_bare_season_means_any_years_season(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, summers: dict[str, str]
) -> None:
    resp = _search(graph, embedder, settings, summers, "un verano entero en Cádiz con la abuela")
    u = resp.query_understanding or {}
    assert u["temporal"]["recurring"] is True and u["relaxed"] == []
    got = {r.entry_id.rsplit("/", 1)[1]: r for r in resp.results}
    assert {"cadiz-2017", "cadiz-2026"} <= set(got), "last year's summer is not the only summer"
    assert "cadiz-winter" not in got, "a recurring season still narrows: winter is not summer"
    assert "cadiz-year" in got, "an entry dated only by its year is not excluded by a season"
    assert "structured" not in got["cadiz-year"].score_breakdown, "…but does not match it either"
    assert "structured" in got["cadiz-2017"].score_breakdown
    assert u["weights"]["structured"] == 2.0


def test_an_explicit_season_still_filters_to_its_year(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, summers: dict[str, str]
) -> None:
    resp = _search(graph, embedder, settings, summers, "Cádiz con la abuela en el verano de 2017")
    u = resp.query_understanding or {}
    assert "recurring" not in u["temporal"] and u["temporal"]["start"] == "2017-06-21"
    got = {r.entry_id.rsplit("/", 1)[1] for r in resp.results}
    assert "cadiz-2017" in got and not got & {"cadiz-2026", "cadiz-winter"}
    last = _search(graph, embedder, settings, summers, "Cádiz con la abuela el verano pasado")
    assert {r.entry_id.rsplit("/", 1)[1] for r in last.results} == {"cadiz-2026"}


def test_a_relaxed_date_drops_the_dated_weight(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    dated = _search(graph, embedder, settings, diary, "el coche de papá el verano pasado")
    assert (dated.query_understanding or {})["weights"]["structured"] == 2.0
    relaxed = _search(graph, embedder, settings, diary, "el coche de papá en 2019")
    u = relaxed.query_understanding or {}
    assert u["relaxed"] == ["temporal"] and u["layer"] == "structured"
    assert u["channels"]["structured"] > 0, "the kinship name still ranks through the structured channel"
    assert u["weights"]["structured"] == 1.0


def test_an_unknown_filter_value_warns_alike_whether_hidden_or_missing(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, owner, hider, reader = f"{prefix}w", f"{prefix}owner", f"{prefix}hider", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, hider, "coauthor")
    set_member(graph, project, reader, "reader")
    rows = [
        ("open", owner, "circle", ["Nerea"], ["Bilbao"], "Paseo con Nerea por Bilbao."),
        ("secret", hider, "private", ["Sigilo"], ["Escondite"], "Sigilo me esperaba en el Escondite."),
    ]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/{eid}",
                "project_id": project,
                "author": who,
                "intimacy": lvl,
                "persons": persons,
                "places": places,
                "text": text,
            }
            for eid, who, lvl, persons, places, text in rows
        ]
    ).errors

    def run(**filters: Any) -> SearchResponse:
        return hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=reader),
            "paseo",
            Scope(project_id=project),
            SearchOptions(k=5, now=NOW, filters=Filters(**filters)),
        )

    def shape(resp: SearchResponse, name: str) -> tuple[Any, ...]:
        return (
            [r.entry_id for r in resp.results],
            resp.total_candidates,
            resp.source,
            [w.replace(repr(name), "<name>") for w in resp.warnings],
        )

    for field, hidden, missing in (
        ("persons", "Sigilo", "Zorro"),
        ("places", "Escondite", "Narnia"),
        ("author_ids", hider, f"{prefix}ghost"),
    ):
        seen, absent = run(**{field: [hidden]}), run(**{field: [missing]})
        assert len(absent.warnings) == 1 and repr(missing) in absent.warnings[0] and field in absent.warnings[0]
        assert shape(seen, hidden) == shape(absent, missing), field
    known = run(persons=["Nerea"], places=["bilbao"], author_ids=[owner])
    assert known.warnings == [] and [r.entry_id for r in known.results] == [f"{project}/open"]
    as_owner = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=hider),
        "paseo",
        Scope(project_id=project),
        SearchOptions(k=5, now=NOW, filters=Filters(persons=["Sigilo"])),
    )
    assert as_owner.warnings == [], "its own author may see the name"


def test_the_api_refuses_unknown_channels_and_warns_on_unknown_names(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, diary: dict[str, str]
) -> None:
    from fastapi.testclient import TestClient

    from api import auth
    from api.app import Services, create_app

    client = TestClient(create_app(Services(settings, graph=graph, embedder=embedder)))
    owner = {"Authorization": f"Bearer {auth.issue(settings, diary['owner'])}"}
    bad = client.post(
        "/v1/search", json={"q": "coche", "project_id": diary["project"], "channels": ["dense", "bogus"]}, headers=owner
    )
    assert bad.status_code == 422
    assert "'dense', 'fulltext', 'structured' or 'graph'" in bad.json()["detail"][0]["msg"]
    resp = client.post(
        "/v1/search",
        json={"q": "coche", "project_id": diary["project"], "filters": {"persons": ["Zorro", "Nerea"]}},
        headers=owner,
    )
    assert resp.status_code == 200
    assert resp.json()["warnings"] == ["no visible person named 'Zorro': the persons filter matches nothing for it"]
    got = {r["entry_id"].rsplit("/", 1)[1] for r in resp.json()["results"]}
    assert "car-nerea-2026" in got and got <= {"car-nerea-2026", "beach-2026"}, "the known name still filters"
