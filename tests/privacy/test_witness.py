"""Witness links over HTTP: one chapter, circle and public only, exact similarity, expiry and revocation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from api import auth
from api.app import Services, create_app
from graph.db import Graph
from graph.settings import Settings
from inference.embedders import CheckedEmbedder

LEVELS = ("private", "intimate", "circle", "public")


def _client(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> TestClient:
    return TestClient(create_app(Services(settings, graph=graph, embedder=embedder)))


def _setup(family: dict[str, str], ingest: Callable[..., Any]) -> list[dict[str, Any]]:
    project = family["project"]
    rows = [
        {
            "entry_id": f"{project}/ch-{lvl}",
            "project_id": project,
            "author": family["owner"],
            "intimacy": lvl,
            "period": "Berlín 2008",
            "text": f"Invierno en Berlín, lloramos en la estación ({lvl}).",
        }
        for lvl in LEVELS
    ]
    rows.append(
        {
            "entry_id": f"{project}/other-chapter",
            "project_id": project,
            "author": family["owner"],
            "intimacy": "public",
            "period": "Madrid",
            "text": "Invierno en Madrid, lloramos en la estación.",
        }
    )
    assert not ingest(rows).errors
    return rows


def test_witness_link_opens_only_circle_and_public_of_the_chapter(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, family: dict[str, str], ingest: Callable[..., Any]
) -> None:
    _setup(family, ingest)
    project = family["project"]
    client = _client(settings, graph, embedder)
    owner = {"Authorization": f"Bearer {auth.issue(settings, family['owner'])}"}
    reader = {"Authorization": f"Bearer {auth.issue(settings, family['reader'])}"}

    assert (
        client.post(f"/v1/projects/{project}/witnesses", json={"period": "Berlín 2008"}, headers=reader).status_code
        == 403
    )
    assert (
        client.post(f"/v1/projects/{project}/witnesses", json={"period": "No such chapter"}, headers=owner).status_code
        == 404
    )
    made = client.post(
        f"/v1/projects/{project}/witnesses", json={"period": "Berlín 2008", "ttl_days": 7}, headers=owner
    )
    assert made.status_code == 201
    token = made.json()["token"]

    found = client.post(f"/v1/w/{token}/search", json={"q": "lloramos en la estación", "k": 20})
    assert found.status_code == 200
    body = found.json()
    assert {r["entry_id"] for r in body["results"]} == {f"{project}/ch-circle", f"{project}/ch-public"}
    assert body["total_candidates"] == 2
    assert client.get(f"/v1/w/{token}/entries/{project}/ch-public").status_code == 200
    hidden = client.get(f"/v1/w/{token}/entries/{project}/ch-private")
    missing = client.get(f"/v1/w/{token}/entries/{project}/nope")
    assert hidden.status_code == missing.status_code == 404 and hidden.json() == missing.json()
    assert client.get(f"/v1/w/{token}/entries/{project}/other-chapter").status_code == 404

    written = client.post(f"/v1/w/{token}/entries", json={"text": "Yo estaba allí: la estación olía a carbón."})
    assert written.status_code == 201
    new_id = written.json()["entry_id"]
    assert client.get(f"/v1/w/{token}/entries/{new_id}").json()["kind"] == "witness"

    # A witness link is not a user token, and a user token is not a witness link.
    assert client.post("/v1/search", json={"q": "x"}, headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert client.post(f"/v1/w/{owner['Authorization'][7:]}/search", json={"q": "x"}).status_code == 401

    grant_id = made.json()["grant_id"]
    listed = client.get(f"/v1/projects/{project}/witnesses", headers=owner).json()
    assert [(g["grant_id"], g["created_by"], g["revoked"]) for g in listed] == [(grant_id, family["owner"], False)]
    assert client.get(f"/v1/projects/{project}/witnesses", headers=reader).status_code == 403
    assert client.delete(f"/v1/projects/{project}/witnesses/{grant_id}", headers=owner).status_code == 204
    assert client.post(f"/v1/w/{token}/search", json={"q": "lloramos"}).status_code == 401
