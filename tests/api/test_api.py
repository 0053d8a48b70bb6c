"""The HTTP API through FastAPI's TestClient, on the real Neo4j and embedder: authentication, membership, validation,
entry CRUD with the 404-for-hidden rule, member management and hostile input."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import NOT_FOUND, Services, create_app
from api.auth import issue
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder

Headers = Callable[[str], dict[str, str]]


@pytest.fixture()
def app_for(graph: Graph, embedder: CheckedEmbedder) -> Callable[..., TestClient]:
    def build(cfg: Settings, **kwargs: Any) -> TestClient:
        return TestClient(create_app(Services(cfg, graph=graph, embedder=embedder)), **kwargs)

    return build


@pytest.fixture()
def client(app_for: Callable[..., TestClient], settings: Settings) -> Iterator[TestClient]:
    with app_for(settings) as c:
        yield c


@pytest.fixture()
def auth(settings: Settings) -> Headers:
    return lambda user_id: {"Authorization": f"Bearer {issue(settings, user_id)}"}


@pytest.fixture()
def crew(graph: Graph, prefix: str) -> dict[str, str]:
    """A project with one member per role and no entries (for checks that never reach the entries)."""
    project = f"{prefix}crew"
    users = {role: f"{prefix}crew-{role}" for role in ("owner", "coauthor", "reader")}
    for role, user in users.items():
        set_member(graph, project, user, role)
    return {"project": project, **users, "outsider": f"{prefix}crew-outsider"}


def search_body(project: str, q: str = "zanahoria", **extra: Any) -> dict[str, Any]:
    return {"q": q, "project_id": project, **extra}


def entry_count(graph: Graph, project: str) -> int:
    return int(graph.read("MATCH (e:Entry {project_id: $p}) RETURN count(e) AS n", {"p": project})[0]["n"])


# --- authentication ------------------------------------------------------------------------------------------------


def test_health_needs_no_token(client: TestClient) -> None:
    resp = client.get("/health")
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok", "neo4j": "up"}
    ready = client.get("/ready")
    assert ready.status_code == 200 and ready.json() == {"status": "ready", "neo4j": "up", "detail": None}


def bad_credentials(settings: Settings, user: str) -> dict[str, dict[str, str]]:
    return {
        "none": {},
        "garbage": {"Authorization": "Bearer garbage"},
        "empty": {"Authorization": "Bearer "},
        "other-secret": {"Authorization": f"Bearer {issue(settings.model_copy(update={'secret': 'other'}), user)}"},
        "expired": {"Authorization": f"Bearer {issue(settings, user, ttl_seconds=1, now=time.time() - 100)}"},
        "basic-scheme": {"Authorization": f"Basic {issue(settings, user)}"},
        "no-scheme": {"Authorization": issue(settings, user)},
    }


def test_requests_without_a_valid_token_are_401(
    client: TestClient, settings: Settings, graph: Graph, family: dict[str, str]
) -> None:
    entry = f"{family['project']}/owner-circle"
    for kind, headers in bad_credentials(settings, family["owner"]).items():
        calls = [
            client.post("/v1/search", json=search_body(family["project"]), headers=headers),
            client.get(f"/v1/entries/{entry}", headers=headers),
            client.put(f"/v1/entries/{entry}", json={"text": "hackeado"}, headers=headers),
            client.delete(f"/v1/entries/{entry}", headers=headers),
            client.post("/v1/entries", json={"project_id": family["project"], "text": "x"}, headers=headers),
            client.get("/v1/projects", headers=headers),
            client.get(f"/v1/projects/{family['project']}/members", headers=headers),
            client.put(
                f"/v1/projects/{family['project']}/members", json={"user_id": "x", "role": "owner"}, headers=headers
            ),
        ]
        for resp in calls:
            assert resp.status_code == 401, (kind, resp.request.method, resp.request.url, resp.text)
            assert resp.headers.get("www-authenticate") == "Bearer"
            assert "zanahoria" not in resp.text.lower()
    assert entry_count(graph, family["project"]) == 8
    assert (
        client.get(f"/v1/entries/{entry}", headers={"Authorization": f"Bearer {issue(settings, family['owner'])}"})
        .json()["text"]
        .startswith("Zanahoria")
    ), "nothing was changed"


def test_valid_token_is_accepted(client: TestClient, auth: Headers, crew: dict[str, str]) -> None:
    resp = client.get("/v1/projects", headers=auth(crew["reader"]))
    assert resp.status_code == 200
    assert resp.json() == [{"project_id": crew["project"], "name": crew["project"], "role": "reader"}]


def test_non_ascii_token_is_401(app_for: Callable[..., TestClient], settings: Settings) -> None:
    with app_for(settings, raise_server_exceptions=False) as c:
        resp = c.get("/v1/projects", headers={"Authorization": "Bearer mem1.e30.\u00e9".encode("latin-1")})
    assert resp.status_code == 401


# --- search: membership, validation, shape -------------------------------------------------------------------------


def test_search_outside_membership_is_403(client: TestClient, auth: Headers, crew: dict[str, str], prefix: str) -> None:
    existing = client.post("/v1/search", json=search_body(crew["project"]), headers=auth(crew["outsider"]))
    missing = client.post("/v1/search", json=search_body(f"{prefix}nowhere"), headers=auth(crew["outsider"]))
    assert existing.status_code == missing.status_code == 403
    assert existing.json() == missing.json(), "a project one cannot enter looks the same whether or not it exists"
    multi = client.post(
        "/v1/search", json=search_body(crew["project"], multi_project=True), headers=auth(crew["outsider"])
    )
    assert multi.status_code == 403


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"k": 0}, "k"),
        ({"k": 1000}, "k"),
        ({"k": "ten"}, "k"),
        ({"filters": {"unknown_key": 1}}, "unknown_key"),
        ({"filters": {"intimacy_max": "secret"}}, "intimacy_max"),
        ({"filters": {"date_from": "2008-13-40"}}, "date_from"),
        ({"filters": {"date_from": "2008-07-02", "date_to": "2008-07-01"}}, "filters"),
        ({"filters": {"kinds": ["novel"]}}, "kinds"),
        ({"channels": ["telepathy"]}, "channels"),
        ({"q": "x" * 10_001}, "q"),
        ({"q": None}, "q"),
        ({"surprise": True}, "surprise"),
    ],
)
def test_invalid_search_requests_are_422(
    client: TestClient, auth: Headers, crew: dict[str, str], change: dict[str, Any], where: str
) -> None:
    body = {**search_body(crew["project"]), **change}
    resp = client.post("/v1/search", json=body, headers=auth(crew["owner"]))
    assert resp.status_code == 422, resp.text
    assert where in json.dumps(resp.json()["detail"])


def test_limits_are_inclusive(client: TestClient, auth: Headers, crew: dict[str, str]) -> None:
    for change in ({"k": 1}, {"k": 100}, {"q": "zanahoria " + "x" * 9_990}):
        resp = client.post("/v1/search", json={**search_body(crew["project"]), **change}, headers=auth(crew["owner"]))
        assert resp.status_code == 200, (change, resp.text)


def test_body_over_the_limit_is_422(
    app_for: Callable[..., TestClient], settings: Settings, auth: Headers, graph: Graph, crew: dict[str, str]
) -> None:
    small = settings.model_copy(update={"max_body_bytes": 2_000})
    with app_for(small) as c:
        fits = c.post(
            "/v1/search", json=search_body(crew["project"], q="zanahoria " + "y" * 1_500), headers=auth(crew["owner"])
        )
        assert fits.status_code == 200
        over = c.post(
            "/v1/search", json=search_body(crew["project"], q="zanahoria " + "y" * 3_000), headers=auth(crew["owner"])
        )
        assert over.status_code == 422
        assert "2000" in over.json()["detail"][0]["msg"]
        entry = c.post(
            "/v1/entries", json={"project_id": crew["project"], "text": "z" * 5_000}, headers=auth(crew["owner"])
        )
        assert entry.status_code == 422
    assert entry_count(graph, crew["project"]) == 0


def test_chunked_body_over_the_limit_is_422(
    app_for: Callable[..., TestClient], settings: Settings, auth: Headers, crew: dict[str, str]
) -> None:
    small = settings.model_copy(update={"max_body_bytes": 2_000})
    payload = json.dumps(search_body(crew["project"], q="zanahoria " + "y" * 3_000)).encode()

    def stream() -> Iterator[bytes]:
        for i in range(0, len(payload), 500):
            yield payload[i : i + 500]

    with app_for(small) as c:
        resp = c.post(
            "/v1/search", content=stream(), headers={**auth(crew["owner"]), "Content-Type": "application/json"}
        )
    assert resp.status_code == 422


def test_search_response_shape(client: TestClient, auth: Headers, family: dict[str, str]) -> None:
    resp = client.post(
        "/v1/search", json=search_body(family["project"], q="zanahoria Cádiz", k=3), headers=auth(family["reader"])
    )
    assert resp.status_code == 200
    body = resp.json()
    assert len(body["results"]) == 3
    assert body["total_candidates"] == 4, "the reader's candidates are the 4 circle and public entries"
    assert "total" in body["latency_ms"] and body["latency_ms"]["total"] >= 0
    assert body["query_understanding"] is None, "explain is opt-in"
    for r in body["results"]:
        assert r["entry_id"].startswith(family["project"] + "/")
        assert r["intimacy_level"] in ("circle", "public")
        assert isinstance(r["score"], float) and r["score"] > 0
        assert r["score_breakdown"] and all("rank" in v for v in r["score_breakdown"].values())
        assert "**" in r["snippet_md"]
    explained = client.post(
        "/v1/search", json=search_body(family["project"], explain=True), headers=auth(family["reader"])
    ).json()
    assert isinstance(explained["query_understanding"], dict)


def test_search_filters_through_the_api(client: TestClient, auth: Headers, family: dict[str, str]) -> None:
    def found(filters: dict[str, Any], user: str = "owner") -> set[str]:
        resp = client.post(
            "/v1/search", json=search_body(family["project"], k=50, filters=filters), headers=auth(family[user])
        )
        assert resp.status_code == 200, resp.text
        return {r["entry_id"].rsplit("/", 1)[1] for r in resp.json()["results"]}

    assert found({"intimacy_max": "circle"}) == {"owner-circle", "other-circle", "owner-public", "other-public"}
    assert found({"author_ids": [family["other"]]}) == {"other-intimate", "other-circle", "other-public"}
    assert found({"occurred_year": 2008}) == found({})
    assert found({"occurred_year": 2009}) == set()
    assert found({"date_from": "2008-07-12", "date_to": "2008-07-12"}, "reader") == {
        "owner-circle",
        "other-circle",
        "owner-public",
        "other-public",
    }


def test_cypher_injection_text_is_inert(
    client: TestClient, auth: Headers, graph: Graph, family: dict[str, str]
) -> None:
    evil = '"}) MATCH (n) DETACH DELETE n //'
    bodies = [
        search_body(family["project"], q=evil),
        search_body(family["project"], q=f"zanahoria {evil}"),
        search_body(
            family["project"],
            q=evil,
            filters={
                "persons": [evil],
                "places": [evil],
                "tags": [evil],
                "author_ids": [evil],
                "period_id": evil,
                "person_ids": [evil],
            },
        ),
    ]
    for body in bodies:
        resp = client.post("/v1/search", json=body, headers=auth(family["owner"]))
        assert resp.status_code == 200, resp.text
    hostile_project = client.post(
        "/v1/search", json=search_body("x'}) MATCH (n) DETACH DELETE n //"), headers=auth(family["owner"])
    )
    assert hostile_project.status_code == 403
    assert client.get(f"/v1/entries/{evil}", headers=auth(family["owner"])).status_code == 404
    assert entry_count(graph, family["project"]) == 8
    assert graph.read("MATCH (u:User {id: $id}) RETURN u.id", {"id": family["owner"]})


# --- entries -------------------------------------------------------------------------------------------------------


def test_coauthor_creates_an_entry_and_reads_it_back(
    client: TestClient, auth: Headers, graph: Graph, family: dict[str, str]
) -> None:
    body = {
        "project_id": family["project"],
        "text": "Plantamos un limonero en el patio.",
        "intimacy": "intimate",
        "occurred_on": "2011-04",
        "persons": ["Josep"],
        "tags": ["jardín"],
    }
    resp = client.post("/v1/entries?wait=true", json=body, headers=auth(family["coauthor"]))
    assert resp.status_code == 201, resp.text
    created = resp.json()
    assert created["status"] == "created" and created["embedding"] == "done"
    entry_id = created["entry_id"]
    assert entry_id.startswith(family["project"] + "/")

    got = client.get(f"/v1/entries/{entry_id}", headers=auth(family["coauthor"]))
    assert got.status_code == 200
    entry = got.json()
    assert entry["text"] == body["text"] and entry["author"] == family["coauthor"]
    assert entry["intimacy"] == "intimate" and entry["persons"] == ["Josep"] and entry["tags"] == ["jardín"]
    assert entry["occurred_on"] == "2011-04", "a vague date comes back as written"
    assert entry["read_only"]["occurred"] == {"start": "2011-04-01", "end": "2011-04-30", "precision": "month"}
    assert entry["read_only"]["embedding"] == "done"
    assert client.get(f"/v1/entries/{entry_id}", headers=auth(family["owner"])).status_code == 200
    assert client.get(f"/v1/entries/{entry_id}", headers=auth(family["reader"])).status_code == 404, "intimate"
    again = client.post("/v1/entries", json={**body, "entry_id": entry_id}, headers=auth(family["coauthor"]))
    assert again.status_code == 409
    assert entry_count(graph, family["project"]) == 9


def test_explicit_entry_id_is_kept(client: TestClient, auth: Headers, family: dict[str, str]) -> None:
    entry_id = f"{family['project']}/mine-1"
    resp = client.post(
        "/v1/entries",
        json={"project_id": family["project"], "entry_id": entry_id, "text": "Hola."},
        headers=auth(family["owner"]),
    )
    assert resp.status_code == 201 and resp.json()["entry_id"] == entry_id
    assert client.get(f"/v1/entries/{entry_id}", headers=auth(family["reader"])).json()["text"] == "Hola."


@pytest.mark.parametrize("who", ["reader", "outsider"])
def test_only_writers_create_entries(
    client: TestClient, auth: Headers, graph: Graph, crew: dict[str, str], who: str
) -> None:
    resp = client.post(
        "/v1/entries", json={"project_id": crew["project"], "text": "No debería existir."}, headers=auth(crew[who])
    )
    assert resp.status_code == 403
    assert entry_count(graph, crew["project"]) == 0


@pytest.mark.parametrize(
    "change",
    [
        {"intimacy": "secret"},
        {"occurred_on": "2008-13-40"},
        {"text": ""},
        {"kind": "novel"},
        {"author": "someone"},
        {"entry_id": "/starts-with-slash"},
    ],
)
def test_invalid_entries_are_422_and_not_written(
    client: TestClient, auth: Headers, graph: Graph, crew: dict[str, str], change: dict[str, Any]
) -> None:
    body = {"project_id": crew["project"], "text": "Texto válido.", **change}
    resp = client.post("/v1/entries", json=body, headers=auth(crew["owner"]))
    assert resp.status_code == 422, resp.text
    assert entry_count(graph, crew["project"]) == 0


def test_hidden_entry_is_indistinguishable_from_a_missing_one(
    client: TestClient, auth: Headers, family: dict[str, str], prefix: str
) -> None:
    private = f"{family['project']}/owner-private"
    for who in ("coauthor", "reader", "other", "outsider"):
        hidden = client.get(f"/v1/entries/{private}", headers=auth(family[who]))
        missing = client.get(f"/v1/entries/{family['project']}/no-such-{prefix}", headers=auth(family[who]))
        assert hidden.status_code == missing.status_code == 404
        assert hidden.json() == missing.json() == {"detail": NOT_FOUND}
        assert hidden.content == missing.content
        put = client.put(f"/v1/entries/{private}", json={"text": "x"}, headers=auth(family[who]))
        assert put.status_code == 404 and put.json() == {"detail": NOT_FOUND}
        delete = client.delete(f"/v1/entries/{private}", headers=auth(family[who]))
        assert delete.status_code == 404 and delete.json() == {"detail": NOT_FOUND}
    own = client.get(f"/v1/entries/{private}", headers=auth(family["owner"]))
    assert own.status_code == 200 and "private" in own.json()["text"]


def test_only_the_author_or_owner_edits(client: TestClient, auth: Headers, family: dict[str, str]) -> None:
    entry = f"{family['project']}/other-circle"
    update = {"text": "Texto corregido por su autor.", "intimacy": "circle", "persons": ["Josep"]}
    denied = client.put(f"/v1/entries/{entry}", json=update, headers=auth(family["coauthor"]))
    assert denied.status_code == 403
    assert client.put(f"/v1/entries/{entry}", json=update, headers=auth(family["reader"])).status_code == 403
    before = client.get(f"/v1/entries/{entry}", headers=auth(family["reader"])).json()
    assert "Zanahoria" in before["text"]

    ok = client.put(f"/v1/entries/{entry}", json=update, headers=auth(family["other"]))
    assert ok.status_code == 200 and ok.json()["status"] == "updated"
    after = client.get(f"/v1/entries/{entry}", headers=auth(family["reader"])).json()
    assert after["text"] == update["text"] and after["author"] == family["other"]
    same = client.put(f"/v1/entries/{entry}", json=update, headers=auth(family["other"]))
    assert same.status_code == 200 and same.json()["status"] == "unchanged"
    moved = client.put(
        f"/v1/entries/{entry}", json={**update, "project_id": "elsewhere"}, headers=auth(family["other"])
    )
    assert moved.status_code == 422


def test_narrowing_intimacy_hides_the_entry_at_once(client: TestClient, auth: Headers, family: dict[str, str]) -> None:
    entry = f"{family['project']}/other-public"
    resp = client.put(
        f"/v1/entries/{entry}", json={"text": "Ahora es privado.", "intimacy": "private"}, headers=auth(family["other"])
    )
    assert resp.status_code == 200
    assert client.get(f"/v1/entries/{entry}", headers=auth(family["owner"])).status_code == 404
    found = client.post(
        "/v1/search", json=search_body(family["project"], q="ahora es privado", k=50), headers=auth(family["owner"])
    ).json()
    assert entry not in {r["entry_id"] for r in found["results"]}


def test_author_deletes_and_the_entry_is_gone(
    client: TestClient, auth: Headers, graph: Graph, family: dict[str, str]
) -> None:
    created = client.post(
        "/v1/entries",
        json={"project_id": family["project"], "text": "El ornitorrinco del zoo nos miró fijamente."},
        headers=auth(family["coauthor"]),
    ).json()
    entry = created["entry_id"]

    def hits() -> set[str]:
        resp = client.post(
            "/v1/search", json=search_body(family["project"], q="ornitorrinco", k=50), headers=auth(family["reader"])
        )
        assert resp.status_code == 200
        return {r["entry_id"] for r in resp.json()["results"]}

    assert entry in hits()
    assert client.delete(f"/v1/entries/{entry}", headers=auth(family["reader"])).status_code == 403
    assert client.delete(f"/v1/entries/{entry}", headers=auth(family["other"])).status_code == 403
    gone = client.delete(f"/v1/entries/{entry}", headers=auth(family["coauthor"]))
    assert gone.status_code == 200 and gone.json() == {"entry_id": entry, "status": "deleted", "embedding": "n/a"}
    assert client.get(f"/v1/entries/{entry}", headers=auth(family["coauthor"])).status_code == 404
    assert entry not in hits()
    assert not graph.read("MATCH (c:Chunk) WHERE c.entry_id = $id RETURN c", {"id": entry}), "chunks go too"
    assert client.delete(f"/v1/entries/{entry}", headers=auth(family["coauthor"])).status_code == 404


# --- members -------------------------------------------------------------------------------------------------------


def test_owner_manages_members(client: TestClient, auth: Headers, family: dict[str, str], prefix: str) -> None:
    project, newbie = family["project"], f"{prefix}newbie"
    before = client.post("/v1/search", json=search_body(project), headers=auth(newbie))
    assert before.status_code == 403

    added = client.put(
        f"/v1/projects/{project}/members", json={"user_id": newbie, "role": "reader"}, headers=auth(family["owner"])
    )
    assert added.status_code == 200 and added.json() == {"user_id": newbie, "role": "reader"}
    resp = client.post("/v1/search", json=search_body(project, k=50), headers=auth(newbie))
    assert resp.status_code == 200
    assert {r["intimacy_level"] for r in resp.json()["results"]} == {"circle", "public"}
    members = client.get(f"/v1/projects/{project}/members", headers=auth(newbie)).json()
    assert {"user_id": newbie, "role": "reader"} in members and len(members) == 5
    write = client.post("/v1/entries", json={"project_id": project, "text": "x"}, headers=auth(newbie))
    assert write.status_code == 403

    promoted = client.put(
        f"/v1/projects/{project}/members", json={"user_id": newbie, "role": "coauthor"}, headers=auth(family["owner"])
    )
    assert promoted.status_code == 200
    assert (
        client.post(
            "/v1/entries", json={"project_id": project, "text": "Ya puedo escribir."}, headers=auth(newbie)
        ).status_code
        == 201
    )

    removed = client.delete(f"/v1/projects/{project}/members/{newbie}", headers=auth(family["owner"]))
    assert removed.status_code == 204
    assert client.post("/v1/search", json=search_body(project), headers=auth(newbie)).status_code == 403
    assert client.delete(f"/v1/projects/{project}/members/{newbie}", headers=auth(family["owner"])).status_code == 404


@pytest.mark.parametrize("who", ["coauthor", "reader", "outsider"])
def test_non_owners_cannot_manage_members(client: TestClient, auth: Headers, crew: dict[str, str], who: str) -> None:
    project = crew["project"]
    promote = client.put(
        f"/v1/projects/{project}/members", json={"user_id": crew[who], "role": "owner"}, headers=auth(crew[who])
    )
    assert promote.status_code == 403
    remove = client.delete(f"/v1/projects/{project}/members/{crew['owner']}", headers=auth(crew[who]))
    assert remove.status_code == 403
    roles = {
        m["user_id"]: m["role"]
        for m in client.get(f"/v1/projects/{project}/members", headers=auth(crew["owner"])).json()
    }
    assert roles[crew["owner"]] == "owner"
    assert roles.get(crew[who]) in (None, "coauthor", "reader") and roles.get(crew[who]) != "owner"


@pytest.mark.parametrize(
    "body",
    [
        {"user_id": "x", "role": "admin"},
        {"user_id": "", "role": "reader"},
        {"user_id": "x"},
        {"user_id": "x", "role": "reader", "extra": 1},
    ],
)
def test_invalid_member_bodies_are_422(
    client: TestClient, auth: Headers, crew: dict[str, str], body: dict[str, Any]
) -> None:
    resp = client.put(f"/v1/projects/{crew['project']}/members", json=body, headers=auth(crew["owner"]))
    assert resp.status_code == 422


def test_outsider_cannot_list_members(client: TestClient, auth: Headers, crew: dict[str, str]) -> None:
    assert client.get(f"/v1/projects/{crew['project']}/members", headers=auth(crew["outsider"])).status_code == 403


def test_a_role_refusal_reads_the_same_wherever_the_check_runs(
    client: TestClient, auth: Headers, crew: dict[str, str]
) -> None:
    """The role checks are the actions' (`api.actions.roles`), refused with `NotAllowed` whether they run in a path
    route's dependency (`ProjectMember`, `ProjectOwner`), on a route's first line or in an action the route runs:
    each is the API's 403 with the check's own sentence."""
    p, outsider, reader = crew["project"], crew["outsider"], crew["reader"]
    member = "not a member of this project"
    writer = "only the project's owner and coauthors can write to it"
    owner = "only the project's owner may do this (members, project settings, witnesses, export)"
    chapter = {"project_id": p, "theme": "Cádiz"}
    asked: list[tuple[str, str, str, dict[str, Any] | None, str]] = [
        ("get", f"/v1/projects/{p}/members", outsider, None, member),
        ("get", f"/v1/projects/{p}/summary", outsider, None, member),
        ("get", f"/v1/projects/{p}/entities", outsider, None, member),
        ("get", f"/v1/projects/{p}/entries", outsider, None, member),
        ("get", f"/v1/projects/{p}/analytics/importance", outsider, None, member),
        ("post", "/v1/context/chapter", outsider, chapter, member),
        ("post", "/v1/chapters/draft", outsider, chapter, member),
        ("post", "/v1/context/live", outsider, {"project_id": p, "transcript": "Cádiz"}, member),
        ("get", f"/v1/projects/{p}/entities/candidates", reader, None, writer),
        ("post", f"/v1/projects/{p}/entities", reader, {"kind": "person", "name": "Pep"}, writer),
        ("get", f"/v1/projects/{p}/witnesses", reader, None, owner),
        ("get", f"/v1/projects/{p}/export", reader, None, owner),
    ]
    for method, path, user, body, sentence in asked:
        resp = client.request(method, path, json=body, headers=auth(user))
        assert (resp.status_code, resp.json()) == (403, {"detail": sentence}), (method, path)
