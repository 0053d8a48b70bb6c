"""A name messages gave a person, rejected by a writer on the real Neo4j: it stops being theirs for whoever may see
the rejection (the most open level the writer saw the name at), never for anyone else, and an export carries it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from api.cli import main
from graph.db import Graph
from graph.settings import Settings
from ingest.pipeline import IngestReport
from tests.entities.test_called_names import called, world

Ingest = Callable[..., IngestReport]


def reject(
    client: TestClient, auth: Callable[[str], dict[str, str]], user: str, project: str, who: str, name: str
) -> httpx.Response:
    return client.post(f"/v1/projects/{project}/entities/{who}/called/{name}/reject", headers=auth(user))


def test_a_rejected_name_is_no_longer_theirs_for_those_who_see_the_rejection(
    graph: Graph, prefix: str, ingest: Ingest, client: TestClient, auth: Callable[[str], dict[str, str]]
) -> None:
    project, ana, bob, reader = world(graph, prefix, ingest)
    resp = reject(client, auth, bob, project, ana, "katy")
    assert resp.status_code == 200, resp.text
    assert resp.json() == {"id": resp.json()["id"], "entity": ana, "names": ["Katy"], "status": "rejected"}
    assert called(graph, project, bob, ana) == ("Kate",)
    assert called(graph, project, reader, ana) == ("Kate",), "the reader never saw Katy, nor sees its rejection"
    assert reject(client, auth, ana, project, ana, "Katy").status_code == 404, "only in messages ana may not see"
    assert reject(client, auth, bob, project, ana, "Kate").status_code == 200
    assert called(graph, project, reader, ana) == (), "seen in circle messages, rejected for the circle"
    assert called(graph, project, ana, ana) == ()


def test_only_writers_reject_and_an_unknown_name_or_person_is_missing(
    graph: Graph, prefix: str, ingest: Ingest, client: TestClient, auth: Callable[[str], dict[str, str]]
) -> None:
    project, ana, bob, reader = world(graph, prefix, ingest)
    assert reject(client, auth, reader, project, ana, "Kate").status_code == 403
    assert reject(client, auth, bob, project, ana, "Pepa").status_code == 404
    assert reject(client, auth, bob, project, f"{prefix}nadie", "Kate").status_code == 404
    assert called(graph, project, reader, ana) == ("Kate",)


def test_a_rejection_travels_with_the_export(
    graph: Graph,
    prefix: str,
    ingest: Ingest,
    client: TestClient,
    auth: Callable[[str], dict[str, str]],
    tmp_path: Path,
    settings: Settings,
    capsys: pytest.CaptureFixture[str],
) -> None:
    project, ana, bob, reader = world(graph, prefix, ingest)
    assert reject(client, auth, bob, project, ana, "Kate").status_code == 200
    out, copy = tmp_path / "export.jsonl", f"{prefix}copy"
    assert main(["export", "--project", project, "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    person = next(r["id"] for r in records if r.get("memora_record") == "entity" and r["name"] == ana)
    dismissals = [r for r in records if r.get("memora_record") == "dismissal"]
    assert [(d["kind"], d["name"], d["audience"], d["entity"]) for d in dismissals] == [
        ("called", "Kate", "circle", person)
    ]
    assert main(["import", str(out), "--as-project", copy]) == 0
    capsys.readouterr()
    assert called(graph, copy, reader, ana) == (), "the copy keeps the rejection"
