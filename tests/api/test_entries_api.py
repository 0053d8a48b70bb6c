"""Entries as an integrator uses them: what GET gives can be PUT back unchanged, PATCH changes only what
it names, metadata and conversations travel over HTTP like in files, vague dates come back as written, a project's
entries can be listed (filters, date order, cursor pages) without a hidden entry ever showing or moving a page, and
`memora entries` / `memora ingest` agree with the API (re-ingest skips what the API changed, unless --overwrite)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import Services, create_app
from api.auth import issue
from api.cli import main
from api.ratelimit import UNLIMITED
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from ingest.records import ENTRY_ID_PATTERN

Headers = Callable[[str], dict[str, str]]
Ingest = Callable[..., IngestReport]


@pytest.fixture()
def client(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> Iterator[TestClient]:
    unlimited = settings.model_copy(update=UNLIMITED)
    with TestClient(create_app(Services(unlimited, graph=graph, embedder=embedder))) as c:
        yield c


@pytest.fixture()
def auth(settings: Settings) -> Headers:
    return lambda user_id: {"Authorization": f"Bearer {issue(settings, user_id)}"}


def _record(project: str, name: str, **fields: Any) -> dict[str, Any]:
    return {"entry_id": f"{project}/{name}", "project_id": project, **fields}


def _without_read_only(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "read_only"}


# --- one shape: GET → PUT --------------------------------------------------------------------------------------------


def test_what_get_returns_can_be_put_back_unchanged(
    client: TestClient, auth: Headers, ingest: Ingest, family: dict[str, str]
) -> None:
    project, owner = family["project"], family["owner"]
    assert (
        ingest(
            [
                _record(
                    project,
                    "full",
                    author=owner,
                    text="Verano en Cádiz con papá y Marta.",
                    title="Cádiz",
                    occurred_on="2019-08",
                    persons=["Josep"],
                    places=["Cádiz"],
                    tags=["viaje", "playa"],
                    intimacy="intimate",
                    kind="chronicle",
                    period="Los veranos",
                    mood="feliz",
                    weather={"sky": "clear", "temp": 31},
                )
            ]
        ).written
        == 1
    )
    entry_id = f"{project}/full"
    got = client.get(f"/v1/entries/{entry_id}", headers=auth(owner))
    assert got.status_code == 200
    body = got.json()
    assert (body["intimacy"], body["period"], body["occurred_on"], body["author"]) == (
        "intimate",
        "Los veranos",
        "2019-08",
        owner,
    )
    assert body["mood"] == "feliz" and body["weather"] == {"sky": "clear", "temp": 31}, "metadata is returned"
    assert body["read_only"]["occurred"] == {"start": "2019-08-01", "end": "2019-08-31", "precision": "month"}
    assert body["read_only"]["written_by"] == "file"
    assert not {"intimacy_level", "periods", "author_id", "embedding_pending"} & body.keys()

    put = client.put(f"/v1/entries/{entry_id}", json=body, headers=auth(owner))
    assert put.status_code == 200, put.text
    assert put.json()["status"] == "unchanged"
    again = client.get(f"/v1/entries/{entry_id}", headers=auth(owner)).json()
    assert again == body, "nothing changed, not even updated_at or where it was written from"


def test_put_is_a_full_replace_but_never_opens_an_entry(
    client: TestClient, auth: Headers, ingest: Ingest, family: dict[str, str]
) -> None:
    project, owner = family["project"], family["owner"]
    ingest(
        [
            _record(
                project,
                "r",
                author=owner,
                text="Antes.",
                title="T",
                occurred_on="2019",
                persons=["Josep"],
                tags=["x"],
                intimacy="private",
                period="P",
                mood="gris",
            )
        ]
    )
    resp = client.put(f"/v1/entries/{project}/r", json={"text": "Después."}, headers=auth(owner))
    assert resp.status_code == 200 and resp.json()["status"] == "updated"
    body = client.get(f"/v1/entries/{project}/r", headers=auth(owner)).json()
    assert _without_read_only(body) == {
        "entry_id": f"{project}/r",
        "project_id": project,
        "text": "Después.",
        "author": owner,
        "title": None,
        "occurred_on": None,
        "occurred_at": None,
        "persons": [],
        "places": [],
        "tags": [],
        "intimacy": "private",
        "kind": "diary",
        "period": None,
        "turn": None,
    }
    assert body["read_only"]["written_by"] == "api"


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"entry_id": "other/x"}, "entry_id"),
        ({"project_id": "elsewhere"}, "project_id"),
        ({"author": "someone-else"}, "author"),
    ],
)
def test_identity_fields_may_be_sent_back_but_not_changed(
    client: TestClient, auth: Headers, family: dict[str, str], change: dict[str, str], where: str
) -> None:
    entry_id = f"{family['project']}/owner-circle"
    body = client.get(f"/v1/entries/{entry_id}", headers=auth(family["owner"])).json()
    for method in ("put", "patch"):
        resp = client.request(method, f"/v1/entries/{entry_id}", json={**body, **change}, headers=auth(family["owner"]))
        assert resp.status_code == 422 and where in json.dumps(resp.json()), (method, resp.text)
    assert client.get(f"/v1/entries/{entry_id}", headers=auth(family["owner"])).json() == body


# --- PATCH -----------------------------------------------------------------------------------------------------------


def test_patch_keeps_what_it_does_not_name_and_null_clears(
    client: TestClient, auth: Headers, ingest: Ingest, family: dict[str, str]
) -> None:
    project, owner = family["project"], family["owner"]
    ingest(
        [
            _record(
                project,
                "p",
                author=owner,
                text="Texto.",
                title="Título",
                occurred_on="2019-08-14",
                persons=["Josep"],
                places=["Cádiz"],
                tags=["t"],
                intimacy="intimate",
                period="Cap",
                mood="feliz",
                weather={"sky": "clear", "temp": 31},
            )
        ]
    )
    url, headers = f"/v1/entries/{project}/p", auth(owner)
    before = client.get(url, headers=headers).json()
    resp = client.patch(url, json={"text": "Texto corregido."}, headers=headers)
    assert resp.status_code == 200 and resp.json()["status"] == "updated"
    after = client.get(url, headers=headers).json()
    assert _without_read_only(after) == {**_without_read_only(before), "text": "Texto corregido."}

    merged = client.patch(
        url,
        headers={**headers, "Content-Type": "application/merge-patch+json"},
        content=json.dumps({"title": None, "tags": None, "mood": None, "weather": {"temp": None}, "energy": 3}),
    )
    assert merged.status_code == 200, merged.text
    body = client.get(url, headers=headers).json()
    assert (body["title"], body["tags"], body["weather"], body["energy"]) == (None, [], {"sky": "clear"}, 3)
    assert "mood" not in body
    assert (body["occurred_on"], body["persons"], body["intimacy"], body["period"]) == (
        "2019-08-14",
        ["Josep"],
        "intimate",
        "Cap",
    )
    for cleared in ("text", "intimacy", "kind"):
        refused = client.patch(url, json={cleared: None}, headers=headers)
        assert refused.status_code == 422 and cleared in refused.text
    assert client.patch(url, json={"occurred_on": "2019-13"}, headers=headers).status_code == 422
    assert client.get(url, headers=headers).json() == body, "refused patches change nothing"


def test_patch_follows_the_same_rules_as_put(client: TestClient, auth: Headers, family: dict[str, str]) -> None:
    """Hidden is 404, a reader or another coauthor is 403, and narrowing hides the entry at once."""
    project = family["project"]
    private = f"{project}/owner-private"
    for who in ("coauthor", "reader", "outsider"):
        resp = client.patch(f"/v1/entries/{private}", json={"text": "x"}, headers=auth(family[who]))
        assert resp.status_code == 404 and resp.json() == {"detail": "entry not found"}
    other = f"{project}/other-circle"
    assert client.patch(f"/v1/entries/{other}", json={"text": "x"}, headers=auth(family["coauthor"])).status_code == 403
    assert (
        client.patch(f"/v1/entries/{other}", json={"intimacy": "private"}, headers=auth(family["other"])).status_code
        == 200
    )
    assert client.get(f"/v1/entries/{other}", headers=auth(family["reader"])).status_code == 404


# --- metadata, conversations and dates over HTTP ---------------------------------------------------------------------


def test_metadata_round_trips_through_post_and_put(
    client: TestClient, auth: Headers, graph: Graph, family: dict[str, str]
) -> None:
    project, coauthor = family["project"], family["coauthor"]
    made = client.post(
        "/v1/entries",
        headers=auth(coauthor),
        json={
            "project_id": project,
            "entry_id": f"{project}/m",
            "text": "Con metadatos.",
            "mood": "tranquila",
            "session": 4,
            "source": {"app": "diario", "v": [1, 2]},
        },
    )
    assert made.status_code == 201, made.text
    body = client.get(f"/v1/entries/{project}/m", headers=auth(coauthor)).json()
    assert (body["mood"], body["session"], body["source"]) == ("tranquila", 4, {"app": "diario", "v": [1, 2]})
    stored = graph.read("MATCH (e:Entry {id: $id}) RETURN e.metadata AS m", {"id": f"{project}/m"})[0]["m"]
    assert json.loads(stored) == {"mood": "tranquila", "session": 4, "source": {"app": "diario", "v": [1, 2]}}, (
        "stored exactly as ingest stores a file's extra fields"
    )
    replaced = {k: v for k, v in body.items() if k != "mood"}
    assert client.put(f"/v1/entries/{project}/m", json=replaced, headers=auth(coauthor)).status_code == 200
    assert "mood" not in client.get(f"/v1/entries/{project}/m", headers=auth(coauthor)).json(), "PUT replaces"
    too_many = {f"k{i}": i for i in range(51)}
    assert (
        client.post(
            "/v1/entries", headers=auth(coauthor), json={"project_id": project, "text": "x", **too_many}
        ).status_code
        == 422
    )


def test_a_conversation_recorded_over_http_is_threaded(
    client: TestClient, auth: Headers, graph: Graph, family: dict[str, str]
) -> None:
    """Turns posted out of order (the reply first) are still linked in `turn` order once both are written."""
    project, owner, other = family["project"], family["owner"], family["other"]
    at = "2023-05-08T13:56"
    reply = client.post(
        "/v1/entries",
        headers=auth(other),
        json={
            "project_id": project,
            "entry_id": f"{project}/s2",
            "kind": "session",
            "occurred_at": at,
            "turn": 2,
            "text": "¡Sí, fue precioso!",
        },
    )
    first = client.post(
        "/v1/entries",
        headers=auth(owner),
        json={
            "project_id": project,
            "entry_id": f"{project}/s1",
            "kind": "session",
            "occurred_at": at,
            "turn": 1,
            "text": "¿Te acuerdas del concierto de la catedral?",
        },
    )
    assert reply.status_code == first.status_code == 201
    row = graph.read(
        "MATCH (a:Entry)-[:NEXT]->(b:Entry {id: $id}) RETURN a.id AS prev, b.context AS context",
        {"id": f"{project}/s2"},
    )
    assert [r["prev"] for r in row] == [f"{project}/s1"]
    assert "concierto de la catedral" in row[0]["context"]
    body = client.get(f"/v1/entries/{project}/s2", headers=auth(owner)).json()
    assert (body["occurred_at"], body["turn"], body["occurred_on"]) == (at, 2, None)
    assert body["read_only"]["occurred"]["start"] == "2023-05-08"
    narrowed = client.patch(f"/v1/entries/{project}/s1", json={"intimacy": "private"}, headers=auth(owner))
    assert narrowed.status_code == 200
    assert not graph.read("MATCH (:Entry)-[:NEXT]->(b:Entry {id: $id}) RETURN b", {"id": f"{project}/s2"}), (
        "a private turn no longer lends its words to a circle reply"
    )


@pytest.mark.parametrize(
    ("given", "start", "end", "precision"),
    [
        ("2019-08", "2019-08-01", "2019-08-31", "month"),
        ("2019", "2019-01-01", "2019-12-31", "year"),
        ("2019-08-14", "2019-08-14", "2019-08-14", "day"),
        ("2019-06-21/2019-09-22", "2019-06-21", "2019-09-22", "season"),
    ],
)
def test_vague_dates_come_back_as_written(
    client: TestClient, auth: Headers, family: dict[str, str], given: str, start: str, end: str, precision: str
) -> None:
    project, owner = family["project"], family["owner"]
    assert (
        client.post(
            "/v1/entries",
            headers=auth(owner),
            json={"project_id": project, "entry_id": f"{project}/d", "text": "Fecha vaga.", "occurred_on": given},
        ).status_code
        == 201
    )
    body = client.get(f"/v1/entries/{project}/d", headers=auth(owner)).json()
    assert body["occurred_on"] == given
    assert body["read_only"]["occurred"] == {"start": start, "end": end, "precision": precision}


def test_the_entry_id_rule_is_in_the_schema_and_shared_by_files_and_http(
    client: TestClient, auth: Headers, ingest: Ingest, family: dict[str, str]
) -> None:
    schema = client.get("/openapi.json").json()
    assert (
        schema["components"]["schemas"]["EntryIn"]["properties"]["entry_id"]["anyOf"][0]["pattern"] == ENTRY_ID_PATTERN
    )
    id_params = [
        p
        for path, ops in schema["paths"].items()
        if "{entry_id}" in path
        for op in ops.values()
        for p in op["parameters"]
        if p["name"] == "entry_id"
    ]  # GET, PUT, PATCH, DELETE, the neighbours and the witness's
    assert len(id_params) == 6 and all(p["schema"]["pattern"] == ENTRY_ID_PATTERN for p in id_params)
    project = family["project"]
    for bad in ("no-slash", f"{project}/", "/lead", f"{project}/x\ty"):
        assert not re.match(ENTRY_ID_PATTERN, bad)
        api = client.post(
            "/v1/entries", headers=auth(family["owner"]), json={"project_id": project, "entry_id": bad, "text": "x"}
        )
        assert api.status_code == 422, bad
        assert ingest([{"entry_id": bad, "project_id": project, "text": "x"}]).errors, bad
    assert client.get("/v1/entries/no-slash", headers=auth(family["owner"])).status_code == 422


def test_witness_entries_share_the_shape_but_not_the_freedom(
    client: TestClient, auth: Headers, ingest: Ingest, family: dict[str, str]
) -> None:
    """A witness reads an entry exactly as a member does, and still may set only its few fields: no metadata, no
    level, kind, date of a session or turn."""
    project, owner = family["project"], family["owner"]
    ingest(
        [
            _record(
                project,
                "w",
                author=owner,
                intimacy="public",
                period="Berlín",
                text="En la estación.",
                occurred_on="2008-12",
                mood="frío",
            )
        ]
    )
    made = client.post(f"/v1/projects/{project}/witnesses", json={"period": "Berlín"}, headers=auth(owner))
    token = made.json()["token"]
    as_witness = client.get(f"/v1/w/{token}/entries/{project}/w")
    assert as_witness.status_code == 200
    assert as_witness.json() == client.get(f"/v1/entries/{project}/w", headers=auth(owner)).json()
    for extra in (
        {"mood": "x"},
        {"intimacy": "public"},
        {"kind": "diary"},
        {"occurred_at": "2008-12-01T10:00"},
        {"turn": 1},
        {"author": owner},
    ):
        refused = client.post(f"/v1/w/{token}/entries", json={"text": "Yo estaba allí.", **extra})
        assert refused.status_code == 422, extra
    written = client.post(f"/v1/w/{token}/entries", json={"text": "Yo estaba allí.", "occurred_on": "2008-12"})
    body = client.get(f"/v1/entries/{written.json()['entry_id']}", headers=auth(owner)).json()
    assert (body["kind"], body["intimacy"], body["period"], body["occurred_on"]) == (
        "witness",
        "circle",
        "Berlín",
        "2008-12",
    )
    assert body["author"].startswith("witness:")


# --- listing ---------------------------------------------------------------------------------------------------------


@pytest.fixture()
def diary(graph: Graph, prefix: str, ingest: Ingest) -> dict[str, Any]:
    """Twelve entries: dated (two share a day), undated, in two chapters, by two authors, at every level."""
    project = f"{prefix}list"
    users = {r: f"{prefix}{r}" for r in ("owner", "coauthor", "reader")}
    for role, user in users.items():
        set_member(graph, project, user, role)
    rows = []
    for i, (day, level, author, chapter, kind) in enumerate(
        [
            ("2019-08-14", "circle", "owner", "Verano", "diary"),
            ("2019-08-14", "public", "coauthor", "Verano", "diary"),
            ("2019-08", "circle", "owner", "Verano", "chronicle"),
            ("2019", "intimate", "owner", None, "diary"),
            ("2018-03-01", "private", "owner", None, "diary"),
            ("2018-03-01", "circle", "coauthor", None, "session"),
            ("2017-12-25", "circle", "owner", "Navidad", "diary"),
            ("2020-01-05", "private", "coauthor", "Navidad", "diary"),
            (None, "circle", "owner", None, "diary"),
            (None, "public", "coauthor", None, "diary"),
            (None, "intimate", "coauthor", None, "diary"),
            ("2021-06-30", "circle", "coauthor", None, "diary"),
        ]
    ):
        rows.append(
            {
                "entry_id": f"{project}/e{i:02d}",
                "project_id": project,
                "author": users[author],
                "intimacy": level,
                "kind": kind,
                "text": f"Entrada {i} con {'Josep' if i % 2 else 'Marta'}.",
                "persons": ["Josep" if i % 2 else "Marta"],
                "places": ["Cádiz"] if i < 4 else [],
                **({"occurred_on": day} if day else {}),
                **({"period": chapter} if chapter else {}),
            }
        )
    assert not ingest(rows).errors
    return {"project": project, **users, "rows": rows}


def _list(client: TestClient, headers: dict[str, str], project: str, **params: Any) -> dict[str, Any]:
    resp = client.get(f"/v1/projects/{project}/entries", params=params, headers=headers)
    assert resp.status_code == 200, resp.text
    return dict(resp.json())


def _all_pages(client: TestClient, headers: dict[str, str], project: str, **params: Any) -> list[str]:
    ids: list[str] = []
    cursor = None
    while True:
        page = _list(client, headers, project, **params, **({"cursor": cursor} if cursor else {}))
        ids += [e["entry_id"] for e in page["entries"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return ids


def _visible(diary: dict[str, Any], who: str) -> list[dict[str, Any]]:
    me = diary[who]
    return [
        r
        for r in diary["rows"]
        if r["intimacy"] in ("circle", "public")
        or r["author"] == me
        or (r["intimacy"] == "intimate" and who in ("owner", "coauthor"))
    ]


def _expected_order(rows: list[dict[str, Any]], sort: str) -> list[str]:
    from ingest.dates import parse_occurred

    dated = [r for r in rows if "occurred_on" in r]
    undated = sorted((r["entry_id"] for r in rows if "occurred_on" not in r), reverse=sort == "desc")
    keyed = sorted(dated, key=lambda r: (parse_occurred(r["occurred_on"]).start, r["entry_id"]), reverse=sort == "desc")
    return [r["entry_id"] for r in keyed] + undated


@pytest.mark.parametrize("who", ["owner", "coauthor", "reader"])
@pytest.mark.parametrize("sort", ["asc", "desc"])
def test_listing_shows_exactly_the_visible_entries_in_date_order(
    client: TestClient, auth: Headers, diary: dict[str, Any], who: str, sort: str
) -> None:
    ids = _all_pages(client, auth(diary[who]), diary["project"], sort=sort, limit=5)
    assert ids == _expected_order(_visible(diary, who), sort)
    assert len(ids) == len(set(ids))
    if who == "reader":
        levels = {r["intimacy"] for r in diary["rows"] if r["entry_id"] in ids}
        assert levels <= {"circle", "public"}


def test_listing_filters_mean_any_of(client: TestClient, auth: Headers, diary: dict[str, Any]) -> None:
    project, headers = diary["project"], auth(diary["owner"])
    visible = _visible(diary, "owner")

    def ids(**params: Any) -> set[str]:
        return {e["entry_id"] for e in _list(client, headers, project, limit=100, **params)["entries"]}

    def expect(pred: Callable[[dict[str, Any]], bool]) -> set[str]:
        return {r["entry_id"] for r in visible if pred(r)}

    assert ids(period=["Verano", "navidad"]) == expect(lambda r: r.get("period") in ("Verano", "Navidad"))
    assert ids(author=[diary["coauthor"]]) == expect(lambda r: r["author"] == diary["coauthor"])
    assert ids(kind=["chronicle", "session"]) == expect(lambda r: r["kind"] in ("chronicle", "session"))
    assert ids(person=["josep"]) == expect(lambda r: r["persons"] == ["Josep"])
    assert ids(person=["Josep", "Marta"]) == expect(lambda r: True)
    assert ids(place=["Cádiz"]) == expect(lambda r: bool(r["places"]))
    in_2019 = ids(date_from="2019-08-01", date_to="2019-12-31")
    assert in_2019 == {f"{project}/e00", f"{project}/e01", f"{project}/e02", f"{project}/e03"}, (
        "a vague date overlapping the range counts (2019, 2019-08)"
    )
    assert ids(period=["Verano"], kind=["chronicle"]) == {f"{project}/e02"}, "different filters: all of them"
    unknown = _list(client, headers, project, person=["Zorro"])
    assert unknown["entries"] == [] and "Zorro" in unknown["warnings"][0]


def test_listing_refuses_bad_requests(client: TestClient, auth: Headers, diary: dict[str, Any], prefix: str) -> None:
    project, headers = diary["project"], auth(diary["reader"])
    url = f"/v1/projects/{project}/entries"
    for params in (
        {"limit": 101},
        {"limit": 0},
        {"sort": "sideways"},
        {"kind": "novel"},
        {"date_from": "2020-01-02", "date_to": "2020-01-01"},
        {"cursor": "garbage!"},
    ):
        assert client.get(url, params=params, headers=headers).status_code == 422, params
    backwards = client.get(url, params={"date_from": "2020-01-02", "date_to": "2020-01-01"}, headers=headers)
    reason = {"loc": ["query", "date_to"], "msg": "date_to is before date_from", "type": "value_error"}
    assert backwards.json() == {"detail": [reason]}
    garbled = client.get(url, params={"cursor": "garbage!"}, headers=headers).json()["detail"]
    assert [(e["loc"], e["type"]) for e in garbled] == [(["query", "cursor"], "value_error")]
    cursor = _list(client, headers, project, limit=2)["next_cursor"]
    assert cursor
    other_sort = client.get(url, params={"cursor": cursor, "sort": "asc", "limit": 2}, headers=headers)
    assert other_sort.status_code == 422 and "cursor" in other_sort.text
    other_filter = client.get(url, params={"cursor": cursor, "kind": "diary", "limit": 2}, headers=headers)
    assert other_filter.status_code == 422
    outsider = client.get(url, headers=auth(f"{prefix}outsider"))
    missing = client.get(f"/v1/projects/{prefix}nowhere/entries", headers=auth(f"{prefix}outsider"))
    assert outsider.status_code == missing.status_code == 403 and outsider.json() == missing.json()


def test_hidden_entries_never_move_a_readers_pages(
    client: TestClient, auth: Headers, ingest: Ingest, diary: dict[str, Any]
) -> None:
    """Pages, their boundaries and their cursors are the same before and after entries hidden from the reader are
    added, edited and deleted, even ones sorting between the reader's entries."""
    project, reader = diary["project"], auth(diary["reader"])

    def snapshot() -> list[dict[str, Any]]:
        pages, cursor = [], None
        for params in ({"sort": "asc"}, {"sort": "desc", "person": ["Josep"]}, {"sort": "desc", "kind": ["diary"]}):
            cursor = None
            while True:
                page = _list(client, reader, project, limit=3, **params, **({"cursor": cursor} if cursor else {}))
                pages.append(page)
                cursor = page["next_cursor"]
                if cursor is None:
                    break
        return pages

    before = snapshot()
    hidden = [
        {
            "entry_id": f"{project}/h{i}",
            "project_id": project,
            "author": diary["owner"],
            "intimacy": level,
            "text": f"Oculta {i} con Josep.",
            "persons": ["Josep", "Zorro"],
            "kind": "diary",
            **({"occurred_on": day} if day else {}),
        }
        for i, (level, day) in enumerate(
            [("private", "2019-08-14"), ("intimate", "2018-03-01"), ("private", None), ("intimate", "2019")]
        )
    ]
    assert ingest(hidden).written == 4
    assert snapshot() == before
    client.patch(f"/v1/entries/{project}/e04", json={"occurred_on": "2019-08-14"}, headers=auth(diary["owner"]))
    client.delete(f"/v1/entries/{project}/e03", headers=auth(diary["owner"]))
    assert snapshot() == before
    assert _list(client, reader, project, person=["Zorro"])["warnings"], "a name only hidden entries use is unknown"


# --- the command line ------------------------------------------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_memora_entries_lists_what_the_api_lists(
    client: TestClient, auth: Headers, diary: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    project, reader = diary["project"], diary["reader"]
    code, out, _ = _run(
        capsys,
        "entries",
        "--project",
        project,
        "--as",
        reader,
        "--json",
        "--limit",
        "4",
        "--person",
        "Josep",
        "--sort",
        "asc",
    )
    assert code == 0
    api = _list(client, auth(reader), project, limit=4, person=["Josep"], sort="asc")
    assert json.loads(out) == api
    code, out, _ = _run(capsys, "entries", "--project", project, "--as", reader, "--limit", "3")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 4 and lines[-1].startswith("more: --cursor ")
    first_page = [line.split()[1] for line in lines[:3]]
    assert first_page == _expected_order(_visible(diary, "reader"), "desc")[:3]
    code, out, _ = _run(
        capsys, "entries", "--project", project, "--as", reader, "--cursor", lines[-1].split()[-1], "--limit", "3"
    )
    assert code == 0 and out.split()[1] == _expected_order(_visible(diary, "reader"), "desc")[3]
    code, _, err = _run(capsys, "entries", "--project", project, "--as", f"{project}-nobody")
    assert code == 4 and "not a member" in err
    code, _, err = _run(capsys, "entries", "--project", project, "--as", reader, "--cursor", "nonsense")
    assert code == 2 and "cursor" in err
    with pytest.raises(SystemExit) as bad_date:
        main(["entries", "--project", project, "--as", reader, "--from", "2023-13-01"])
    assert bad_date.value.code == 2 and "not a date" in capsys.readouterr().err


def test_reingest_skips_entries_edited_through_the_api_unless_overwrite(
    client: TestClient,
    auth: Headers,
    graph: Graph,
    tmp_path: Path,
    family: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    project, owner = family["project"], family["owner"]
    lines = [
        _record(project, f"f{i}", author=owner, text=f"Línea {i} del fichero.", occurred_on="2019-08") for i in range(3)
    ]
    path = tmp_path / "diary.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in lines) + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "ingest", str(path))
    assert code == 0 and "written 3" in out

    edited = client.patch(f"/v1/entries/{project}/f1", json={"text": "Corregido en la app."}, headers=auth(owner))
    assert edited.status_code == 200
    assert client.get(f"/v1/entries/{project}/f1", headers=auth(owner)).json()["read_only"]["written_by"] == "api"
    made = client.post(
        "/v1/entries",
        headers=auth(owner),
        json={"project_id": project, "entry_id": f"{project}/f3", "text": "Escrita en la app."},
    )
    assert made.status_code == 201
    lines.append(_record(project, "f3", author=owner, text="La versión del fichero."))
    lines[2]["text"] = "Línea 2, cambiada en el fichero."
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in lines) + "\n", encoding="utf-8")

    code, out, _ = _run(capsys, "ingest", str(path), "--json")
    report = json.loads(out)
    assert code == 0
    assert (report["written"], report["unchanged"]) == (1, 1), "f2 changed in the file; f0 did not"
    assert [(s["line"], s["entry_id"]) for s in report["skipped"]] == [(2, f"{project}/f1"), (4, f"{project}/f3")]
    assert "--overwrite" in report["skipped"][0]["reason"]

    def text(name: str) -> str:
        return str(client.get(f"/v1/entries/{project}/{name}", headers=auth(owner)).json()["text"])

    assert (text("f1"), text("f2"), text("f3")) == (
        "Corregido en la app.",
        "Línea 2, cambiada en el fichero.",
        "Escrita en la app.",
    )
    code, out, _ = _run(capsys, "ingest", str(path))
    assert code == 0 and "skipped 2" in out and f"({project}/f1)" in out, "the human report names them too"

    code, out, _ = _run(capsys, "ingest", str(path), "--overwrite", "--json")
    assert code == 0 and json.loads(out)["skipped"] == [] and json.loads(out)["written"] == 2
    assert (text("f1"), text("f3")) == ("Línea 1 del fichero.", "La versión del fichero.")
    assert client.get(f"/v1/entries/{project}/f1", headers=auth(owner)).json()["read_only"]["written_by"] == "file"
    code, out, _ = _run(capsys, "ingest", str(path), "--json")
    assert json.loads(out)["skipped"] == [] and json.loads(out)["unchanged"] == 4, "the file owns them again"
    same = client.put(
        f"/v1/entries/{project}/f0",
        json=client.get(f"/v1/entries/{project}/f0", headers=auth(owner)).json(),
        headers=auth(owner),
    )
    assert same.json()["status"] == "unchanged"
    code, out, _ = _run(capsys, "ingest", str(path), "--json")
    assert json.loads(out)["skipped"] == [], "a PUT that changed nothing is no edit"
