"""Entity questions count only what the viewer may see: a private entry never adds a companion, a year or weight."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from api import auth
from api.app import Services, create_app
from graph.db import Graph
from graph.entities import upsert_entity
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder


def test_cooccurrence_timeline_and_importance_respect_visibility(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, ana, lola = f"{prefix}fam", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, lola, "reader")
    upsert_entity(graph, project, "person", "Pep", ["mi hermano"])
    rows = [
        ("e1", "2008-07", "circle", ["Pep", "Marta"], "Con Pep y Marta en Tarifa."),
        ("e2", "2009-02", "circle", ["Pep"], "Pep llegó a Berlín."),
        ("e3", "2010-05", "circle", ["Pep", "Marta"], "Cena con mi hermano y Marta."),
        ("e4", "2015-03", "private", ["Pep", "Secretina"], "Lo que Pep y Secretina no saben."),
    ]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/{k}",
                "project_id": project,
                "author": ana,
                "occurred_on": when,
                "intimacy": lvl,
                "persons": persons,
                "text": text,
            }
            for k, when, lvl, persons, text in rows
        ]
    ).errors
    client = TestClient(create_app(Services(settings, graph=graph, embedder=embedder)))

    def get(user: str, path: str, **params: Any) -> Any:
        return client.get(
            f"/v1/projects/{project}/analytics/{path}",
            params=params,
            headers={"Authorization": f"Bearer {auth.issue(settings, user)}"},
        )

    owner_with = {r["name"]: r["together"] for r in get(ana, "cooccurrence", entity="mi hermano").json()["with"]}
    assert owner_with == {"Marta": 2, "Secretina": 1}
    reader = get(lola, "cooccurrence", entity="Pep").json()
    assert reader["entity"]["name"] == "Pep"
    assert {r["name"]: r["together"] for r in reader["with"]} == {"Marta": 2}

    assert [y["year"] for y in get(ana, "timeline", entity="Pep").json()["years"]] == [2008, 2009, 2010, 2015]
    assert [y["year"] for y in get(lola, "timeline", entity="Pep").json()["years"]] == [2008, 2009, 2010]

    hidden = get(lola, "timeline", entity="Secretina")
    missing = get(lola, "timeline", entity="Nadie")
    assert hidden.status_code == missing.status_code == 404 and hidden.json() == missing.json()
    assert get(ana, "timeline", entity="Secretina").status_code == 200

    reader_rank = get(lola, "importance", kind="person").json()
    assert [r["name"] for r in reader_rank] == ["Pep", "Marta"]
    assert reader_rank[0]["entries"] == 3
    owner_rank = {r["name"]: r["entries"] for r in get(ana, "importance").json()}
    assert owner_rank["Pep"] == 4 and owner_rank["Secretina"] == 1
    assert get(f"{prefix}outsider", "importance").status_code == 403
