"""A name recognition guessed as the wrong kind is confirmed as the right one through the API (`{"as": kind}` on the
decision route), then merged into an entity of that kind; a kind that is not one of the three, or one sent with a
rejection, is refused (422, with the field and a reason) before anything changes; and a name seen only in an entry
hidden from the caller answers as one nobody wrote, whatever kind is asked."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from graph.db import Graph
from graph.entities import upsert_entity
from graph.members import set_member
from ingest.pipeline import IngestReport
from tests.entities.test_entity_management import wait

Headers = Callable[[str], dict[str, str]]
MENTIONED = "MATCH (:Entry {id: $entry})-[m:MENTIONS]->(n) RETURN n.id AS id, labels(n) AS labels ORDER BY id"


@pytest.fixture()
def town(graph: Graph, prefix: str, ingest: Callable[..., IngestReport]) -> dict[str, str]:
    """Ana owns, Bea coauthors. Benalup and Gades are towns recognition takes for people; Zahara is named only in
    Ana's private entry; Cádiz is a declared place."""
    p = f"{prefix}kind"
    users = {k: f"{prefix}{k}" for k in ("ana", "bea")}
    set_member(graph, p, users["ana"], "owner")
    set_member(graph, p, users["bea"], "coauthor")
    upsert_entity(graph, p, "place", "Cádiz", [], audience="circle", author_id=users["ana"])
    rows = [
        ("e1", "circle", "Paseamos por Benalup toda la tarde con los niños."),
        ("e2", "circle", "Paseamos por Gades toda la mañana con los primos."),
        ("e3", "private", "Paseamos por Zahara toda la noche, sin nadie más."),
    ]
    report = ingest(
        [
            {
                "entry_id": f"{p}/{eid}",
                "project_id": p,
                "author": users["ana"],
                "intimacy": level,
                "occurred_on": "2012-05-01",
                "text": text,
            }
            for eid, level, text in rows
        ]
    )
    assert not report.errors
    return {"project": p, **users}


def _candidates(client: TestClient, headers: dict[str, str], project: str) -> dict[str, str]:
    resp = client.get(f"/v1/projects/{project}/entities/candidates", headers=headers)
    assert resp.status_code == 200, resp.text
    return {c["name"]: c["kind"] for c in resp.json()}


def _entities(client: TestClient, headers: dict[str, str], project: str) -> dict[str, str]:
    return {e["name"]: e["kind"] for e in client.get(f"/v1/projects/{project}/entities", headers=headers).json()}


def test_a_name_guessed_as_a_person_is_confirmed_as_a_place_and_merged_into_one(
    client: TestClient, auth: Headers, town: dict[str, str], graph: Graph
) -> None:
    p, bea = town["project"], auth(town["bea"])
    found = _candidates(client, bea, p)
    assert found["Benalup"] == "person" and found["Gades"] == "person", "recognition's guess, to be corrected"

    route = f"/v1/projects/{p}/entities/candidates/person"
    resp = client.post(f"{route}/Benalup/confirm", json={"as": "place"}, headers=bea)
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert (body["status"], body["name"], body["kind"]) == ("confirmed", "Benalup", "place")
    wait(client, bea, p, body["relink"])
    assert _entities(client, bea, p)["Benalup"] == "place"
    assert [(r["id"], r["labels"]) for r in graph.read(MENTIONED, {"entry": f"{p}/e1"})] == [(body["id"], ["Place"])], (
        "the entry now names the place"
    )
    assert "Benalup" not in _candidates(client, bea, p)

    resp = client.post(f"{route}/Gades/confirm", json={"as": "place"}, headers=bea)
    assert resp.status_code == 200 and resp.json()["kind"] == "place", resp.text
    merged = client.post(f"/v1/projects/{p}/entities/merge", json={"into": "Cádiz", "from": "Gades"}, headers=bea)
    assert merged.status_code == 200, merged.text
    wait(client, bea, p, merged.json()["relink"])
    known = {e["name"]: e for e in client.get(f"/v1/projects/{p}/entities", headers=bea).json()}
    assert "Gades" not in known and "Gades" in known["Cádiz"]["aliases"]


def test_a_bad_kind_or_a_kind_with_a_rejection_is_refused_with_a_reason_and_changes_nothing(
    client: TestClient, auth: Headers, town: dict[str, str]
) -> None:
    p, bea = town["project"], auth(town["bea"])
    route = f"/v1/projects/{p}/entities/candidates/person/Benalup"
    for body, field in (({"as": "animal"}, "as"), ({"as": "place", "kind": "place"}, "kind")):
        refused = client.post(f"{route}/confirm", json=body, headers=bea)
        assert refused.status_code == 422, refused.text
        detail = refused.json()["detail"]
        assert [d["loc"] for d in detail] == [["body", field]] and all(d["msg"] for d in detail)
    animal = client.post(f"{route}/confirm", json={"as": "animal"}, headers=bea).json()["detail"][0]["msg"]
    assert "'person', 'place' or 'thing'" in animal, "the reason names the kinds there are"
    with_reject = client.post(f"{route}/reject", json={"as": "place"}, headers=bea)
    assert with_reject.status_code == 422
    assert with_reject.json()["detail"][0]["loc"] == ["body", "as"] and "confirmation" in with_reject.text
    assert _candidates(client, bea, p)["Benalup"] == "person", "still a candidate, as it was"
    assert "Benalup" not in _entities(client, bea, p)

    plain = client.post(f"{route}/reject", headers=bea)
    assert plain.status_code == 200 and plain.json()["status"] == "rejected", "no body: the decision as before"


def test_a_name_only_in_a_hidden_entry_answers_like_none_whatever_kind_is_asked(
    client: TestClient, auth: Headers, town: dict[str, str]
) -> None:
    p, ana, bea = town["project"], auth(town["ana"]), auth(town["bea"])
    assert "Zahara" in _candidates(client, ana, p) and "Zahara" not in _candidates(client, bea, p)
    base = f"/v1/projects/{p}/entities/candidates/person"
    hidden = client.post(f"{base}/Zahara/confirm", json={"as": "place"}, headers=bea)
    missing = client.post(f"{base}/Zaharita/confirm", json={"as": "place"}, headers=bea)
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json()["detail"].replace("Zahara", "?") == missing.json()["detail"].replace("Zaharita", "?")
    assert "Zahara" not in _entities(client, ana, p), "nothing was declared"
    mine = client.post(f"{base}/Zahara/confirm", json={"as": "place"}, headers=ana)
    assert mine.status_code == 200 and mine.json()["kind"] == "place"
    assert _entities(client, ana, p)["Zahara"] == "place" and "Zahara" not in _entities(client, bea, p), (
        "declared for the audience it was seen at: private to its author"
    )
