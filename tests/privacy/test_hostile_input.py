"""Hostile input through the HTTP API, on the real Neo4j and embedder.

Lucene syntax, odd Unicode and oversize or malformed bodies must end in 200 or in a 422 that says why, never in a
500; Cypher fragments in any string field must be stored, read back and searched as the plain text they are, and
leave every other node of the graph untouched.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from api import auth
from api.app import Services, create_app
from api.ratelimit import UNLIMITED
from graph.db import Graph
from graph.ids import period_id
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor
from ingest.records import parse_line
from tests.conftest import CLEANUP

LEVELS = ("private", "intimate", "circle", "public")
KEYWORD = "zanahoria"

LUCENE_SPECIALS = ["+", "-", "&&", "||", "!", "(", ")", "{", "}", "[", "]", "^", '"', "~", "*", "?", ":", "\\", "/"]
# Every special character glued to the keyword, and the operators and wildcards Lucene would obey if not escaped.
WITH_KEYWORD = (
    [f"{c}{KEYWORD}" for c in LUCENE_SPECIALS]
    + [f"{KEYWORD}{c}" for c in LUCENE_SPECIALS]
    + [
        f"{KEYWORD} AND",
        f"OR {KEYWORD}",
        f"NOT {KEYWORD}",
        f"{KEYWORD} && secreta",
        f"{KEYWORD} || secreta",
        f'"{KEYWORD} secreta',
        f'{KEYWORD}" secreta"',
        f"title:{KEYWORD}",
        f"body:{KEYWORD}*",
        f"{KEYWORD}~2",
        f"{KEYWORD}^10",
        f"[{KEYWORD} TO zz]",
        f"{{{KEYWORD} TO zz}}",
        f"/{KEYWORD}.*/",
        f"{KEYWORD}\\",
        f"-{KEYWORD}",
        f"🥕 {KEYWORD} 🎉👨‍👩‍👧",
        f"זנהוריה {KEYWORD} زناهوريا",
        f"\u202e{KEYWORD}\u202c",
        f"{KEYWORD}\x00secreta",
        f"{KEYWORD} " * 1000,
    ]
)
WITHOUT_KEYWORD = LUCENE_SPECIALS + [
    "AND",
    "OR",
    "NOT",
    "AND OR NOT",
    '"',
    '"""',
    "'",
    "\\\\",
    "*",
    "?*",
    "*anahoria",
    "?anahoria",
    "~~",
    "()",
    "[]",
    "{}",
    "",
    "   ",
    "\x00",
    "\x00\x00\x00",
    "🥕",
    "שלום עליכם",
    "مرحبا",
    "\u200b",
    "a" * 10_000,
    "\ud800",
]
INJECTIONS = [
    'x"}) MATCH (n) DETACH DELETE n //',
    "x' OR 1=1 //",
    "$viewer_id",
    "{id: 'x'}",
    "x`) MATCH (n) SET n.pwned = true //",
    "x'}) WITH 1 AS a MATCH (u:User) SET u.pwned = true RETURN a //",
    'x\\"}) CALL db.clearQueryCaches() //',
]


@pytest.fixture(scope="module")
def world(graph: Graph, embedder: CheckedEmbedder) -> Iterator[dict[str, str]]:
    """One project (owner, coauthor, reader) with an entry per intimacy level, shared by the module's tests."""
    prefix = f"th{uuid.uuid4().hex[:10]}-"
    project = f"{prefix}p"
    users = {role: f"{prefix}{role}" for role in ("owner", "coauthor", "reader")}
    for role, user in users.items():
        set_member(graph, project, user, role)
    rows = [
        {
            "entry_id": f"{project}/{lvl}",
            "project_id": project,
            "author": users["owner"],
            "intimacy": lvl,
            "text": f"Zanahoria secreta {lvl}: la guardamos en el armario de Cádiz.",
        }
        for lvl in LEVELS
    ]
    report = Ingestor(graph, embedder).ingest([(i, parse_line(i, json.dumps(r))) for i, r in enumerate(rows, 1)])
    assert not report.errors
    yield {"prefix": prefix, "project": project, **users}
    graph.write(CLEANUP, {"prefix": prefix})


@pytest.fixture(scope="module")
def client(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> Iterator[TestClient]:
    """Rate limits off: the module sends about a hundred searches a second as one user (tests/api/test_rate_limits.py
    covers the limits)."""
    with TestClient(
        create_app(Services(settings.model_copy(update=UNLIMITED), graph=graph, embedder=embedder)),
        raise_server_exceptions=False,
    ) as c:
        yield c


def bearer(settings: Settings, user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {auth.issue(settings, user)}"}


def project_nodes(graph: Graph, project: str) -> set[str]:
    """Every node of the project but the generation steps (bookkeeping each write adds: `steps_naming`)."""
    rows = graph.read(
        "MATCH (n) WHERE (n.project_id = $p OR (n:Project AND n.id = $p) "
        "OR EXISTS { MATCH (n)-[:MEMBER_OF]->(:Project {id: $p}) }) AND NOT n:GenerationStep "
        "RETURN elementId(n) AS id",
        {"p": project},
    )
    return {r["id"] for r in rows}


def steps_naming(graph: Graph, project: str) -> dict[str, list[str] | None]:
    rows = graph.read(
        "MATCH (s:GenerationStep {project_id: $p}) RETURN elementId(s) AS id, s.entry_ids AS ids", {"p": project}
    )
    return {r["id"]: r["ids"] for r in rows}


def entry_nodes(graph: Graph, entry_id: str) -> set[str]:
    """The entry, its chunks, and the entities and chapter it links to: what writing it may add."""
    rows = graph.read(
        "MATCH (e:Entry {id: $id}) OPTIONAL MATCH (c:Chunk)-[:OF]->(e) "
        "OPTIONAL MATCH (e)-[:MENTIONS|IN_PERIOD]->(x) "
        "WITH e, collect(DISTINCT elementId(c)) + collect(DISTINCT elementId(x)) AS linked "
        "RETURN [elementId(e)] + linked AS ids",
        {"id": entry_id},
    )
    return set(rows[0]["ids"]) if rows else set()


def assert_reason(resp: Any) -> None:
    """A 422 must say what was wrong."""
    detail = resp.json().get("detail")
    assert detail, resp.text


# --- fulltext syntax and odd Unicode -------------------------------------------------------------------------------


@pytest.mark.parametrize("q", WITH_KEYWORD, ids=lambda q: ascii(q)[:40])
def test_lucene_syntax_around_a_word_still_finds_it(
    client: TestClient, settings: Settings, world: dict[str, str], q: str
) -> None:
    """Escaping turns every operator into plain text: the keyword is found, and only what the reader may see."""
    resp = client.post(
        "/v1/search",
        json={"q": q, "project_id": world["project"], "k": 20, "channels": ["fulltext"]},
        headers=bearer(settings, world["reader"]),
    )
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert {r["entry_id"] for r in body["results"]} == {f"{world['project']}/circle", f"{world['project']}/public"}
    assert body["total_candidates"] == 2 and body["source"] == "fulltext"


@pytest.mark.parametrize("channels", [None, ["fulltext"]], ids=["all-channels", "fulltext"])
@pytest.mark.parametrize("q", WITHOUT_KEYWORD, ids=lambda q: ascii(q)[:40])
def test_hostile_queries_answer_200_or_422_never_500(
    client: TestClient, settings: Settings, world: dict[str, str], q: str, channels: list[str] | None
) -> None:
    # ASCII-escaped JSON, so a lone surrogate travels as the client sent it ("\\ud800").
    body = json.dumps({"q": q, "project_id": world["project"], "k": 20, "channels": channels})
    resp = client.post(
        "/v1/search", content=body, headers={**bearer(settings, world["reader"]), "Content-Type": "application/json"}
    )
    assert resp.status_code in (200, 422), f"{resp.status_code}: {resp.text[:500]}"
    if resp.status_code == 422:
        assert_reason(resp)
        return
    body = resp.json()
    assert {r["intimacy_level"] for r in body["results"]} <= {"circle", "public"}
    assert body["total_candidates"] >= len(body["results"])


def test_query_length_limit_is_exact(client: TestClient, settings: Settings, world: dict[str, str]) -> None:
    headers = bearer(settings, world["reader"])
    fits = client.post("/v1/search", json={"q": "z" * 10_000, "project_id": world["project"]}, headers=headers)
    assert fits.status_code == 200, fits.text
    over = client.post("/v1/search", json={"q": "z" * 10_001, "project_id": world["project"]}, headers=headers)
    assert over.status_code == 422 and "q" in json.dumps(over.json()["detail"])


# --- validation ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"filters": {"intimacy_max": "secret"}}, "intimacy_max"),
        ({"filters": {"kinds": ["poem"]}}, "kinds"),
        ({"channels": ["telepathy"]}, "channels"),
        ({"rerank": "ultra"}, "rerank"),
        ({"filters": {"date_from": "2008-13-40"}}, "date_from"),
        ({"filters": {"date_to": "2008-02-30"}}, "date_to"),
        ({"filters": {"occurred_year": 0}}, "occurred_year"),
        ({"filters": {"occurred_year": 10_000}}, "occurred_year"),
        ({"k": 0}, "k"),
        ({"k": -1}, "k"),
        ({"k": 101}, "k"),
        ({"k": 10**30}, "k"),
        ({"k": 1.5}, "k"),
        ({"k": None}, "k"),
        ({"filters": {"viewer_id": "someone-else"}}, "viewer_id"),
        ({"filters": {"witness_period_id": "x"}}, "witness_period_id"),
        ({"viewer_id": "someone-else"}, "viewer_id"),
        ({"filters": "everything"}, "filters"),
        ({"project_id": "p" * 201}, "project_id"),
        ({"filters": {"persons": ["x"] * 101}}, "persons"),
        ({"q": ["a", "list"]}, "q"),
    ],
)
def test_invalid_search_fields_are_422(
    client: TestClient, settings: Settings, world: dict[str, str], change: dict[str, Any], where: str
) -> None:
    body = {"q": KEYWORD, "project_id": world["project"], **change}
    resp = client.post("/v1/search", json=body, headers=bearer(settings, world["owner"]))
    assert resp.status_code == 422, resp.text
    assert where in json.dumps(resp.json()["detail"])


@pytest.mark.parametrize(
    ("content", "statuses"),
    [
        (b"not json", {422}),
        (b"[1, 2, 3]", {422}),
        (b'{"q": "a"', {422}),
        (b"", {422}),
        # Starlette refuses bytes that are not UTF-8 before validation, with 400 and a reason: a client error
        # either way.
        (b'{"q": "\xff\xfe"}', {400, 422}),
    ],
    ids=["text", "array", "truncated", "empty", "invalid-utf8"],
)
def test_malformed_bodies_are_refused_with_a_reason(
    client: TestClient, settings: Settings, world: dict[str, str], content: bytes, statuses: set[int]
) -> None:
    resp = client.post(
        "/v1/search", content=content, headers={**bearer(settings, world["owner"]), "Content-Type": "application/json"}
    )
    assert resp.status_code in statuses, resp.text
    assert_reason(resp)


def _entry_count(graph: Graph, project: str) -> int:
    return int(graph.read("MATCH (e:Entry {project_id: $p}) RETURN count(e) AS n", {"p": project})[0]["n"])


@pytest.mark.parametrize(
    "change",
    [
        {"intimacy": "secret"},
        {"kind": "poem"},
        {"occurred_on": "2008-13-40"},
        {"occurred_on": "yesterday-ish"},
        {"text": ""},
        {"text": "a\x00b"},
        {"author": "someone-else"},
        {"persons": "Josep"},
        {"entry_id": "/leading"},
        {"entry_id": " leading-space"},
        {"entry_id": "new\nline"},
        {"title": "t" * 501},
        {"period": "\x00"},
    ],
    ids=lambda c: ascii(c)[:40],
)
def test_invalid_entries_are_422_and_write_nothing(
    client: TestClient, settings: Settings, graph: Graph, world: dict[str, str], change: dict[str, Any]
) -> None:
    before = project_nodes(graph, world["project"])
    body = {"project_id": world["project"], "text": "Zanahoria nueva", **change}
    resp = client.post("/v1/entries", json=body, headers=bearer(settings, world["owner"]))
    assert resp.status_code == 422, resp.text
    assert_reason(resp)
    assert project_nodes(graph, world["project"]) == before


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("members", {"user_id": "x", "role": "admin"}),
        ("members", {"user_id": "", "role": "reader"}),
        ("members", {"user_id": "new\nline", "role": "reader"}),
        ("members", {"user_id": "x", "role": "reader", "grant": "owner"}),
        ("entities", {"kind": "animal", "name": "Rufo"}),
        ("entities", {"kind": "person", "name": ""}),
        ("entities", {"kind": "person", "name": "Rufo", "id": "other-project/person/rufo"}),
        ("witnesses", {"period": "a", "period_id": "b"}),
        ("witnesses", {"period": "a", "ttl_days": 0}),
        ("witnesses", {"period": "a", "ttl_days": 10**9}),
    ],
)
def test_invalid_management_bodies_are_422(
    client: TestClient, settings: Settings, graph: Graph, world: dict[str, str], path: str, body: dict[str, Any]
) -> None:
    before = project_nodes(graph, world["project"])
    url = f"/v1/projects/{world['project']}/{path}"
    resp = (client.put if path == "members" else client.post)(url, json=body, headers=bearer(settings, world["owner"]))
    assert resp.status_code == 422, resp.text
    assert_reason(resp)
    assert project_nodes(graph, world["project"]) == before


def test_oversize_bodies_are_422_before_anything_runs(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, world: dict[str, str]
) -> None:
    small = settings.model_copy(update={"max_body_bytes": 2000})
    headers = bearer(settings, world["owner"])
    before = project_nodes(graph, world["project"])
    with TestClient(create_app(Services(small, graph=graph, embedder=embedder)), raise_server_exceptions=False) as c:
        fits = c.post(
            "/v1/search", json={"q": KEYWORD + " " + "y" * 1500, "project_id": world["project"]}, headers=headers
        )
        assert fits.status_code == 200, fits.text
        calls = [
            c.post(
                "/v1/search", json={"q": KEYWORD + " " + "y" * 3000, "project_id": world["project"]}, headers=headers
            ),
            c.post("/v1/entries", json={"project_id": world["project"], "text": "z" * 3000}, headers=headers),
            c.put(
                f"/v1/projects/{world['project']}/members",
                json={"user_id": "u" * 150, "role": "reader", "pad": "p" * 3000},
                headers=headers,
            ),
            c.post(f"/v1/w/{'t' * 10}/search", json={"q": "w" * 3000}),
        ]
    for resp in calls:
        assert resp.status_code == 422, resp.text
        assert_reason(resp)
        assert "2000" in json.dumps(resp.json()["detail"])
    assert project_nodes(graph, world["project"]) == before


# --- Cypher injection is inert -------------------------------------------------------------------------------------


@pytest.mark.parametrize("payload", INJECTIONS, ids=lambda p: ascii(p)[:30])
def test_injection_in_entry_fields_is_stored_and_searched_as_text(
    client: TestClient, settings: Settings, graph: Graph, world: dict[str, str], payload: str
) -> None:
    project, headers = world["project"], bearer(settings, world["owner"])
    marker = f"marca{uuid.uuid4().hex[:8]}"
    entry_id = f"{project}/{payload}"
    before, steps_before = project_nodes(graph, project), steps_naming(graph, project)
    made = client.post(
        "/v1/entries",
        headers=headers,
        json={
            "entry_id": entry_id,
            "project_id": project,
            "text": f"{marker} {payload}",
            "title": payload,
            "persons": [payload],
            "places": [payload],
            "tags": [payload],
            "period": payload,
            "intimacy": "circle",
        },
    )
    assert made.status_code == 201, made.text
    assert made.json()["entry_id"] == entry_id

    after = project_nodes(graph, project)
    assert before <= after, "no existing node of the project may disappear"
    assert after - before == entry_nodes(graph, entry_id), "only the entry and what it links to are new"
    new_steps = [ids for k, ids in steps_naming(graph, project).items() if k not in steps_before]
    assert new_steps and all(ids == [entry_id] for ids in new_steps), "its generation steps name it, as it is"

    got = client.get(f"/v1/entries/{quote(entry_id, safe='')}", headers=bearer(settings, world["reader"]))
    assert got.status_code == 200, got.text
    e = got.json()
    assert (e["text"], e["title"], e["persons"], e["places"], e["tags"]) == (
        f"{marker} {payload}",
        payload,
        [payload],
        [payload],
        [payload],
    )
    assert e["period"] == payload and e["read_only"]["period_id"] == period_id(project, payload)

    def found(q: str, **filters: Any) -> set[str]:
        resp = client.post(
            "/v1/search",
            headers=headers,
            json={"q": q, "project_id": project, "k": 50, "channels": ["fulltext"], "filters": filters},
        )
        assert resp.status_code == 200, resp.text
        return {r["entry_id"] for r in resp.json()["results"]}

    assert entry_id in found(payload)
    assert found(marker) == {entry_id}
    assert found(marker, persons=[payload]) == found(marker, places=[payload]) == {entry_id}
    assert found(marker, tags=[payload]) == found(marker, period_id=period_id(project, payload)) == {entry_id}
    assert found(marker, author_ids=[payload]) == found(marker, person_ids=[payload]) == set()

    updated = client.put(
        f"/v1/entries/{quote(entry_id, safe='')}",
        headers=headers,
        json={"text": f"{marker} otra vez {payload}", "title": f"{payload} 2", "tags": [payload, "$limit"]},
    )
    assert updated.status_code == 200 and updated.json()["status"] == "updated", updated.text
    again = client.get(f"/v1/entries/{quote(entry_id, safe='')}", headers=headers).json()
    assert (again["text"], again["title"], again["tags"]) == (
        f"{marker} otra vez {payload}",
        f"{payload} 2",
        [payload, "$limit"],
    )
    assert before <= project_nodes(graph, project)


@pytest.mark.parametrize("payload", INJECTIONS, ids=lambda p: ascii(p)[:30])
def test_injection_in_project_id_is_refused_and_creates_nothing(
    client: TestClient, settings: Settings, graph: Graph, world: dict[str, str], payload: str
) -> None:
    headers = bearer(settings, world["owner"])
    assert client.post("/v1/entries", json={"project_id": payload, "text": "x"}, headers=headers).status_code == 403
    assert client.post("/v1/search", json={"q": "x", "project_id": payload}, headers=headers).status_code == 403
    assert not graph.read("MATCH (p:Project {id: $id}) RETURN p", {"id": payload})


@pytest.mark.parametrize("payload", INJECTIONS, ids=lambda p: ascii(p)[:30])
def test_injection_in_search_filters_only_narrows(
    client: TestClient, settings: Settings, world: dict[str, str], payload: str
) -> None:
    """Names are matched as names (results really carry them) and ids as ids (a raw text is no id, so nothing)."""
    by_name = {"persons": "persons", "places": "places", "tags": "tags"}
    filters = {
        "persons": [payload],
        "places": [payload],
        "tags": [payload],
        "author_ids": [payload],
        "person_ids": [payload],
        "place_ids": [payload],
        "period_id": payload,
    }
    headers = bearer(settings, world["reader"])
    for name, value in filters.items():
        resp = client.post(
            "/v1/search",
            headers=headers,
            json={
                "q": f"{KEYWORD} {payload}",
                "project_id": world["project"],
                "k": 50,
                "filters": {name: value},
                "channels": ["fulltext", "structured"],
            },
        )
        assert resp.status_code == 200, resp.text
        results = resp.json()["results"]
        if name in by_name:
            assert all(payload in r[by_name[name]] for r in results), f"{name} filter let through other entries"
        else:
            assert results == [], f"no entry has the id {payload!r} in {name}"
        assert {r["intimacy_level"] for r in results} <= {"circle", "public"}
    plain = client.post("/v1/search", headers=headers, json={"q": payload, "project_id": world["project"], "k": 50})
    assert plain.status_code == 200
    assert {r["intimacy_level"] for r in plain.json()["results"]} <= {"circle", "public"}


@pytest.mark.parametrize("payload", INJECTIONS, ids=lambda p: ascii(p)[:30])
def test_injection_in_member_ids_and_entity_names_is_plain_text(
    client: TestClient, settings: Settings, graph: Graph, world: dict[str, str], payload: str
) -> None:
    project, owner = world["project"], bearer(settings, world["owner"])
    user_id = f"{world['prefix']}{payload}"
    before = project_nodes(graph, project)
    put = client.put(f"/v1/projects/{project}/members", json={"user_id": user_id, "role": "reader"}, headers=owner)
    assert put.status_code == 200 and put.json() == {"user_id": user_id, "role": "reader"}, put.text
    members = client.get(f"/v1/projects/{project}/members", headers=owner).json()
    assert {"user_id": user_id, "role": "reader"} in members
    after = project_nodes(graph, project)
    new_user = graph.read("MATCH (u:User {id: $id}) RETURN elementId(u) AS id", {"id": user_id})[0]["id"]
    assert before <= after and after - before == {new_user}

    as_member = client.post(
        "/v1/search", json={"q": KEYWORD, "project_id": project, "k": 50}, headers=bearer(settings, user_id)
    )
    assert as_member.status_code == 200
    assert {r["intimacy_level"] for r in as_member.json()["results"]} == {"circle", "public"}

    alias = f"{payload} alias"
    made = client.post(
        f"/v1/projects/{project}/entities", headers=owner, json={"kind": "thing", "name": payload, "aliases": [alias]}
    )
    assert made.status_code == 200, made.text
    job = made.json()["relink"]["job_id"]
    deadline = time.monotonic() + 120
    while client.get(f"/v1/projects/{project}/relink/{job}", headers=owner).json()["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, "the re-linking job did not finish"
        time.sleep(0.1)  # the next case counts the project's nodes: its entries must not be rewritten meanwhile
    listed = client.get(f"/v1/projects/{project}/entities", headers=bearer(settings, user_id)).json()
    assert {"name": payload, "aliases": [alias], "kind": "thing"}.items() <= next(
        e for e in listed if e["kind"] == "thing" and e["name"] == payload
    ).items()

    removed = client.delete(f"/v1/projects/{project}/members/{quote(user_id, safe='')}", headers=owner)
    assert removed.status_code == 204, removed.text
    assert (
        client.post(
            "/v1/search", json={"q": KEYWORD, "project_id": project}, headers=bearer(settings, user_id)
        ).status_code
        == 403
    )


@pytest.mark.parametrize("payload", INJECTIONS, ids=lambda p: ascii(p)[:30])
def test_injection_in_witness_links_is_401(client: TestClient, payload: str) -> None:
    token = quote(payload, safe="")
    for resp in (
        client.post(f"/v1/w/{token}/search", json={"q": KEYWORD}),
        client.get(f"/v1/w/{token}/entries/p/x"),
        client.post(f"/v1/w/{token}/entries", json={"text": "x"}),
    ):
        assert resp.status_code in (401, 404), resp.text


def test_no_injection_ever_ran(graph: Graph) -> None:
    """The payloads above try to SET a property on every node; none may carry it."""
    assert graph.read("MATCH (n) WHERE n.pwned IS NOT NULL RETURN count(n) AS n")[0]["n"] == 0
