"""Projects are created explicitly (`POST /v1/projects`, `memora project create`), never by adding a member to a
typo, and always keep an owner: the last one can neither demote nor remove themselves, even when two owners try at
the same moment."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from api.app import Services, create_app
from api.cli import main
from graph.db import Graph
from graph.members import PROJECT_ID_PATTERN, LastOwner, change_member, members_of, set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder

Headers = Callable[[str], dict[str, str]]
PROJECT_EXISTS = "MATCH (p:Project {id: $id}) RETURN count(p) AS n"


def exists(graph: Graph, project: str) -> bool:
    return bool(graph.read(PROJECT_EXISTS, {"id": project})[0]["n"])


def owners(graph: Graph, project: str) -> set[str]:
    return {m["user_id"] for m in members_of(graph, project) if m["role"] == "owner"}


def test_a_project_is_created_over_http_and_its_creator_owns_it(
    client: TestClient, auth: Headers, graph: Graph, prefix: str
) -> None:
    ana, project = f"{prefix}ana", f"{prefix}familia"
    resp = client.post(
        "/v1/projects", json={"id": project, "name": "Familia García", "hemisphere": "south"}, headers=auth(ana)
    )
    assert resp.status_code == 201, resp.text
    assert resp.json() == {"project_id": project, "name": "Familia García", "hemisphere": "south"}
    assert client.get("/v1/projects", headers=auth(ana)).json() == [
        {"project_id": project, "name": "Familia García", "role": "owner"}
    ]
    entry = client.post("/v1/entries", json={"project_id": project, "text": "Primer recuerdo."}, headers=auth(ana))
    assert entry.status_code == 201, "the creator can write at once"

    again = client.post("/v1/projects", json={"id": project, "name": "Otra"}, headers=auth(f"{prefix}bea"))
    assert again.status_code == 409 and "already exists" in again.json()["detail"]
    assert owners(graph, project) == {ana}, "a refused create changes nothing"


def test_an_id_is_generated_from_the_name_when_absent(client: TestClient, auth: Headers, prefix: str) -> None:
    ana = f"{prefix}ana"
    first = client.post("/v1/projects", json={"name": f"{prefix}Diario de Ána"}, headers=auth(ana))
    second = client.post("/v1/projects", json={"name": f"{prefix}Diario de Ána"}, headers=auth(ana))
    assert first.status_code == second.status_code == 201
    a, b = first.json()["project_id"], second.json()["project_id"]
    assert a != b and re.fullmatch(rf"{prefix}diario-de-ana-[0-9a-f]{{6}}", a), a
    assert re.fullmatch(PROJECT_ID_PATTERN, a) and first.json()["hemisphere"] == "north"


@pytest.mark.parametrize(
    "body",
    [
        {"id": "con/barra", "name": "x"},
        {"id": "con espacio", "name": "x"},
        {"id": "-guion", "name": "x"},
        {"id": "x" * 101, "name": "x"},
        {"id": "ok", "name": ""},
        {"id": "ok", "name": "x", "hemisphere": "east"},
        {"id": "ok", "name": "x", "owner": "someone-else"},
    ],
)
def test_invalid_project_bodies_are_422(
    client: TestClient, auth: Headers, prefix: str, body: dict[str, str], graph: Graph
) -> None:
    resp = client.post("/v1/projects", json=body, headers=auth(f"{prefix}ana"))
    assert resp.status_code == 422, resp.text
    assert not exists(graph, body["id"])


def test_the_openapi_schema_states_the_id_rule(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ProjectIn"]
    assert schema["properties"]["id"]["anyOf"][0]["pattern"] == PROJECT_ID_PATTERN


def test_adding_a_member_to_a_missing_project_creates_nothing(
    client: TestClient, auth: Headers, graph: Graph, prefix: str
) -> None:
    typo = f"{prefix}famlia"
    resp = client.put(
        f"/v1/projects/{typo}/members", json={"user_id": f"{prefix}bea", "role": "reader"}, headers=auth(f"{prefix}ana")
    )
    assert resp.status_code == 403, "nobody owns a missing project (and 403 does not tell it from another's)"
    assert not exists(graph, typo)


def test_the_last_owner_can_neither_demote_nor_remove_themselves(
    client: TestClient, auth: Headers, graph: Graph, prefix: str
) -> None:
    ana, bea, project = f"{prefix}ana", f"{prefix}bea", f"{prefix}casa"
    assert client.post("/v1/projects", json={"id": project, "name": "Casa"}, headers=auth(ana)).status_code == 201
    members = f"/v1/projects/{project}/members"
    demote = client.put(members, json={"user_id": ana, "role": "reader"}, headers=auth(ana))
    assert demote.status_code == 409 and "at least one owner" in demote.json()["detail"]
    remove = client.delete(f"{members}/{ana}", headers=auth(ana))
    assert remove.status_code == 409 and "at least one owner" in remove.json()["detail"]
    assert owners(graph, project) == {ana}

    assert client.put(members, json={"user_id": bea, "role": "owner"}, headers=auth(ana)).status_code == 200
    assert client.put(members, json={"user_id": ana, "role": "coauthor"}, headers=auth(ana)).status_code == 200
    assert owners(graph, project) == {bea}
    assert client.delete(f"{members}/{bea}", headers=auth(bea)).status_code == 409
    assert client.put(members, json={"user_id": bea, "role": "owner"}, headers=auth(bea)).status_code == 200, (
        "re-stating the owner's role is no demotion"
    )
    assert client.delete(f"{members}/{ana}", headers=auth(bea)).status_code == 204
    assert client.delete(f"{members}/{ana}", headers=auth(bea)).status_code == 404


def test_two_owners_demoting_themselves_at_once_leave_one_owner(graph: Graph, prefix: str) -> None:
    """The owner count and the change are one transaction on the locked project node: of two concurrent demotions
    exactly one wins, whatever the interleaving."""
    for round_ in range(6):
        project, a, b = f"{prefix}race{round_}", f"{prefix}a{round_}", f"{prefix}b{round_}"
        set_member(graph, project, a, "owner")
        set_member(graph, project, b, "owner")
        outcome = _race(graph, project, [(a, "reader"), (b, None)])
        assert sorted(outcome.values()) == ["changed", "refused"], outcome
        assert len(owners(graph, project)) == 1


def _race(graph: Graph, project: str, changes: list[tuple[str, str | None]]) -> dict[str, str]:
    """Run the membership changes at the same moment, one thread each; who changed and who was refused."""
    start = threading.Barrier(len(changes))
    outcome: dict[str, str] = {}

    def change(user: str, role: str | None) -> None:
        start.wait()
        try:
            change_member(graph, project, user, role)
            outcome[user] = "changed"
        except LastOwner:
            outcome[user] = "refused"

    threads = [threading.Thread(target=change, args=c) for c in changes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcome


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_projects_and_members_from_the_command_line(
    capsys: pytest.CaptureFixture[str], graph: Graph, prefix: str
) -> None:
    project, ana, bea = f"{prefix}cli", f"{prefix}ana", f"{prefix}bea"
    code, out, err = _run(capsys, "member", "add", "--project", f"{prefix}typo", "--user", bea, "--role", "reader")
    assert code == 2 and "no such project" in err and "project create" in err
    assert not exists(graph, f"{prefix}typo")

    code, out, _ = _run(
        capsys,
        "project",
        "create",
        "--project",
        project,
        "--name",
        "Casa",
        "--hemisphere",
        "south",
        "--owner",
        ana,
        "--json",
    )
    assert code == 0 and '"hemisphere": "south"' in out
    assert owners(graph, project) == {ana}
    code, _, err = _run(capsys, "project", "create", "--project", project, "--owner", bea)
    assert code == 2 and "already exists" in err
    code, _, err = _run(capsys, "project", "create", "--project", "a/b", "--owner", bea)
    assert code == 2 and "no '/'" in err
    code, _, err = _run(capsys, "project", "create", "--project", f"{prefix}x")
    assert code == 2 and "--owner" in err

    assert _run(capsys, "member", "add", "--project", project, "--user", bea, "--role", "reader")[0] == 0
    code, _, err = _run(capsys, "member", "add", "--project", project, "--user", ana, "--role", "reader")
    assert code == 2 and "last owner" in err
    code, _, err = _run(capsys, "member", "remove", "--project", project, "--user", ana)
    assert code == 2 and "last owner" in err
    assert owners(graph, project) == {ana}
    code, out, _ = _run(capsys, "member", "remove", "--project", project, "--user", bea, "--json")
    assert code == 0 and json.loads(out) == {"project_id": project, "user_id": bea, "removed": True}
    code, out, _ = _run(capsys, "member", "list", "--project", project)
    assert code == 0 and out.split() == ["user_id", "role", ana, "owner"], "a table by default"
    code, _, err = _run(capsys, "member", "list", "--project", f"{prefix}typo")
    assert code == 2 and "no such project" in err


def test_creating_projects_spends_the_write_budget(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, auth: Headers, prefix: str
) -> None:
    cfg = settings.model_copy(update={"rate_write_burst": 2, "rate_write_per_second": 0.001})
    with TestClient(create_app(Services(cfg, graph=graph, embedder=embedder))) as c:
        made = [
            c.post("/v1/projects", json={"id": f"{prefix}p{i}", "name": "x"}, headers=auth(f"{prefix}ana"))
            for i in range(3)
        ]
        assert [r.status_code for r in made] == [201, 201, 429]
        assert "too many writes" in made[2].json()["detail"]
        assert not exists(graph, f"{prefix}p2"), "a refused create creates nothing"
        other = c.post("/v1/projects", json={"id": f"{prefix}q", "name": "x"}, headers=auth(f"{prefix}bea"))
        assert other.status_code == 201, "budgets are per user"
