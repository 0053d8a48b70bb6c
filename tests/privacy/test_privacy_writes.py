"""Write paths that must not widen what a viewer learns: each test pins one way a write could leak."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import Services, create_app
from api.auth import issue
from api.ratelimit import UNLIMITED
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder

Headers = Callable[[str], dict[str, str]]


def _unlimited(settings: Settings, **update: Any) -> Settings:
    return settings.model_copy(update={**UNLIMITED, **update})


@pytest.fixture()
def client(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> Iterator[TestClient]:
    with TestClient(create_app(Services(_unlimited(settings), graph=graph, embedder=embedder))) as c:
        yield c


@pytest.fixture()
def auth(settings: Settings) -> Headers:
    return lambda user_id: {"Authorization": f"Bearer {issue(settings, user_id)}"}


def _count(graph: Graph, project: str) -> int:
    return int(graph.read("MATCH (e:Entry {project_id: $p}) RETURN count(e) AS n", {"p": project})[0]["n"])


def test_project_ids_hold_no_slash_so_ids_never_reach_another_project(
    client: TestClient, auth: Headers, graph: Graph, prefix: str, ingest: Callable[..., Any]
) -> None:
    """A writer of `rp` once got 409 for an id of `rp/work` and could create ids inside it."""
    with pytest.raises(ValueError, match="'/'"):
        set_member(graph, f"{prefix}rp/work", f"{prefix}boss", "owner")
    nested = ingest([{"entry_id": f"{prefix}rp/work/x", "project_id": f"{prefix}rp/work", "text": "Dentro."}])
    assert nested.written == 0 and "project_id" in nested.errors[0].reason
    set_member(graph, f"{prefix}rp", f"{prefix}writer", "owner")
    set_member(graph, f"{prefix}other", f"{prefix}boss", "owner")
    assert (
        ingest([{"entry_id": f"{prefix}other/secret", "project_id": f"{prefix}other", "text": "Existo."}]).written == 1
    )
    answers = [
        client.post(
            "/v1/entries",
            headers=auth(f"{prefix}writer"),
            json={"project_id": f"{prefix}rp", "entry_id": entry_id, "text": "sonda"},
        )
        for entry_id in (f"{prefix}other/secret", f"{prefix}other/free")
    ]
    assert [a.status_code for a in answers] == [422, 422] and answers[0].json() == answers[1].json()
    squat = ingest([{"entry_id": f"{prefix}other/mine", "project_id": f"{prefix}rp", "text": "Okupa."}])
    assert squat.written == 0 and "must start with" in squat.errors[0].reason, "file ingest is confined too"
    assert _count(graph, f"{prefix}other") == 1


def test_a_reader_cannot_edit_or_delete_an_entry_they_wrote_earlier(
    client: TestClient, auth: Headers, graph: Graph, family: dict[str, str]
) -> None:
    project, reader = family["project"], family["reader"]
    entry_id = f"{project}/by-reader"
    resp = client.post(
        "/v1/entries",
        headers=auth(reader),
        json={"project_id": project, "entry_id": entry_id, "text": "Escrito cuando podía."},
    )
    assert resp.status_code == 403
    set_member(graph, project, reader, "coauthor")
    assert (
        client.post(
            "/v1/entries",
            headers=auth(reader),
            json={"project_id": project, "entry_id": entry_id, "text": "Escrito cuando podía."},
        ).status_code
        == 201
    )
    set_member(graph, project, reader, "reader")
    edit = client.put(
        f"/v1/entries/{entry_id}",
        headers=auth(reader),
        json={"text": "Ahora lo hago público.", "intimacy": "public", "period": "Berlín"},
    )
    assert edit.status_code == 403
    assert client.delete(f"/v1/entries/{entry_id}", headers=auth(reader)).status_code == 403
    stored = client.get(f"/v1/entries/{entry_id}", headers=auth(family["owner"])).json()
    assert (stored["text"], stored["intimacy"], stored["period"]) == ("Escrito cuando podía.", "circle", None)


def test_put_without_intimacy_keeps_the_entrys_level(client: TestClient, auth: Headers, family: dict[str, str]) -> None:
    entry_id = f"{family['project']}/owner-private"
    resp = client.put(f"/v1/entries/{entry_id}", headers=auth(family["owner"]), json={"text": "Corrijo una errata."})
    assert resp.status_code == 200, resp.text
    assert client.get(f"/v1/entries/{entry_id}", headers=auth(family["owner"])).json()["intimacy"] == "private"
    assert client.get(f"/v1/entries/{entry_id}", headers=auth(family["coauthor"])).status_code == 404
    opened = client.put(
        f"/v1/entries/{entry_id}",
        headers=auth(family["owner"]),
        json={"text": "Ahora sí, para todos.", "intimacy": "circle"},
    )
    assert opened.status_code == 200
    assert client.get(f"/v1/entries/{entry_id}", headers=auth(family["coauthor"])).status_code == 200


def test_a_refused_chunked_body_writes_nothing(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, auth: Headers, family: dict[str, str]
) -> None:
    """The entry is whole JSON in the first chunks; trailing spaces in later chunks push the body past the limit.
    Driven as raw ASGI messages, so the chunks reach the service exactly as a chunked upload sends them."""
    project = family["project"]
    entry = json.dumps({"project_id": project, "entry_id": f"{project}/sneaky", "text": "No debería existir."})
    payload = entry.encode() + b" " * 3_000
    messages = [
        {"type": "http.request", "body": payload[i : i + 500], "more_body": i + 500 < len(payload)}
        for i in range(0, len(payload), 500)
    ]
    app = create_app(Services(_unlimited(settings, max_body_bytes=2_000), graph=graph, embedder=embedder))
    headers = [
        (b"content-type", b"application/json"),
        (b"transfer-encoding", b"chunked"),
        *((k.lower().encode(), v.encode()) for k, v in auth(family["owner"]).items()),
    ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/entries",
        "raw_path": b"/v1/entries",
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8077),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    before = _count(graph, project)
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = json.loads(b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"))
    assert status == 422 and body["detail"][0]["type"] == "body_too_large"
    assert _count(graph, project) == before
    assert not graph.read("MATCH (e:Entry {id: $id}) RETURN e", {"id": f"{project}/sneaky"})


def test_declaring_a_hidden_name_answers_with_the_callers_own_declaration(
    client: TestClient, auth: Headers, graph: Graph, family: dict[str, str], ingest: Callable[..., Any]
) -> None:
    """`POST /entities` with the name of someone only the owner's private entry names once answered with the
    stored name and aliases; a private declaration is seen by its author alone."""
    project, owner, coauthor = family["project"], family["owner"], family["coauthor"]
    assert (
        ingest(
            [
                {
                    "entry_id": f"{project}/clinic",
                    "project_id": project,
                    "author": owner,
                    "intimacy": "private",
                    "text": "Cita en la clínica.",
                    "persons": ["Evander Lusk"],
                }
            ]
        ).written
        == 1
    )
    secret = client.post(
        f"/v1/projects/{project}/entities",
        headers=auth(owner),
        json={"kind": "person", "name": "Evander Lusk", "aliases": ["vandy"], "audience": "private"},
    )
    assert secret.status_code == 200 and secret.json()["aliases"] == ["vandy"]
    probe = client.post(
        f"/v1/projects/{project}/entities", headers=auth(coauthor), json={"kind": "person", "name": "evander lusk"}
    )
    assert probe.status_code == 200 and probe.json()["name"] == "evander lusk" and probe.json()["aliases"] == []
    listed = {
        e["name"]: e["aliases"] for e in client.get(f"/v1/projects/{project}/entities", headers=auth(coauthor)).json()
    }
    assert listed.get("evander lusk") == [] and "Evander Lusk" not in listed
    written = client.post(
        "/v1/entries?wait=true",
        headers=auth(coauthor),
        json={"project_id": project, "intimacy": "private", "text": "vandy, evander lusk"},
    )
    got = client.get(f"/v1/entries/{written.json()['entry_id']}", headers=auth(coauthor)).json()
    assert got["read_only"]["linked"]["persons"] == ["evander lusk"], (
        "linked through the coauthor's own declaration, never the owner's"
    )
    assert (
        client.post(
            f"/v1/projects/{project}/entities",
            headers=auth(coauthor),
            json={"kind": "person", "name": "Nadie", "audience": "secret"},
        ).status_code
        == 422
    )
