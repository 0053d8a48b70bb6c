"""Rate limits per caller (api/ratelimit.py) through the HTTP API, on the real Neo4j and embedder: a search budget and
a write budget per user and per witness link, and a budget of failed authentications per client address. A refused
request is 429 with a reason and an integer `Retry-After`, and does nothing.

Most tests swap the app's limiter for one on a hand-driven clock, so running out and refilling are exact and need no
sleeping; one test waits out a real `Retry-After` (at most two seconds)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from schemathesis.specs.openapi.checks import response_headers_conformance, response_schema_conformance

from api import auth
from api.app import Services, create_app
from api.ratelimit import UNLIMITED, Buckets, Limit, Limits
from graph.db import Graph
from graph.ids import period_id
from graph.members import set_member
from graph.settings import Settings
from graph.witnesses import create_grant, revoke_grant
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport

SMALL = {
    "rate_search_per_second": 1.0,
    "rate_search_burst": 3,
    "rate_write_per_second": 1.0,
    "rate_write_burst": 2,
    "rate_auth_failures_per_minute": 4,
}


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def make_app(graph: Graph, embedder: CheckedEmbedder, settings: Settings, clock: Clock) -> Callable[..., FastAPI]:
    """An app with small limits (SMALL, overridable) on the hand-driven clock, or on the real one."""

    def build(real_clock: bool = False, **limits: Any) -> FastAPI:
        cfg = settings.model_copy(update={**SMALL, **limits})
        app = create_app(Services(cfg, graph=graph, embedder=embedder))
        if not real_clock:
            app.state.limits = Limits(cfg, clock=clock)
        return app

    return build


@pytest.fixture()
def client(make_app: Callable[..., FastAPI]) -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        yield c


@pytest.fixture()
def home(graph: Graph, prefix: str, ingest: Callable[..., IngestReport]) -> dict[str, str]:
    """A project with an owner, a coauthor and a reader, one circle entry in a chapter, and two witness links to
    that chapter."""
    project = f"{prefix}home"
    users = {role: f"{prefix}{role}" for role in ("owner", "coauthor", "reader")}
    for role, user in users.items():
        set_member(graph, project, user, role)
    report = ingest(
        [
            {
                "entry_id": f"{project}/e1",
                "project_id": project,
                "author": users["owner"],
                "intimacy": "circle",
                "period": "Cádiz 2008",
                "text": "Zanahoria en Cádiz: el verano que papá pintó la barca.",
            }
        ]
    )
    assert not report.errors
    links = []
    for label in ("tía", "vecino"):
        grant = create_grant(
            graph, project, period_id(project, "Cádiz 2008"), users["owner"], timedelta(hours=1), label
        )
        assert grant is not None
        links.append(grant)
    return {"project": project, **users, "grant1": links[0], "grant2": links[1]}


def bearer(settings: Settings, user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {auth.issue(settings, user)}"}


def search(client: TestClient, settings: Settings, user: str, project: str) -> Any:
    return client.post(
        "/v1/search",
        json={"q": "zanahoria", "project_id": project, "channels": ["fulltext"]},
        headers=bearer(settings, user),
    )


def entry_ids(graph: Graph, project: str) -> set[str]:
    return {r["id"] for r in graph.read("MATCH (e:Entry {project_id: $p}) RETURN e.id AS id", {"p": project})}


def assert_429(resp: Any, reason: str) -> int:
    """A 429 with a JSON reason naming the budget and an integer Retry-After of at least one second."""
    assert resp.status_code == 429, resp.text
    assert set(resp.json()) == {"detail"} and reason in resp.json()["detail"], resp.text
    retry_after = resp.headers["retry-after"]
    assert retry_after.isdigit() and int(retry_after) >= 1, retry_after
    return int(retry_after)


# --- searches ------------------------------------------------------------------------------------------------------


def test_a_user_over_the_search_budget_gets_429_and_others_do_not(
    client: TestClient, settings: Settings, home: dict[str, str], clock: Clock
) -> None:
    for _ in range(3):  # the burst
        assert search(client, settings, home["reader"], home["project"]).status_code == 200
    refused = search(client, settings, home["reader"], home["project"])
    assert assert_429(refused, "too many searches") == 1  # one token a second
    assert "zanahoria" not in refused.text.lower()
    assert search(client, settings, home["coauthor"], home["project"]).status_code == 200, "another user is unaffected"
    # A new token for the same user is the same caller: budgets are per verified user, not per token.
    assert search(client, settings, home["reader"], home["project"]).status_code == 429

    clock.advance(0.99)
    assert search(client, settings, home["reader"], home["project"]).status_code == 429
    clock.advance(0.02)  # one search a second refills one token
    assert search(client, settings, home["reader"], home["project"]).status_code == 200
    assert search(client, settings, home["reader"], home["project"]).status_code == 429
    clock.advance(60)  # refills up to the burst, no further
    assert [search(client, settings, home["reader"], home["project"]).status_code for _ in range(4)] == [
        200,
        200,
        200,
        429,
    ]


def test_retry_after_is_enough_on_the_real_clock(
    make_app: Callable[..., FastAPI], settings: Settings, home: dict[str, str]
) -> None:
    with TestClient(make_app(real_clock=True, rate_search_per_second=0.5, rate_search_burst=1)) as c:
        assert search(c, settings, home["owner"], home["project"]).status_code == 200
        wait = assert_429(search(c, settings, home["owner"], home["project"]), "too many searches")
        assert wait <= 2
        time.sleep(wait)
        assert search(c, settings, home["owner"], home["project"]).status_code == 200


def test_a_refused_request_is_429_before_its_body_is_read(
    client: TestClient, settings: Settings, home: dict[str, str]
) -> None:
    """The budget is spent when the token is checked, before validation: a malformed search counts, and once the
    budget is gone even a malformed one is 429 (a valid one is refused all the same)."""
    headers = bearer(settings, home["reader"])
    for _ in range(3):
        assert client.post("/v1/search", json={"k": 0}, headers=headers).status_code == 422
    assert_429(client.post("/v1/search", json={"k": 0}, headers=headers), "too many searches")


# --- writes --------------------------------------------------------------------------------------------------------


def test_writes_have_their_own_budget_and_a_refused_write_writes_nothing(
    client: TestClient, settings: Settings, graph: Graph, home: dict[str, str]
) -> None:
    project, headers = home["project"], bearer(settings, home["coauthor"])
    for _ in range(3):
        assert search(client, settings, home["coauthor"], project).status_code == 200
    assert search(client, settings, home["coauthor"], project).status_code == 429  # searches are spent
    before = entry_ids(graph, project)

    first = client.post(
        "/v1/entries",
        json={"project_id": project, "entry_id": f"{project}/w1", "text": "Primera nota."},
        headers=headers,
    )
    assert first.status_code == 201, first.text  # writes are not
    assert (
        client.put(f"/v1/entries/{project}/w1", json={"text": "Primera nota, corregida."}, headers=headers).status_code
        == 200
    )
    refused = client.post(
        "/v1/entries",
        json={"project_id": project, "entry_id": f"{project}/w2", "text": "Segunda nota."},
        headers=headers,
    )
    assert_429(refused, "too many writes")
    assert_429(client.delete(f"/v1/entries/{project}/w1", headers=headers), "too many writes")
    assert_429(
        client.post(f"/v1/projects/{project}/entities", json={"kind": "person", "name": "Pep"}, headers=headers),
        "too many writes",
    )
    assert entry_ids(graph, project) == before | {f"{project}/w1"}, "the refused create and delete did nothing"
    assert client.get(f"/v1/entries/{project}/w1", headers=headers).json()["text"] == "Primera nota, corregida."
    assert not graph.read("MATCH (n {project_id: $p}) WHERE n.name = 'Pep' RETURN n", {"p": project})

    owner = bearer(settings, home["owner"])
    assert (
        client.post("/v1/entries", json={"project_id": project, "text": "Del dueño."}, headers=owner).status_code == 201
    ), "another user's writes are unaffected"


# --- witness links -------------------------------------------------------------------------------------------------


def test_witness_links_have_budgets_of_their_own(
    client: TestClient, settings: Settings, graph: Graph, home: dict[str, str]
) -> None:
    link1 = auth.issue_witness(settings, home["grant1"], 3600)
    link2 = auth.issue_witness(settings, home["grant2"], 3600)
    for _ in range(3):
        assert client.post(f"/v1/w/{link1}/search", json={"q": "zanahoria"}).status_code == 200
    assert_429(client.post(f"/v1/w/{link1}/search", json={"q": "zanahoria"}), "too many searches")
    assert client.get(f"/v1/w/{link1}/entries/{home['project']}/e1").status_code == 200, "reading is not limited"
    assert client.post(f"/v1/w/{link2}/search", json={"q": "zanahoria"}).status_code == 200, "another link"
    assert search(client, settings, home["owner"], home["project"]).status_code == 200, "the owner"

    before = entry_ids(graph, home["project"])
    for _ in range(2):
        assert client.post(f"/v1/w/{link1}/entries", json={"text": "Yo estaba allí."}).status_code == 201
    assert_429(client.post(f"/v1/w/{link1}/entries", json={"text": "Y otra vez."}), "too many writes")
    assert len(entry_ids(graph, home["project"]) - before) == 2, "the refused account was not written"


# --- failed authentications ----------------------------------------------------------------------------------------


def test_repeated_bad_tokens_from_one_address_get_429(
    make_app: Callable[..., FastAPI], settings: Settings, home: dict[str, str], clock: Clock
) -> None:
    app = make_app()
    attacker = TestClient(app, client=("203.0.113.7", 40000))
    neighbour = TestClient(app, client=("198.51.100.2", 40000))
    valid = bearer(settings, home["reader"])
    expired = {"Authorization": f"Bearer {auth.issue(settings, home['reader'], ttl_seconds=1, now=time.time() - 60)}"}

    assert attacker.get("/v1/projects").status_code == 401, "a missing token is not a failed guess"
    for headers in ({"Authorization": "Bearer garbage"}, expired, {"Authorization": "Bearer mem1.e30.AAAA"}):
        assert attacker.get("/v1/projects", headers=headers).status_code == 401
    assert attacker.post("/v1/w/not-a-link/search", json={"q": "x"}).status_code == 401  # a bad link counts too
    # Four failures a minute: from now on the address is refused before its token is looked at, valid or not.
    wait = assert_429(
        attacker.get("/v1/projects", headers={"Authorization": "Bearer garbage"}), "too many failed authentications"
    )
    assert wait == 15  # one failure every 60 / 4 seconds
    assert_429(attacker.get("/v1/projects", headers=valid), "too many failed authentications")
    assert_429(attacker.post("/v1/search", json={"q": "zanahoria"}, headers=valid), "too many failed")
    assert_429(attacker.post("/v1/w/not-a-link/search", json={"q": "x"}), "too many failed authentications")
    assert attacker.get("/health").status_code == 200, "health needs no token and is never refused"

    ok = neighbour.get("/v1/projects", headers=valid)
    assert ok.status_code == 200 and ok.json()[0]["project_id"] == home["project"], "another address works"

    clock.advance(15)
    assert attacker.get("/v1/projects", headers=valid).status_code == 200, "the budget refills"


def test_expired_and_revoked_witness_links_count_as_failures(
    make_app: Callable[..., FastAPI], settings: Settings, graph: Graph, home: dict[str, str]
) -> None:
    client = TestClient(make_app(rate_auth_failures_per_minute=2))
    expired = auth.issue(settings, home["grant1"], ttl_seconds=1, now=time.time() - 60, prefix=auth.WITNESS_PREFIX)
    assert client.get(f"/v1/w/{expired}/entries/{home['project']}/e1").status_code == 401
    assert revoke_grant(graph, home["project"], home["grant2"])
    revoked = auth.issue_witness(settings, home["grant2"], 3600)
    resp = client.post(f"/v1/w/{revoked}/search", json={"q": "zanahoria"})
    assert resp.status_code == 401, resp.text
    assert_429(client.post(f"/v1/w/{revoked}/search", json={"q": "zanahoria"}), "too many failed authentications")


def test_malformed_requests_with_a_dead_link_are_still_422(make_app: Callable[..., FastAPI]) -> None:
    """A witness route validates the body before it checks the link (tests/house/test_layout.py); such a request is not
    a failed authentication, so it spends nothing."""
    client = TestClient(make_app(rate_auth_failures_per_minute=1))
    for _ in range(5):
        assert client.post("/v1/w/not-a-link/search", json={}).status_code == 422
    assert client.post("/v1/w/not-a-link/search", json={"q": "x"}).status_code == 401
    assert client.post("/v1/w/not-a-link/search", json={"q": "x"}).status_code == 429


# --- settings, schema, the limiter itself --------------------------------------------------------------------------


def test_zero_turns_a_limit_off(make_app: Callable[..., FastAPI], settings: Settings, home: dict[str, str]) -> None:
    client = TestClient(make_app(**UNLIMITED))
    assert all(search(client, settings, home["reader"], home["project"]).status_code == 200 for _ in range(8))
    assert all(client.get("/v1/projects", headers={"Authorization": "Bearer x"}).status_code == 401 for _ in range(8))


def test_the_defaults_are_generous_and_documented() -> None:
    fields = Settings.model_fields
    assert (fields["rate_search_per_second"].default, fields["rate_search_burst"].default) == (10, 30)
    assert (fields["rate_write_per_second"].default, fields["rate_write_burst"].default) == (5, 20)
    assert fields["rate_auth_failures_per_minute"].default == 60
    for name in (
        "rate_search_per_second",
        "rate_search_burst",
        "rate_write_per_second",
        "rate_write_burst",
        "rate_auth_failures_per_minute",
    ):
        assert fields[name].description, name


LIMITED = [
    ("/v1/search", "post"),
    ("/v1/entries", "post"),
    ("/v1/entries/{entry_id}", "put"),
    ("/v1/entries/{entry_id}", "delete"),
    ("/v1/projects/{project_id}/entities", "post"),
    ("/v1/w/{token}/search", "post"),
    ("/v1/w/{token}/entries", "post"),
]


def test_429_is_documented_on_every_authenticated_route(make_app: Callable[..., FastAPI]) -> None:
    paths = make_app().openapi()["paths"]
    for path, ops in paths.items():
        for method, op in ops.items():
            documented = "429" in op["responses"]
            assert documented == (path not in ("/health", "/ready")), (method, path)
            if documented:
                assert "Retry-After" in op["responses"]["429"]["headers"]
    for path, method in LIMITED:
        assert "budget" in paths[path][method]["responses"]["429"]["description"], (method, path)


def test_a_429_matches_the_documented_schema(
    make_app: Callable[..., FastAPI], settings: Settings, home: dict[str, str]
) -> None:
    """What the fuzz test would check, had it been refused: its app runs without limits."""
    app = make_app(rate_search_burst=1)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    case = schema["/v1/search"]["POST"].Case(body={"q": "zanahoria", "project_id": home["project"]})
    headers = bearer(settings, home["reader"])
    assert case.call(headers=headers).status_code == 200
    refused = case.call(headers=headers)
    assert refused.status_code == 429
    case.validate_response(refused, checks=[response_schema_conformance, response_headers_conformance])


def test_buckets_refill_per_key_and_forget_idle_keys(clock: Clock) -> None:
    buckets = Buckets(Limit(rate=2, burst=3), max_keys=5, clock=clock)
    assert [buckets.take("a") for _ in range(4)] == [0, 0, 0, 0.5]
    assert buckets.take("b") == 0
    assert buckets.wait("a") == 0.5 and buckets.wait("a") == 0.5, "waiting spends nothing"
    clock.advance(0.5)
    assert buckets.take("a") == 0 and buckets.take("a") == 0.5
    buckets.charge("a")  # a failure that happened anyway never goes below zero
    assert buckets.wait("a") == 0.5
    for i in range(20):
        buckets.take(f"k{i}")
    assert len(buckets) <= 5, "at most max_keys are kept"
    clock.advance(10)
    buckets.take("z")
    assert len(buckets) == 1, "buckets that refilled are forgotten"


def test_buckets_are_thread_safe(clock: Clock) -> None:
    buckets = Buckets(Limit(rate=0.001, burst=50), clock=clock)
    granted: list[bool] = []
    lock = threading.Lock()

    def hammer() -> None:
        for _ in range(100):
            ok = buckets.take("shared") == 0
            with lock:
                granted.append(ok)

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(granted) == 50 and len(granted) == 800
