"""A member leaves with what they wrote (exported first, then deleted with everything derived from it), and an owner
deletes a whole project; both answer what went, neither tells anyone about entries hidden from them, and afterwards
nothing in the graph holds the deleted texts."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import Services, create_app
from api.cli import main
from graph.db import Graph
from graph.entities import upsert_entity
from graph.entity_vectors import refresh_project
from graph.members import role_of, set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.summary_jobs import Summaries
from tests.graph_grep import grep_graph

CO_WORD, CO_NAME, OWNER_WORD = "Quebrantahuesos", "Ignacia Berrondo", "Salamandrina"


@pytest.fixture()
def logged(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> Iterator[TestClient]:
    """Every search logged."""
    services = Services(settings.model_copy(update={"search_log_sample": 1.0}), graph=graph, embedder=embedder)
    with TestClient(create_app(services)) as c:
        yield c


def _world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    project, owner, co, reader = f"{prefix}p", f"{prefix}owner", f"{prefix}co", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, co, "coauthor")
    set_member(graph, project, reader, "reader")
    upsert_entity(graph, project, "person", CO_NAME, ["Nacha"], audience="circle", author_id=co)

    def entry(key: str, author: str, intimacy: str, text: str, **extra: Any) -> dict[str, Any]:
        return {
            "entry_id": f"{project}/{key}",
            "project_id": project,
            "author": author,
            "intimacy": intimacy,
            "occurred_on": "1997-03-09",
            "text": text,
            **extra,
        }

    report = ingest(
        [
            entry("co-circle", co, "circle", f"El {CO_WORD} voló sobre {CO_NAME} en el puerto.", period="Puerto"),
            entry("co-private", co, "private", f"Secreto: el {CO_WORD} me asusta."),
            entry("owner-circle", owner, "circle", f"Una {OWNER_WORD} en el jardín con Josep.", persons=["Josep"]),
        ]
    )
    assert not report.errors
    return {"project": project, "owner": owner, "co": co, "reader": reader}


def _lines(response: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in response.text.splitlines() if line.strip()]


def test_a_member_exports_what_they_wrote_and_leaves_with_it(
    graph: Graph,
    embedder: CheckedEmbedder,
    prefix: str,
    ingest: Callable[..., Any],
    logged: TestClient,
    auth: Callable[[str], dict[str, str]],
) -> None:
    w = _world(graph, prefix, ingest)
    project, co = w["project"], w["co"]
    mine = logged.get(f"/v1/projects/{project}/export", params={"own": "true"}, headers=auth(co))
    assert mine.status_code == 200, mine.text
    lines = _lines(mine)
    assert sorted(r["entry_id"].split("/")[-1] for r in lines if "entry_id" in r) == ["co-circle", "co-private"]
    assert [r["user_id"] for r in lines if r.get("memora_record") == "member"] == [co]
    assert [r["name"] for r in lines if r.get("memora_record") == "declaration"] == [CO_NAME]
    assert lines[-1] == {"memora_record": "end", "entries": 2}
    # Without `own`, the export stays the owner's; a reader's own export holds nothing of the others.
    assert logged.get(f"/v1/projects/{project}/export", headers=auth(co)).status_code == 403
    readers = _lines(logged.get(f"/v1/projects/{project}/export?own=true", headers=auth(w["reader"])))
    assert readers[-1]["entries"] == 0 and not [r for r in readers if r.get("memora_record") == "declaration"]

    # Everything the entries are derived into exists before the leave: a logged search, summaries, entity vectors.
    found = logged.post("/v1/search", json={"q": CO_WORD, "project_id": project, "k": 5}, headers=auth(co)).json()
    assert f"{project}/co-circle" in [r["entry_id"] for r in found["results"]]
    summaries = Summaries(graph, embedder)
    assert CO_WORD in (summaries.for_viewer(Viewer(user_id=co), project, None) or {}).get("text", "")
    refresh_project(graph, project, embedder.slug)
    assert set(grep_graph(graph, [CO_WORD, CO_NAME, "Nacha"])) == {CO_WORD.lower(), CO_NAME.lower(), "nacha"}

    left = logged.post(f"/v1/projects/{project}/leave", json={"delete_entries": True}, headers=auth(co))
    assert left.status_code == 200, left.text
    assert left.json() == {
        "project_id": project,
        "role": "coauthor",
        "entries_deleted": 2,
        "declarations_deleted": 1,
    }
    assert role_of(graph, project, co) is None
    assert grep_graph(graph, [CO_WORD, CO_NAME, "Nacha", f"{project}/co-"]) == {}
    assert logged.post("/v1/search", json={"q": CO_WORD, "project_id": project}, headers=auth(co)).status_code == 403
    # The others' writing stays.
    owners = logged.get(f"/v1/entries/{project}/owner-circle", headers=auth(w["owner"]))
    assert owners.status_code == 200 and OWNER_WORD in owners.json()["text"]
    again = logged.post(f"/v1/projects/{project}/leave", json={}, headers=auth(co))
    assert again.status_code == 403


def test_the_only_owner_cannot_leave_and_nothing_is_deleted(
    graph: Graph, prefix: str, ingest: Callable[..., Any], client: TestClient, auth: Callable[[str], dict[str, str]]
) -> None:
    w = _world(graph, prefix, ingest)
    project, owner = w["project"], w["owner"]
    refused = client.post(f"/v1/projects/{project}/leave", json={"delete_entries": True}, headers=auth(owner))
    assert refused.status_code == 409 and "owner" in refused.json()["detail"]
    assert client.get(f"/v1/entries/{project}/owner-circle", headers=auth(owner)).status_code == 200
    bad = client.post(f"/v1/projects/{project}/leave", json={"delete_entries": "yes please"}, headers=auth(owner))
    assert bad.status_code == 422
    # Another owner first; then the first one may go, keeping their entries in the project.
    set_member(graph, project, w["co"], "owner")
    kept = client.post(f"/v1/projects/{project}/leave", json={}, headers=auth(owner))
    assert kept.status_code == 200 and kept.json()["entries_deleted"] == 0
    assert client.get(f"/v1/entries/{project}/owner-circle", headers=auth(w["co"])).status_code == 200


def test_an_owner_deletes_the_whole_project_and_learns_nothing_hidden(
    graph: Graph,
    embedder: CheckedEmbedder,
    prefix: str,
    ingest: Callable[..., Any],
    logged: TestClient,
    auth: Callable[[str], dict[str, str]],
) -> None:
    w = _world(graph, prefix, ingest)
    project, owner = w["project"], w["owner"]
    logged.post("/v1/search", json={"q": OWNER_WORD, "project_id": project}, headers=auth(owner))
    Summaries(graph, embedder).for_viewer(Viewer(user_id=owner), project, None)
    refresh_project(graph, project, embedder.slug)
    assert logged.delete(f"/v1/projects/{project}", headers=auth(w["co"])).status_code == 403
    assert logged.delete(f"/v1/projects/{project}", headers=auth(f"{prefix}stranger")).status_code == 403

    gone = logged.delete(f"/v1/projects/{project}", headers=auth(owner))
    assert gone.status_code == 200, gone.text
    # Three entries went; the owner could see two (the coauthor's private one is not theirs to count).
    assert gone.json() == {"project_id": project, "entries_deleted": 2, "members_removed": 3}
    assert grep_graph(graph, [project, CO_WORD, OWNER_WORD, CO_NAME]) == {}
    assert logged.get("/v1/projects", headers=auth(owner)).json() == []
    assert logged.get(f"/v1/entries/{project}/owner-circle", headers=auth(owner)).status_code == 404

    # The id is free again: a new project under it starts empty, whatever was kept for the old one.
    created = logged.post("/v1/projects", json={"id": project, "name": "Otra vez"}, headers=auth(owner))
    assert created.status_code == 201, created.text
    found = logged.post("/v1/search", json={"q": OWNER_WORD, "project_id": project}, headers=auth(owner)).json()
    assert found["results"] == []


def test_the_operator_deletes_a_project_and_leaves_a_member_from_the_command_line(
    graph: Graph, prefix: str, ingest: Callable[..., Any], capsys: pytest.CaptureFixture[str]
) -> None:
    w = _world(graph, prefix, ingest)
    project = w["project"]
    assert main(["member", "leave", "--project", project, "--user", w["owner"], "--json"]) == 2
    assert "last owner" in capsys.readouterr().err
    assert main(["member", "leave", "--project", project, "--user", w["co"], "--delete-entries", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries_deleted"] == 2
    assert main(["project", "delete", "--project", project, "--json"]) == 0
    removed = json.loads(capsys.readouterr().out)["removed"]
    assert removed["Entry"] == 1 and removed["members"] == 2 and removed["Chunk"] >= 1
    assert grep_graph(graph, [project]) == {}
    assert main(["project", "delete", "--project", project]) == 2
    assert "no such project" in capsys.readouterr().err
