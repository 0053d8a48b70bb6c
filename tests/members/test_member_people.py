"""A member is a person of their project, on the real Neo4j: an owner links ana to the person Ana, ana's entries then
count Ana among their persons for every reader of mentions (the search's person constraint, companions, entity
questions), a witness does not see the link, a hidden entry tells nobody anything through it, and the link goes with
the member, follows a merge, is forgotten with the person and travels with an export."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.cli import main
from graph.analytics import co_occurrence
from graph.db import Graph
from graph.entities import upsert_entity
from graph.entity_merge import find_entity, merge_entities, unmerge
from graph.entries import get_visible_entry
from graph.ids import entity_id, period_id
from graph.member_people import person_of
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from graph.witnesses import create_grant
from inference.embedders import CheckedEmbedder
from ingest.forget import forget, plan_forget
from ingest.pipeline import IngestReport
from ingest.relink import relink_project
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions
from tests.relink_jobs import wait_relinked

Ingest = Callable[..., IngestReport]
Auth = Callable[[str], dict[str, str]]
CHAPTER = "Años de Madrid"
# The author edges of a project: (entry, person) for every MENTIONS edge marked as its author's.
AUTHOR_EDGES = """
MATCH (e:Entry {project_id: $project_id})-[m:MENTIONS {author: true}]->(x)
RETURN e.id AS entry_id, x.id AS person_id, m.count AS count, m.witness_hidden AS hidden ORDER BY entry_id
"""
LINKS = "MATCH (u:User)-[l:IS_PERSON {project_id: $project_id}]->(x) RETURN u.id AS user_id, x.id AS person_id"


@dataclass(frozen=True)
class World:
    project: str
    ana: str
    pep: str
    lola: str

    def entry(self, key: str) -> str:
        return f"{self.project}/{key}"

    def person(self, name: str) -> str:
        return entity_id(self.project, "person", name)


def _entry(w: World, key: str, author: str, on: str, text: str, **more: Any) -> dict[str, Any]:
    return {
        "entry_id": w.entry(key),
        "project_id": w.project,
        "author": author,
        "occurred_on": on,
        "text": text,
        "intimacy": "circle",
        **more,
    }


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Ingest) -> World:
    """ana (owner) writes most entries about her brother Pep; pep (coauthor) writes one about his sister Ana; lola
    reads. Nobody is anybody yet."""
    w = World(f"{prefix}fam", f"{prefix}ana", f"{prefix}pep", f"{prefix}lola")
    set_member(graph, w.project, w.ana, "owner")
    set_member(graph, w.project, w.pep, "coauthor")
    set_member(graph, w.project, w.lola, "reader")
    upsert_entity(graph, w.project, "person", "Ana", ["mi hermana"])
    upsert_entity(graph, w.project, "person", "Pep", ["mi hermano"])
    upsert_entity(graph, w.project, "place", "Madrid")
    report = ingest(
        [
            _entry(w, "e1", w.ana, "2009-03-14", "Vivía en el piso de Lavapiés, en Madrid; Pep venía los domingos.",
                   persons=["Pep"], places=["Madrid"], period=CHAPTER, intimacy="public"),
            _entry(w, "e2", w.ana, "2009-10-02", "Otoño en Madrid: Pep me ayudó a pintar la cocina del piso.",
                   persons=["Pep"], places=["Madrid"], period=CHAPTER),
            _entry(w, "e3", w.pep, "2008-07-01", "Mi hermana me llevó a la playa; fue el verano de la bici.",
                   persons=["Ana"]),
            _entry(w, "e4", w.ana, "2005-05-05", "Un día de lluvia, solo libros y té.", tags=["lluvia"]),
        ]
    )  # fmt: skip
    assert not report.errors
    return w


def link(client: TestClient, auth: Auth, caller: str, w: World, user: str, person: str) -> Any:
    return client.put(
        f"/v1/projects/{w.project}/member-persons", headers=auth(caller), json={"user_id": user, "person": person}
    )


def linked(client: TestClient, auth: Auth, w: World, user: str, person: str) -> dict[str, Any]:
    """Link as the owner and wait for the re-linking the link started."""
    resp = link(client, auth, w.ana, w, user, person)
    assert resp.status_code == 200, resp.text
    body: dict[str, Any] = resp.json()
    wait_relinked(client, auth(w.ana), w.project, body["relink"]["job_id"])
    return body


def author_edges(graph: Graph, project: str) -> list[dict[str, Any]]:
    return [dict(r) for r in graph.read(AUTHOR_EDGES, {"project_id": project})]


def together(graph: Graph, w: World, viewer: str, name: str, companion: str) -> int:
    """How many entries `viewer` sees naming both (0 when `companion` is not among `name`'s companions)."""
    rows = co_occurrence(graph, Viewer(user_id=viewer), w.project, w.person(name), limit=20, measure="count")
    return next((int(r["together"]) for r in rows if r["name"] == companion), 0)


def test_a_linked_author_counts_among_the_persons_of_their_entries(
    graph: Graph, world: World, client: TestClient, auth: Auth
) -> None:
    w = world
    assert together(graph, w, w.lola, "Pep", "Ana") == 0, "ana's entries about Pep do not name Ana"
    body = linked(client, auth, w, w.ana, "mi hermana")
    assert (body["person_id"], body["person"], body["role"]) == (w.person("Ana"), "Ana", "owner")
    edges = author_edges(graph, w.project)
    assert [(e["entry_id"], e["count"], e["hidden"]) for e in edges] == [
        (w.entry(k), 0, True) for k in ("e1", "e2", "e4")
    ], "one edge per entry she wrote, counting no occurrence, hidden from witnesses"
    assert together(graph, w, w.lola, "Pep", "Ana") == 2
    assert "Ana" in get_visible_entry(graph, Viewer(user_id=w.lola), w.entry("e2"))["persons"]  # type: ignore[index]
    listing = client.get(f"/v1/projects/{w.project}/member-persons", headers=auth(w.lola))
    assert listing.status_code == 200
    assert {(m["user_id"], m["person"]) for m in listing.json()} == {(w.ana, "Ana"), (w.pep, None), (w.lola, None)}


def test_a_question_about_the_linked_person_finds_what_she_wrote(
    graph: Graph, world: World, client: TestClient, auth: Auth, embedder: CheckedEmbedder, settings: Settings
) -> None:
    w = world

    def ask(question: str) -> Any:
        return hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=w.lola),
            question,
            Scope(project_id=w.project),
            SearchOptions(k=5, explain=True),
        )

    def named_ana(resp: Any) -> set[str]:
        return {r.entry_id for r in resp.results if "Ana" in r.persons}

    before = ask("¿dónde vivía Ana en 2009?")
    assert named_ana(before) <= {w.entry("e3")}, "before the link no entry of 2009 names Ana"
    linked(client, auth, w, w.ana, "Ana")
    after = ask("¿dónde vivía Ana en 2009?")
    assert {w.entry("e1"), w.entry("e2")} <= named_ana(after)
    top = [r.entry_id for r in after.results[:2]]
    assert set(top) == {w.entry("e1"), w.entry("e2")}, top
    companions = ask("¿con quién aparece Pep?").answer
    assert companions is not None
    assert "Ana" in json.dumps(companions, ensure_ascii=False), companions


def test_only_the_owner_links_and_a_wrong_person_is_refused_with_its_reason(
    graph: Graph, world: World, client: TestClient, auth: Auth, ingest: Ingest
) -> None:
    w = world
    for caller in (w.pep, w.lola):
        resp = link(client, auth, caller, w, w.ana, "Ana")
        assert resp.status_code == 403 and "owner" in resp.json()["detail"], resp.text
    missing = link(client, auth, w.ana, w, w.ana, "Nadie")
    assert missing.status_code == 404 and "Nadie" in missing.json()["detail"]
    place = link(client, auth, w.ana, w, w.ana, "Madrid")
    assert place.status_code == 422 and "place" in json.dumps(place.json()), place.text
    outsider = link(client, auth, w.ana, w, f"{w.project}-nobody", "Ana")
    assert outsider.status_code == 404 and "not a member" in outsider.json()["detail"]
    secret = _entry(w, "secret", w.ana, "2010", "Solo para mí.", persons=["Rosa"], intimacy="private")
    assert not ingest([secret]).errors
    hidden = link(client, auth, w.ana, w, w.pep, "Rosa")
    assert hidden.status_code == 422 and "circle" in json.dumps(hidden.json()), hidden.text
    not_linked = client.delete(f"/v1/projects/{w.project}/member-persons/{w.pep}", headers=auth(w.ana))
    assert not_linked.status_code == 404
    assert graph.read(LINKS, {"project_id": w.project}) == [], "no refusal left a link behind"


def test_unlinking_and_relinking_give_and_take_the_author_edges(
    graph: Graph, world: World, client: TestClient, auth: Auth
) -> None:
    w = world
    linked(client, auth, w, w.pep, "Pep")
    assert [e["entry_id"] for e in author_edges(graph, w.project)] == [w.entry("e3")]
    assert together(graph, w, w.lola, "Ana", "Pep") == 1, "pep wrote about his sister"
    linked(client, auth, w, w.pep, "Ana")  # a new link replaces the old one
    assert [(e["entry_id"], e["person_id"]) for e in author_edges(graph, w.project)] == [
        (w.entry("e3"), w.person("Ana"))
    ]
    edge = next(e for e in author_edges(graph, w.project))
    assert edge["count"] == 1 and edge["hidden"] is None, "the text names her: one edge, its count the text's"
    resp = client.delete(f"/v1/projects/{w.project}/member-persons/{w.pep}", headers=auth(w.ana))
    assert resp.status_code == 200 and resp.json()["person_id"] is None
    wait_relinked(client, auth(w.ana), w.project, resp.json()["relink"]["job_id"])
    assert author_edges(graph, w.project) == []
    assert together(graph, w, w.lola, "Ana", "Pep") == 0
    assert get_visible_entry(graph, Viewer(user_id=w.lola), w.entry("e3"))["persons"] == ["Ana"]  # type: ignore[index]


def test_a_witness_does_not_see_the_link(graph: Graph, world: World, client: TestClient, auth: Auth) -> None:
    w = world
    linked(client, auth, w, w.ana, "Ana")
    grant = create_grant(graph, w.project, period_id(w.project, CHAPTER), w.ana, timedelta(days=1), "Rosa")
    assert grant is not None
    witness = Viewer(witness_period_id=period_id(w.project, CHAPTER))
    seen = get_visible_entry(graph, witness, w.entry("e1"))
    assert seen is not None and seen["persons"] == ["Pep"], "the witness sees the entry, not who its author is"
    member = get_visible_entry(graph, Viewer(user_id=w.lola), w.entry("e1"))
    assert member is not None and sorted(member["persons"]) == ["Ana", "Pep"]


def test_a_hidden_entry_by_the_linked_author_changes_nothing_for_those_it_is_hidden_from(
    graph: Graph, world: World, client: TestClient, auth: Auth, ingest: Ingest
) -> None:
    w = world
    linked(client, auth, w, w.ana, "Ana")
    before = {
        who: co_occurrence(graph, Viewer(user_id=who), w.project, w.person("Pep"), limit=20, measure="count")
        for who in (w.pep, w.lola)
    }
    mine = together(graph, w, w.ana, "Pep", "Ana")
    text = "Pep no sabe que le preparo una fiesta."
    assert not ingest([_entry(w, "p1", w.ana, "2009-11-01", text, persons=["Pep"], intimacy="private")]).errors
    for who, rows in before.items():
        after = co_occurrence(graph, Viewer(user_id=who), w.project, w.person("Pep"), limit=20, measure="count")
        assert after == rows, who
    assert together(graph, w, w.ana, "Pep", "Ana") == mine + 1, "ana sees her private entry count her"


def test_a_member_removed_is_nobody_and_their_entries_stop_naming_them(
    graph: Graph, world: World, client: TestClient, auth: Auth, embedder: CheckedEmbedder
) -> None:
    w = world
    linked(client, auth, w, w.pep, "Pep")
    assert client.delete(f"/v1/projects/{w.project}/members/{w.pep}", headers=auth(w.ana)).status_code == 204
    assert graph.read(LINKS, {"project_id": w.project}) == []
    relink_project(graph, embedder, w.project)
    assert author_edges(graph, w.project) == []


def test_a_merge_moves_the_link_and_an_unmerge_moves_it_back(
    graph: Graph, world: World, client: TestClient, auth: Auth, embedder: CheckedEmbedder
) -> None:
    w = world
    upsert_entity(graph, w.project, "person", "Anita")
    linked(client, auth, w, w.ana, "Ana")
    owner = Viewer(user_id=w.ana)
    into, merged = (find_entity(graph, w.project, owner, n, "person") for n in ("Anita", "Ana"))
    assert into is not None and merged is not None
    merge_entities(graph, w.project, into, merged, owner, w.ana)
    relink_project(graph, embedder, w.project)
    found = person_of(graph, w.project, w.ana)
    assert found is not None and found.id == w.person("Anita")
    assert {e["person_id"] for e in author_edges(graph, w.project)} == {w.person("Anita")}
    assert unmerge(graph, w.project, "Ana", "person", owner) is not None
    relink_project(graph, embedder, w.project)
    back = person_of(graph, w.project, w.ana)
    assert back is not None and back.id == w.person("Ana")
    assert {e["person_id"] for e in author_edges(graph, w.project)} == {w.person("Ana")}


def test_forgetting_or_deleting_the_person_ends_the_link(
    graph: Graph, world: World, client: TestClient, auth: Auth, embedder: CheckedEmbedder
) -> None:
    w = world
    linked(client, auth, w, w.pep, "Pep")
    owner = Viewer(user_id=w.ana)
    pep = find_entity(graph, w.project, owner, "Pep", "person")
    assert pep is not None
    forget(graph, embedder, plan_forget(graph, pep, owner, owner=True), owner)
    relink_project(graph, embedder, w.project)
    assert graph.read(LINKS, {"project_id": w.project}) == []
    assert author_edges(graph, w.project) == []
    linked(client, auth, w, w.ana, "Ana")
    deleted = client.delete(f"/v1/projects/{w.project}/entities/person/Ana", headers=auth(w.ana))
    assert deleted.status_code == 202, deleted.text
    wait_relinked(client, auth(w.ana), w.project, deleted.json()["job_id"])
    assert person_of(graph, w.project, w.ana) is None, "nobody every member may know of"
    assert author_edges(graph, w.project) == []


def test_the_link_travels_with_the_export(
    graph: Graph,
    world: World,
    client: TestClient,
    auth: Auth,
    prefix: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    w = world
    linked(client, auth, w, w.ana, "Ana")
    out, copy = tmp_path / "export.jsonl", f"{prefix}copy"
    assert main(["export", "--project", w.project, "--out", str(out)]) == 0
    members = [json.loads(line) for line in out.read_text().splitlines() if '"member"' in line]
    assert {(m["user_id"], m.get("person")) for m in members} == {
        (w.ana, w.person("Ana")),
        (w.pep, None),
        (w.lola, None),
    }
    assert main(["import", str(out), "--as-project", copy]) == 0
    capsys.readouterr()
    found = person_of(graph, copy, w.ana)
    assert found is not None and found.id == entity_id(copy, "person", "Ana")
    assert [e["entry_id"] for e in author_edges(graph, copy)] == [f"{copy}/{k}" for k in ("e1", "e2", "e4")]


def test_the_operator_links_and_unlinks_from_the_cli(
    graph: Graph, world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    w = world
    assert main(["member", "link", "--project", w.project, "--user", w.pep, "--person", "Madrid"]) == 2
    assert "Madrid is a place" in capsys.readouterr().err
    assert main(["member", "link", "--project", w.project, "--user", w.pep, "--person", "mi hermano", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["person_id"], shown["person"], shown["relink"]["entries"]) == (w.person("Pep"), "Pep", 4)
    assert [e["entry_id"] for e in author_edges(graph, w.project)] == [w.entry("e3")]
    assert main(["member", "unlink", "--project", w.project, "--user", w.pep]) == 0
    assert author_edges(graph, w.project) == [] and person_of(graph, w.project, w.pep) is None
    assert main(["member", "unlink", "--project", w.project, "--user", w.pep]) == 2
