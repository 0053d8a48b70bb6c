"""Forgetting a person: the entity, its declarations and vectors go, and its names are redacted from the texts of
every entry the caller may edit; entries the caller may see but not edit are counted, hidden ones neither changed
nor counted; after it, no property of the graph holds the name where the caller could reach it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.cli import main
from graph.db import Graph
from graph.entities import list_visible_entities, upsert_entity
from graph.entity_vectors import refresh_project
from graph.members import set_member
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.summary_jobs import Summaries
from tests.graph_grep import grep_graph
from tests.relink_jobs import wait_relinked

SURNAME, ALIAS = "Garmendiazabal", "Lalita"
NAME = f"Eulalia {SURNAME}"


def _world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    project, owner, coauthor = f"{prefix}p", f"{prefix}owner", f"{prefix}co"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, coauthor, "coauthor")
    upsert_entity(graph, project, "person", NAME, [ALIAS], audience="circle", author_id=owner)

    def entry(key: str, author: str, intimacy: str, text: str, **extra: Any) -> dict[str, Any]:
        return {
            "entry_id": f"{project}/{key}",
            "project_id": project,
            "author": author,
            "intimacy": intimacy,
            "occurred_on": "2004-06-01",
            "text": text,
            **extra,
        }

    report = ingest(
        [
            entry(
                "listed",
                owner,
                "circle",
                f"{NAME} cantó con Josep en la verbena.",
                persons=[NAME, "Josep"],
                title=f"La verbena de {ALIAS}",
                tags=[ALIAS, "verbena"],
            ),
            entry("folded", owner, "private", f"Cené con eulalia {SURNAME.upper()} y con Ana; pagó Ana."),
            entry("by-alias", owner, "circle", f"{ALIAS} llegó tarde, como siempre."),
            entry("coauthors", coauthor, "circle", f"Vi a {NAME} en el mercado.", mood=f"alegre por {ALIAS}"),
            entry("unrelated", owner, "circle", "Josep arregló la bicicleta; Eulalio no vino."),
        ]
    )
    assert not report.errors
    return {"project": project, "owner": owner, "coauthor": coauthor}


def _forget(client: TestClient, headers: dict[str, str], project: str, name: str, dry_run: bool) -> Any:
    return client.delete(
        f"/v1/projects/{project}/entities/person/{name}",
        params={"forget": "true", "dry_run": str(dry_run).lower()},
        headers=headers,
    )


def test_a_dry_run_lists_what_forgetting_would_change_and_changes_nothing(
    graph: Graph,
    prefix: str,
    ingest: Callable[..., Any],
    client: TestClient,
    auth: Callable[[str], dict[str, str]],
    embedder: CheckedEmbedder,
) -> None:
    w = _world(graph, prefix, ingest)
    project = w["project"]
    # The entity vectors built now, not by a background worker of another test's service while this one compares.
    refresh_project(graph, project, embedder.slug)
    before = grep_graph(graph, [SURNAME, ALIAS])

    as_owner = _forget(client, auth(w["owner"]), project, ALIAS, dry_run=True)
    assert as_owner.status_code == 200, as_owner.text
    plan = as_owner.json()
    assert plan["dry_run"] and plan["relink"] is None and plan["name"] == NAME
    assert {e["entry_id"].split("/")[-1]: e["occurrences"] for e in plan["entries"]} == {
        "listed": 4,  # text, title, the listed person, the tag (the persons and tags lists drop them)
        "folded": 1,
        "by-alias": 1,
        "coauthors": 2,  # the owner may edit a coauthor's entry they see: text and metadata
    }
    assert plan["declarations"] == 1 and plan["not_editable"] == 0
    assert grep_graph(graph, [SURNAME, ALIAS]) == before

    # A coauthor edits their own entries only: the owner's visible ones are counted, the private one is not.
    as_coauthor = _forget(client, auth(w["coauthor"]), project, NAME, dry_run=True).json()
    assert [e["entry_id"].split("/")[-1] for e in as_coauthor["entries"]] == ["coauthors"]
    assert as_coauthor["not_editable"] == 2

    # What the coauthor is told does not change when an entry hidden from them names the person.
    ingest(
        [
            {
                "entry_id": f"{project}/hidden",
                "project_id": project,
                "author": w["owner"],
                "intimacy": "private",
                "text": f"Otra cena con {NAME}.",
                "persons": [NAME],
            }
        ]
    )
    again = _forget(client, auth(w["coauthor"]), project, NAME, dry_run=True).json()
    assert again == as_coauthor


def test_forgetting_a_person_leaves_no_trace_of_the_name(
    graph: Graph,
    embedder: CheckedEmbedder,
    prefix: str,
    ingest: Callable[..., Any],
    client: TestClient,
    auth: Callable[[str], dict[str, str]],
) -> None:
    w = _world(graph, prefix, ingest)
    project, owner = w["project"], w["owner"]
    headers = auth(owner)
    summaries, viewer = Summaries(graph, embedder), Viewer(user_id=owner)
    assert SURNAME in (summaries.for_viewer(viewer, project, None) or {}).get("text", "")
    refresh_project(graph, project, embedder.slug)
    before = grep_graph(graph, [SURNAME, ALIAS.lower()])
    assert "Summary.text" in before[SURNAME.lower()] and "EntityVector.name" in before[SURNAME.lower()]
    assert "Declaration.aliases" in before[ALIAS.lower()] and "Chunk.text" in before[ALIAS.lower()]

    done = _forget(client, headers, project, NAME, dry_run=False)
    assert done.status_code == 202, done.text
    assert not done.json()["dry_run"] and done.json()["relink"]["status"] in ("queued", "running", "done")
    wait_relinked(client, headers, project, done.json()["relink"]["job_id"])

    assert grep_graph(graph, [SURNAME, ALIAS]) == {}
    text = client.get(f"/v1/entries/{project}/listed", headers=headers).json()
    assert text["text"] == "[—] cantó con Josep en la verbena." and text["title"] == "La verbena de [—]"
    assert text["persons"] == ["Josep"] and text["tags"] == ["verbena"]
    folded = client.get(f"/v1/entries/{project}/folded", headers=headers).json()
    assert folded["text"] == "Cené con [—] y con Ana; pagó Ana."
    unrelated = client.get(f"/v1/entries/{project}/unrelated", headers=headers).json()
    assert unrelated["text"] == "Josep arregló la bicicleta; Eulalio no vino."
    assert not [e for e in list_visible_entities(graph, [project], viewer) if e.name == NAME]
    found = client.post("/v1/search", json={"q": f"{NAME} verbena", "project_id": project, "k": 5}, headers=headers)
    results = found.json()["results"]
    assert results and all(SURNAME not in json.dumps(r, ensure_ascii=False) for r in results)
    assert all(ALIAS not in json.dumps(r, ensure_ascii=False) for r in results)
    rebuilt = summaries.for_viewer(viewer, project, None)
    assert rebuilt is not None and "verbena" in rebuilt["text"] and SURNAME not in rebuilt["text"]
    assert grep_graph(graph, [SURNAME, ALIAS]) == {}
    gone = _forget(client, headers, project, NAME, dry_run=True)
    assert gone.status_code == 404


def test_entries_hidden_from_the_forgetter_keep_the_name_for_those_who_see_them(
    graph: Graph, prefix: str, ingest: Callable[..., Any], client: TestClient, auth: Callable[[str], dict[str, str]]
) -> None:
    w = _world(graph, prefix, ingest)
    project, coauthor = w["project"], w["coauthor"]
    ingest(
        [
            {
                "entry_id": f"{project}/own-private",
                "project_id": project,
                "author": w["owner"],
                "intimacy": "private",
                "text": f"Cena a solas con {NAME}.",
                "persons": [NAME],
            }
        ]
    )
    done = _forget(client, auth(coauthor), project, NAME, dry_run=False)
    assert done.status_code == 202, done.text
    wait_relinked(client, auth(coauthor), project, done.json()["relink"]["job_id"])
    mine = client.get(f"/v1/entries/{project}/coauthors", headers=auth(coauthor)).json()
    assert mine["text"] == "Vi a [—] en el mercado." and mine["mood"] == "alegre por [—]"
    # The owner's entries are the owner's: their texts and their private entry still name her, for them.
    theirs = client.get(f"/v1/entries/{project}/own-private", headers=auth(w["owner"])).json()
    assert theirs["text"] == f"Cena a solas con {NAME}."
    listed = client.get(f"/v1/entries/{project}/listed", headers=auth(w["owner"])).json()
    assert listed["text"].startswith(NAME)
    owner_view = Viewer(user_id=w["owner"])
    assert [e.name for e in list_visible_entities(graph, [project], owner_view) if e.name == NAME] == [NAME]


def test_forget_answers_reasons_for_bad_requests(
    graph: Graph, prefix: str, ingest: Callable[..., Any], client: TestClient, auth: Callable[[str], dict[str, str]]
) -> None:
    w = _world(graph, prefix, ingest)
    project = w["project"]
    reader = f"{prefix}reader"
    set_member(graph, project, reader, "reader")
    plain_dry = client.delete(
        f"/v1/projects/{project}/entities/person/{NAME}", params={"dry_run": "true"}, headers=auth(w["owner"])
    )
    assert plain_dry.status_code == 422
    assert plain_dry.json()["detail"] == [
        {"loc": ["query", "dry_run"], "msg": "dry_run applies to forget=true", "type": "value_error"}
    ]
    assert _forget(client, auth(reader), project, NAME, dry_run=True).status_code == 403
    assert _forget(client, auth(w["owner"]), project, "Nadie Nunca", dry_run=True).status_code == 404


def test_memora_entity_forget_from_the_command_line(
    graph: Graph, prefix: str, ingest: Callable[..., Any], capsys: pytest.CaptureFixture[str]
) -> None:
    w = _world(graph, prefix, ingest)
    project, owner = w["project"], w["owner"]
    argv = ["entity", "forget", "--project", project, "--kind", "person", "--name", ALIAS, "--json"]
    assert main(argv) == 2 and "--as" in capsys.readouterr().err
    assert main([*argv, "--as", owner, "--dry-run"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["dry_run"] and len(plan["entries"]) == 4 and "relink" not in plan
    assert grep_graph(graph, [SURNAME])  # a dry run changes nothing
    assert main([*argv, "--as", owner]) == 0
    done = json.loads(capsys.readouterr().out)
    assert not done["dry_run"] and done["relink"]["entries"] == 5
    assert grep_graph(graph, [SURNAME, ALIAS]) == {}
    embedded = graph.read(
        "MATCH (c:Chunk {entry_id: $id}) RETURN c.text AS text, c.embedding_status AS status",
        {"id": f"{project}/listed"},
    )
    assert embedded and all("[—]" in r["text"] and r["status"] == "done" for r in embedded)
