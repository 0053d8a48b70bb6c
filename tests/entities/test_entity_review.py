"""Reviewing what recognition found: candidates listed, confirmed and rejected, and entities merged and unmerged,
through the API (owners and coauthors; readers 403) and the CLI; every answer covers what the caller may see."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.cli import main
from graph.db import Graph
from graph.entities import list_visible_entities, upsert_entity
from graph.members import set_member
from graph.visibility import Viewer
from ingest.pipeline import IngestReport
from tests.entities.test_entity_management import wait

Headers = Callable[[str], dict[str, str]]
MENTIONED = "MATCH (:Entry {id: $entry})-[m:MENTIONS]->(n) RETURN n.id AS id ORDER BY id"


@pytest.fixture()
def book(graph: Graph, prefix: str, ingest: Callable[..., IngestReport]) -> dict[str, str]:
    """Ana owns, Bea coauthors, Carl reads. Eulalia is named only in Ana's private entry; Remedios in circle
    entries; Carmen is declared and Carmencita listed (one person under two names)."""
    p = f"{prefix}rev"
    users = {k: f"{prefix}{k}" for k in ("ana", "bea", "carl")}
    set_member(graph, p, users["ana"], "owner")
    set_member(graph, p, users["bea"], "coauthor")
    set_member(graph, p, users["carl"], "reader")
    upsert_entity(graph, p, "person", "Carmen", [], audience="circle", author_id=users["ana"])
    rows = [
        ("e1", "private", "Ayer hablé con mi tía Eulalia sobre la herencia del abuelo.", []),
        ("e2", "circle", "Fuimos a la playa con Remedios y comimos con Carmen en el puerto.", []),
        ("e3", "circle", "Otra tarde en el huerto con Remedios, regando los tomates.", ["Carmencita"]),
    ]
    report = ingest(
        [
            {
                "entry_id": f"{p}/{eid}",
                "project_id": p,
                "author": users["ana"],
                "intimacy": level,
                "occurred_on": "2012-05-01",
                "text": text,
                "persons": persons,
            }
            for eid, level, text, persons in rows
        ]
    )
    assert not report.errors
    return {"project": p, **users}


def names(client: TestClient, headers: dict[str, str], project: str) -> dict[str, dict[str, Any]]:
    resp = client.get(f"/v1/projects/{project}/entities/candidates", headers=headers)
    assert resp.status_code == 200, resp.text
    return {c["name"]: c for c in resp.json()}


def test_confirm_and_reject_through_the_api(
    client: TestClient, auth: Headers, book: dict[str, str], graph: Graph
) -> None:
    p, ana, bea, carl = book["project"], auth(book["ana"]), auth(book["bea"]), auth(book["carl"])
    assert names(client, bea, p)["Remedios"]["mentions"] == 2
    assert "Eulalia" not in names(client, bea, p) and "Eulalia" in names(client, ana, p)
    assert client.get(f"/v1/projects/{p}/entities/candidates", headers=carl).status_code == 403
    assert client.post(f"/v1/projects/{p}/entities/candidates/person/Remedios/confirm", headers=carl).status_code == 403
    hidden = client.post(f"/v1/projects/{p}/entities/candidates/person/Eulalia/confirm", headers=bea)
    assert hidden.status_code == 404, "a name only in an entry hidden from Bea does not exist for her"
    assert client.post(f"/v1/projects/{p}/entities/candidates/animal/Remedios/confirm", headers=bea).status_code == 422

    resp = client.post(f"/v1/projects/{p}/entities/candidates/person/remedios/confirm", headers=bea)
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert (body["status"], body["name"], body["kind"]) == ("confirmed", "Remedios", "person")
    wait(client, bea, p, body["relink"])
    assert body["id"] in [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e3"})]
    assert "Remedios" not in names(client, ana, p)
    people = {e["name"] for e in client.get(f"/v1/projects/{p}/entities", headers=carl).json()}
    assert "Remedios" in people, "confirmed at circle, where it was seen: readers see the entity"

    resp = client.post(f"/v1/projects/{p}/entities/candidates/person/Eulalia/reject", headers=ana)
    assert resp.status_code == 200 and resp.json()["status"] == "rejected"
    assert "Eulalia" not in names(client, ana, p)
    assert "Eulalia" not in {e["name"] for e in client.get(f"/v1/projects/{p}/entities", headers=ana).json()}


def test_merge_and_unmerge_through_the_api(
    client: TestClient, auth: Headers, book: dict[str, str], graph: Graph
) -> None:
    p, ana, carl = book["project"], auth(book["ana"]), auth(book["carl"])
    carmen, carmencita = f"{p}/person/carmen", f"{p}/person/carmencita"
    assert [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e3"})] == [carmencita]
    body = {"into": "Carmen", "from": "Carmencita"}
    assert client.post(f"/v1/projects/{p}/entities/merge", json=body, headers=carl).status_code == 403
    assert (
        client.post(
            f"/v1/projects/{p}/entities/merge", json={"into": "Carmen", "from": "Nadie"}, headers=ana
        ).status_code
        == 404
    )
    assert (
        client.post(
            f"/v1/projects/{p}/entities/merge", json={"into": "Carmen", "from": "carmen"}, headers=ana
        ).status_code
        == 409
    )
    resp = client.post(f"/v1/projects/{p}/entities/merge", json=body, headers=ana)
    assert resp.status_code == 200, resp.text
    assert resp.json()["aliases_added"] == ["Carmencita"]
    wait(client, ana, p, resp.json()["relink"])
    assert [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e3"})] == [carmen]
    assert [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e2"})] == [carmen]
    people = {e["name"]: e for e in client.get(f"/v1/projects/{p}/entities", headers=carl).json()}
    assert "Carmencita" not in people and "Carmencita" in people["Carmen"]["aliases"]

    assert (
        client.post(f"/v1/projects/{p}/entities/unmerge", json={"name": "Carmencita"}, headers=carl).status_code == 403
    )
    # Only the merge's author may read or undo it (it records names as they saw them, private ones included): the
    # coauthor's unmerge answers like a name never merged, and changes nothing.
    bea = auth(book["bea"])
    assert (
        client.post(f"/v1/projects/{p}/entities/unmerge", json={"name": "Carmencita"}, headers=bea).status_code == 404
    )
    assert [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e3"})] == [carmen]
    resp = client.post(f"/v1/projects/{p}/entities/unmerge", json={"name": "Carmencita"}, headers=ana)
    assert resp.status_code == 200, resp.text
    wait(client, ana, p, resp.json()["relink"])
    assert [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e3"})] == [carmencita]
    people = {e["name"]: e for e in client.get(f"/v1/projects/{p}/entities", headers=carl).json()}
    assert "Carmencita" in people and people["Carmen"]["aliases"] == []
    assert (
        client.post(f"/v1/projects/{p}/entities/unmerge", json={"name": "Carmencita"}, headers=ana).status_code == 404
    )


def visible(graph: Graph, project: str, user: str) -> dict[str, list[str]]:
    return {e.name: list(e.aliases) for e in list_visible_entities(graph, [project], Viewer(user_id=user))}


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_review_from_the_command_line(capsys: pytest.CaptureFixture[str], book: dict[str, str], graph: Graph) -> None:
    p = book["project"]
    code, out, _ = _run(capsys, "entity", "candidates", "--project", p, "--json")
    listed = {c["name"]: c for c in json.loads(out)}
    assert code == 0 and listed["Eulalia"] == {
        "name": "Eulalia",
        "kind": "person",
        "mentions": 1,
        "examples": [f"{p}/e1"],
    }
    code, out, _ = _run(capsys, "entity", "candidates", "--project", p, "--as", book["carl"], "--json")
    assert code == 0 and "Eulalia" not in {c["name"] for c in json.loads(out)}, "a reader never sees it"
    code, _, err = _run(capsys, "entity", "confirm", "--project", p, "--name", "Remedios", "--as", book["carl"])
    assert code == 4 and "owner and coauthors" in err
    code, _, err = _run(capsys, "entity", "confirm", "--project", p, "--name", "Remedios")
    assert code == 2 and "--as" in err
    code, _, err = _run(capsys, "entity", "reject", "--project", p, "--name", "Eulalia", "--as", book["bea"])
    assert code == 2 and "no candidate" in err

    code, out, _ = _run(capsys, "entity", "reject", "--project", p, "--name", "Remedios", "--as", book["bea"], "--json")
    assert code == 0 and json.loads(out)["status"] == "rejected"
    code, out, _ = _run(capsys, "entity", "confirm", "--project", p, "--name", "eulalia", "--as", book["ana"], "--json")
    assert code == 0 and json.loads(out)["relink"]["relinked"] == 1
    code, out, _ = _run(capsys, "entity", "candidates", "--project", p, "--json")
    assert not {"Remedios", "Eulalia"} & {c["name"] for c in json.loads(out)}
    code, out, _ = _run(capsys, "entity", "list", "--project", p, "--json")
    assert "Eulalia" in {e["name"] for e in json.loads(out)}
    assert "Eulalia" not in visible(graph, p, book["bea"]), "seen only in a private entry: declared privately"

    code, out, _ = _run(
        capsys,
        "entity",
        "merge",
        "--project",
        p,
        "--into",
        "Carmen",
        "--from",
        "Eulalia",
        "--as",
        book["ana"],
        "--json",
    )
    assert code == 0 and json.loads(out)["aliases_added"] == ["Eulalia"]
    assert "Eulalia" in visible(graph, p, book["ana"])["Carmen"]
    assert "Eulalia" not in visible(graph, p, book["bea"])["Carmen"], "a private name stays private after a merge"
    assert [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e1"})] == [f"{p}/person/carmen"]
    code, _, _ = _run(capsys, "entity", "unmerge", "--project", p, "--name", "Eulalia", "--as", book["ana"])
    assert code == 0 and "Eulalia" in visible(graph, p, book["ana"])

    code, out, _ = _run(
        capsys,
        "entity",
        "merge",
        "--project",
        p,
        "--into",
        "Carmen",
        "--from",
        "Carmencita",
        "--as",
        book["bea"],
        "--json",
    )
    assert code == 0 and json.loads(out)["aliases_added"] == ["Carmencita"]
    assert [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e3"})] == [f"{p}/person/carmen"]
    code, out, _ = _run(
        capsys, "entity", "unmerge", "--project", p, "--name", "Carmencita", "--as", book["bea"], "--json"
    )
    assert code == 0 and json.loads(out)["name"] == "Carmencita"
    assert [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e3"})] == [f"{p}/person/carmencita"]
