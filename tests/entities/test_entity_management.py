"""Entities can be declared after the fact, renamed and deleted (API and CLI), and existing entries are re-linked to
the change in the background through ingest's own linking rules; an edit acts only on the sources its writer may see,
and a reader or a writer probing hidden names learns nothing from the answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.cli import main
from graph.db import Graph
from graph.members import set_member
from ingest.pipeline import IngestReport
from tests.relink_jobs import wait_relinked

Headers = Callable[[str], dict[str, str]]
MENTIONED = "MATCH (:Entry {id: $entry})-[m:MENTIONS]->(n) RETURN n.id AS id, m.name AS name ORDER BY id"


@pytest.fixture()
def house(graph: Graph, prefix: str, ingest: Callable[..., IngestReport]) -> dict[str, str]:
    """Ana owns the project, Bea coauthors, Carl reads. Pep and Lola are named in texts but declared by nobody;
    Marta is listed; Secreto is listed by Ana's private entry only."""
    p = f"{prefix}casa"
    users = {k: f"{prefix}{k}" for k in ("ana", "bea", "carl")}
    set_member(graph, p, users["ana"], "owner")
    set_member(graph, p, users["bea"], "coauthor")
    set_member(graph, p, users["carl"], "reader")
    rows = [
        ("e1", "ana", "circle", "Comida en la playa con Pep y Marta.", ["Marta"]),
        ("e2", "ana", "circle", "El abuelo nos contó historias del puerto con Marta.", ["Marta"]),
        ("e3", "bea", "private", "Lola me llamó; Marta no lo sabe.", ["Marta"]),
        ("e4", "ana", "circle", "Lola vino a cenar con Marta.", ["Marta"]),
        ("e5", "ana", "private", "Nadie sabe de Secreto.", ["Secreto"]),
    ]
    report = ingest(
        [
            {
                "entry_id": f"{p}/{eid}",
                "project_id": p,
                "author": users[who],
                "intimacy": level,
                "text": text,
                "persons": persons,
                "occurred_on": "2010-07-01",
            }
            for eid, who, level, text, persons in rows
        ]
    )
    assert not report.errors
    return {"project": p, **users}


def wait(client: TestClient, headers: dict[str, str], project: str, job: dict[str, Any]) -> dict[str, Any]:
    return wait_relinked(client, headers, project, job["job_id"])


def persons_of(client: TestClient, headers: dict[str, str], entry: str) -> list[str]:
    return list(client.get(f"/v1/entries/{entry}", headers=headers).json()["read_only"]["linked"]["persons"])


def companions(client: TestClient, headers: dict[str, str], project: str, name: str) -> list[str]:
    resp = client.get(f"/v1/projects/{project}/analytics/cooccurrence", params={"entity": name}, headers=headers)
    assert resp.status_code == 200, resp.text
    return [c["name"] for c in resp.json()["with"]]


def entity_names(client: TestClient, headers: dict[str, str], project: str) -> set[str]:
    return {e["name"] for e in client.get(f"/v1/projects/{project}/entities", headers=headers).json()}


def test_an_entity_declared_after_ingest_links_existing_entries(
    client: TestClient, auth: Headers, house: dict[str, str]
) -> None:
    p, ana, carl = house["project"], auth(house["ana"]), auth(house["carl"])
    assert "Pep" not in companions(client, carl, p, "Marta")
    resp = client.post(f"/v1/projects/{p}/entities", json={"kind": "person", "name": "Pep"}, headers=ana)
    assert resp.status_code == 200 and resp.json()["relink"]["status"] in ("queued", "running", "done")
    job = wait(client, ana, p, resp.json()["relink"])
    assert job["total"] == job["done"] == 4, "Ana may see four of the five entries"
    assert job["relinked"] == 1, "only the entry whose links changed is rewritten"
    assert "Pep" in companions(client, carl, p, "Marta")
    found = client.post("/v1/search", json={"q": "playa", "project_id": p}, headers=carl).json()["results"]
    assert [r["entry_id"] for r in found] == [f"{p}/e1"] and "Pep" in found[0]["persons"]

    patched = client.patch(f"/v1/projects/{p}/entities/person/pep", json={"aliases": ["el abuelo"]}, headers=ana)
    assert patched.status_code == 200, patched.text
    assert patched.json()["id"] == resp.json()["id"] and patched.json()["aliases"] == ["el abuelo"]
    wait(client, ana, p, patched.json()["relink"])
    assert "Pep" in persons_of(client, carl, f"{p}/e2"), "an alias added later links the texts that use it"


def test_deleting_an_entity_unlinks_it_everywhere_its_writer_sees(
    client: TestClient, auth: Headers, house: dict[str, str], graph: Graph
) -> None:
    p, ana, carl = house["project"], auth(house["ana"]), auth(house["carl"])
    wait(
        client,
        ana,
        p,
        client.post(f"/v1/projects/{p}/entities", json={"kind": "place", "name": "Pep"}, headers=ana).json()["relink"],
    )
    assert "Pep" in companions(client, carl, p, "Marta"), "the mistaken place is Marta's companion"
    resp = client.delete(f"/v1/projects/{p}/entities/place/Pep", headers=ana)
    assert resp.status_code == 202, resp.text
    wait(client, ana, p, resp.json())
    assert "Pep" not in companions(client, carl, p, "Marta")
    assert "Pep" not in entity_names(client, carl, p)
    assert (
        client.get(f"/v1/projects/{p}/analytics/cooccurrence", params={"entity": "Pep"}, headers=carl).status_code
        == 404
    )
    top = client.get(f"/v1/projects/{p}/analytics/importance", headers=carl).json()
    assert "Pep" not in [t["name"] for t in top]
    found = client.post("/v1/search", json={"q": "playa", "project_id": p}, headers=carl).json()["results"]
    assert found[0]["places"] == []
    assert graph.read("MATCH (n:Place {project_id: $p}) RETURN count(n) AS n", {"p": p})[0]["n"] == 0

    # A listed name goes too: deleting Marta stops the entries Ana may see from listing her.
    wait(client, ana, p, client.delete(f"/v1/projects/{p}/entities/person/marta", headers=ana).json())
    assert "Marta" not in persons_of(client, carl, f"{p}/e4") and "Marta" not in entity_names(client, ana, p)
    # ... but not Bea's private entry, which Ana may not see: Bea still sees Marta there.
    assert persons_of(client, auth(house["bea"]), f"{p}/e3") == ["Marta"]
    assert "Marta" in entity_names(client, auth(house["bea"]), p)


def test_a_private_declaration_never_links_another_authors_entries(
    client: TestClient, auth: Headers, house: dict[str, str], graph: Graph
) -> None:
    p, bea = house["project"], auth(house["bea"])
    resp = client.post(
        f"/v1/projects/{p}/entities", json={"kind": "person", "name": "Lola", "audience": "private"}, headers=bea
    )
    wait(client, bea, p, resp.json()["relink"])
    lola = resp.json()["id"]
    assert lola in [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e3"})], "Bea's own private entry"
    assert lola not in [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e4"})], "Ana's entry is not linked"
    assert "Lola" not in entity_names(client, auth(house["ana"]), p)


def test_renaming_keeps_declared_ids_and_rewrites_listed_names(
    client: TestClient, auth: Headers, house: dict[str, str]
) -> None:
    p, ana, carl, bea = house["project"], auth(house["ana"]), auth(house["carl"]), auth(house["bea"])
    pep = client.post(f"/v1/projects/{p}/entities", json={"kind": "person", "name": "Pep"}, headers=ana).json()
    renamed = client.patch(f"/v1/projects/{p}/entities/person/Pep", json={"name": "Josep"}, headers=ana)
    assert renamed.status_code == 200 and renamed.json()["id"] == pep["id"] and renamed.json()["name"] == "Josep"
    assert renamed.json()["aliases"] == ["Pep"], "the old name stays an alias: texts that say Pep still link"
    wait(client, ana, p, renamed.json()["relink"])
    assert "Josep" in persons_of(client, carl, f"{p}/e1") and "Josep" in companions(client, carl, p, "Marta")

    taken = client.patch(f"/v1/projects/{p}/entities/person/Josep", json={"name": "marta"}, headers=ana)
    assert taken.status_code == 409 and "already called" in taken.json()["detail"]
    undeclared = client.patch(f"/v1/projects/{p}/entities/person/Marta", json={"aliases": ["Martita"]}, headers=ana)
    assert undeclared.status_code == 409 and "declare it" in undeclared.json()["detail"]

    listed = client.patch(f"/v1/projects/{p}/entities/person/Marta", json={"name": "Marta García"}, headers=bea)
    assert listed.status_code == 200 and listed.json()["id"] == f"{p}/person/marta-garcia"
    wait(client, bea, p, listed.json()["relink"])
    assert persons_of(client, carl, f"{p}/e4") == ["Marta García"]
    assert persons_of(client, bea, f"{p}/e3") == ["Marta García"], "Bea's own private entry is hers to rename"
    assert "Marta" not in entity_names(client, ana, p)
    assert client.patch(f"/v1/projects/{p}/entities/person/Marta", json={"name": "X"}, headers=ana).status_code == 404


def test_entity_edits_reveal_nothing_hidden(
    client: TestClient, auth: Headers, house: dict[str, str], graph: Graph, prefix: str
) -> None:
    """Only writers may edit, and a writer's edit finds only entities they may see: "Secreto", named by Ana's
    private entry alone, answers Bea exactly as a name nobody used, and stays linked."""
    p, bea, carl = house["project"], auth(house["bea"]), auth(house["carl"])
    hidden = client.delete(f"/v1/projects/{p}/entities/person/Secreto", headers=bea)
    missing = client.delete(f"/v1/projects/{p}/entities/person/Nadie", headers=bea)
    assert hidden.status_code == missing.status_code == 404 and hidden.json() == missing.json()
    hidden = client.patch(f"/v1/projects/{p}/entities/person/Secreto", json={"name": "X"}, headers=bea)
    missing = client.patch(f"/v1/projects/{p}/entities/person/Nadie", json={"name": "X"}, headers=bea)
    assert hidden.status_code == missing.status_code == 404 and hidden.json() == missing.json()
    assert [r["name"] for r in graph.read(MENTIONED, {"entry": f"{p}/e5"})] == ["Secreto"]

    for who in (carl, auth(f"{prefix}outsider")):
        for name in ("Marta", "Secreto", "Nadie"):
            assert client.delete(f"/v1/projects/{p}/entities/person/{name}", headers=who).status_code == 403
            assert (
                client.patch(f"/v1/projects/{p}/entities/person/{name}", json={"name": "X"}, headers=who).status_code
                == 403
            )
    assert client.patch(f"/v1/projects/{p}/entities/animal/Rex", json={"name": "X"}, headers=carl).status_code == 422
    assert client.patch(f"/v1/projects/{p}/entities/person/Marta", json={}, headers=carl).status_code == 422

    job = client.post(
        f"/v1/projects/{p}/entities", json={"kind": "thing", "name": "Barca"}, headers=auth(house["ana"])
    ).json()["relink"]
    assert client.get(f"/v1/projects/{p}/relink/{job['job_id']}", headers=carl).status_code == 403
    assert client.get(f"/v1/projects/{p}/relink/{job['job_id']}", headers=bea).status_code == 404, (
        "a job is read by the writer who started it (its counts are over what they may see)"
    )
    assert client.get(f"/v1/projects/{p}/relink/nope", headers=bea).status_code == 404
    set_member(graph, f"{prefix}otro", house["bea"], "owner")
    assert client.get(f"/v1/projects/{prefix}otro/relink/{job['job_id']}", headers=bea).status_code == 404


def test_a_relink_job_counts_only_what_its_writer_may_see(
    client: TestClient, auth: Headers, house: dict[str, str], graph: Graph
) -> None:
    """Bea declares "Nadie", a word only Ana's private entry uses: that entry is linked, but Bea's job counts the
    four entries she may see and reports none changed, as in a project without Ana's private entry."""
    p, bea = house["project"], auth(house["bea"])
    resp = client.post(f"/v1/projects/{p}/entities", json={"kind": "person", "name": "Nadie"}, headers=bea).json()
    job = wait(client, bea, p, resp["relink"])
    assert (job["total"], job["done"], job["relinked"]) == (4, 4, 0)
    assert resp["id"] in [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e5"})]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_entities_from_the_command_line(
    capsys: pytest.CaptureFixture[str], house: dict[str, str], graph: Graph
) -> None:
    p = house["project"]
    code, _, err = _run(capsys, "entity", "add", "--project", p, "--name", "Pep")
    assert code == 2 and "--kind" in err
    assert graph.read("MATCH (n:Person {id: $id}) RETURN count(n) AS n", {"id": f"{p}/person/pep"})[0]["n"] == 0

    code, out, _ = _run(
        capsys, "entity", "add", "--project", p, "--kind", "person", "--name", "Pep", "--as", house["ana"], "--json"
    )
    assert code == 0 and '"relinked": 1' in out and '"entries": 5' in out
    assert f"{p}/person/pep" in [r["id"] for r in graph.read(MENTIONED, {"entry": f"{p}/e1"})]

    code, out, _ = _run(
        capsys,
        "entity",
        "rename",
        "--project",
        p,
        "--kind",
        "person",
        "--name",
        "Pep",
        "--to",
        "Josep",
        "--alias",
        "el abuelo",
        "--as",
        house["bea"],
        "--json",
    )
    assert code == 0 and '"name": "Josep"' in out
    assert {r["name"] for r in graph.read(MENTIONED, {"entry": f"{p}/e2"})} == {"Josep", "Marta"}

    code, _, err = _run(capsys, "entity", "remove", "--project", p, "--kind", "person", "--name", "Josep")
    assert code == 2 and "--as" in err
    code, _, err = _run(
        capsys, "entity", "remove", "--project", p, "--kind", "person", "--name", "Josep", "--as", house["carl"]
    )
    assert code == 4 and "owner and coauthors" in err
    code, _, err = _run(
        capsys, "entity", "remove", "--project", p, "--kind", "person", "--name", "Secreto", "--as", house["bea"]
    )
    assert code == 2 and "no such person" in err
    code, out, _ = _run(
        capsys,
        "entity",
        "remove",
        "--project",
        p,
        "--kind",
        "person",
        "--name",
        "el abuelo",
        "--as",
        house["ana"],
        "--json",
    )
    assert code == 0 and '"removed": true' in out
    assert "Josep" not in {r["name"] for r in graph.read(MENTIONED, {"entry": f"{p}/e2"})}
    assert "Josep" not in {r["name"] for r in graph.read(MENTIONED, {"entry": f"{p}/e1"})}


def test_an_edit_of_hidden_sources_moves_no_other_viewers_generation(
    client: TestClient, auth: Headers, house: dict[str, str], graph: Graph
) -> None:
    """Cached results are keyed by search generations: an edit whose sources only its writer may see (Ana's private
    Secreto) must leave everyone else's generations alone, or a cache miss would tell them it happened; an edit of
    circle sources moves everyone's."""
    from graph import generations

    p, ana = house["project"], auth(house["ana"])

    def gens(user: str) -> list[dict[str, Any]]:
        return generations.read(graph, [p], house[user])

    before = {u: gens(u) for u in ("ana", "bea", "carl")}
    wait(
        client,
        ana,
        p,
        client.patch(f"/v1/projects/{p}/entities/person/Secreto", json={"name": "Sigilo"}, headers=ana).json()[
            "relink"
        ],
    )
    wait(client, ana, p, client.delete(f"/v1/projects/{p}/entities/person/Sigilo", headers=ana).json())
    after = {u: gens(u) for u in ("ana", "bea", "carl")}
    assert after["bea"] == before["bea"] and after["carl"] == before["carl"]
    assert after["ana"] != before["ana"]

    renamed = client.patch(f"/v1/projects/{p}/entities/person/Marta", json={"name": "Marta García"}, headers=ana)
    wait(client, ana, p, renamed.json()["relink"])
    assert gens("carl") != after["carl"]
