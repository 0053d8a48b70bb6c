"""The read budget (api/ratelimit.py): periods, summaries, analytics, candidates, entry listings and neighbours, and the
web's chapter, people, entity and timeline pages, each spend one from the member's read budget. Past it a member gets
429 with a reason and `Retry-After`, on the API and on the web; another member, and the member's searches, are not
affected. On the real Neo4j; the API tests drive the buckets' clock by hand."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import auth
from api.app import Services, create_app
from api.ratelimit import Limits
from graph.db import Graph
from graph.ids import period_id
from graph.members import set_member
from graph.settings import Settings
from graph.witnesses import create_grant
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from tests.serving import serve
from tests.web_world import WebWorld, build_world, signed_in

SMALL = {"rate_read_per_second": 0.5, "rate_read_burst": 3}
READ_ROUTES = [
    ("/v1/projects/{project_id}/periods", "get"),
    ("/v1/projects/{project_id}/summary", "get"),
    ("/v1/projects/{project_id}/entries", "get"),
    ("/v1/projects/{project_id}/analytics/cooccurrence", "get"),
    ("/v1/projects/{project_id}/analytics/timeline", "get"),
    ("/v1/projects/{project_id}/analytics/timeline.svg", "get"),
    ("/v1/projects/{project_id}/analytics/importance", "get"),
    ("/v1/projects/{project_id}/analytics/changes", "get"),
    ("/v1/projects/{project_id}/analytics/similar", "get"),
    ("/v1/projects/{project_id}/entities/candidates", "get"),
    ("/v1/neighbours/{entry_id}", "get"),
]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def home(graph: Graph, prefix: str, ingest: Callable[..., IngestReport]) -> dict[str, str]:
    project = f"{prefix}reads"
    users = {role: f"{prefix}{role}" for role in ("owner", "reader")}
    for role, user in users.items():
        set_member(graph, project, user, role)
    report = ingest(
        [
            {
                "entry_id": f"{project}/e{n}",
                "project_id": project,
                "author": users["owner"],
                "intimacy": "circle",
                "occurred_on": f"2008-07-0{n}",
                "period": "Cádiz 2008",
                "text": f"Día {n} en Cádiz con Marta: la barca y el levante.",
                "persons": ["Marta"],
            }
            for n in (1, 2)
        ]
    )
    assert not report.errors
    return {"project": project, **users}


def bearer(settings: Settings, user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {auth.issue(settings, user)}"}


WEB_READS = "Too many pages of this kind in a row"


def assert_429(resp: Any, reason: str = "too many expensive reads") -> int:
    """The API's reason, or the web page's sentence for the same budget."""
    assert resp.status_code == 429, resp.text[:500]
    page = resp.headers["content-type"].startswith("text/html")
    assert (WEB_READS if page else reason) in resp.text, resp.text[:500]
    retry_after = resp.headers["retry-after"]
    assert retry_after.isdigit() and int(retry_after) >= 1, retry_after
    return int(retry_after)


def test_a_member_over_the_read_budget_gets_429_and_others_do_not(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, home: dict[str, str]
) -> None:
    cfg = settings.model_copy(update=SMALL)
    app = create_app(Services(cfg, graph=graph, embedder=embedder))
    clock = Clock()
    app.state.limits = Limits(cfg, clock=clock)
    p, reader, owner = home["project"], bearer(settings, home["reader"]), bearer(settings, home["owner"])
    with TestClient(app) as client:
        periods = client.get(f"/v1/projects/{p}/periods", headers=reader)
        assert periods.status_code == 200 and [x["name"] for x in periods.json()] == ["Cádiz 2008"]
        assert client.get(f"/v1/projects/{p}/entries", headers=reader).json()["entries"]
        assert client.get(f"/v1/projects/{p}/analytics/importance", headers=reader).status_code == 200
        # The burst of 3 is spent, whichever expensive route spent it.
        assert assert_429(client.get(f"/v1/projects/{p}/periods", headers=reader)) == 2  # 0.5 a second
        assert_429(client.get(f"/v1/neighbours/{p}/e1", headers=reader))
        assert_429(client.get(f"/v1/projects/{p}/analytics/cooccurrence?entity=Marta", headers=reader))
        assert_429(client.get(f"/v1/projects/{p}/summary", headers=reader))
        assert client.get(f"/v1/entries/{p}/e1", headers=reader).status_code == 200, "one entry is not budgeted"
        search = {"q": "barca", "project_id": p, "channels": ["fulltext"]}
        assert client.post("/v1/search", json=search, headers=reader).status_code == 200, "searches have their own"
        assert client.get(f"/v1/projects/{p}/periods", headers=owner).status_code == 200, "another member"
        clock.now += 2
        assert client.get(f"/v1/neighbours/{p}/e1", headers=reader).status_code == 200, "the budget refills"
        assert_429(client.get(f"/v1/projects/{p}/periods", headers=reader))


def test_a_refused_read_is_429_before_membership_and_query_checks(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, home: dict[str, str]
) -> None:
    """Like searches: the budget is spent once the token is checked, so a stranger hammering a project is limited
    too, and a malformed read counts."""
    cfg = settings.model_copy(update={"rate_read_per_second": 0.001, "rate_read_burst": 1})
    with TestClient(create_app(Services(cfg, graph=graph, embedder=embedder))) as client:
        stranger = bearer(settings, f"{home['reader']}-stranger")
        assert client.get(f"/v1/projects/{home['project']}/periods", headers=stranger).status_code == 403
        assert_429(client.get(f"/v1/projects/{home['project']}/entries?limit=0", headers=stranger))


def test_a_witness_links_chapter_listing_pays_the_links_read_budget(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, home: dict[str, str]
) -> None:
    p = home["project"]
    grants = [create_grant(graph, p, period_id(p, "Cádiz 2008"), home["owner"], timedelta(hours=1), n) for n in "ab"]
    first, second = (auth.issue_witness(settings, g or "", 3600) for g in grants)
    cfg = settings.model_copy(update=SMALL)
    with TestClient(create_app(Services(cfg, graph=graph, embedder=embedder))) as client:
        for _ in range(3):
            listed = client.get(f"/w/{first}")
            assert listed.status_code == 200 and "la barca" in listed.text
        assert_429(client.get(f"/w/{first}"))
        assert client.get(f"/w/{second}").status_code == 200, "another link"
        assert client.get(f"/v1/projects/{p}/periods", headers=bearer(settings, home["reader"])).status_code == 200


def test_every_read_budgeted_route_documents_its_429(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings
) -> None:
    paths = create_app(Services(settings, graph=graph, embedder=embedder)).openapi()["paths"]
    for path, method in READ_ROUTES:
        refused = paths[path][method]["responses"]["429"]
        assert "read budget" in refused["description"] and "Retry-After" in refused["headers"], (method, path)


def test_the_read_defaults_leave_a_person_clicking_around_alone() -> None:
    fields = Settings.model_fields
    assert (fields["rate_read_per_second"].default, fields["rate_read_burst"].default) == (2, 30)
    assert fields["rate_read_per_second"].description and fields["rate_read_burst"].description


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> WebWorld:
    return build_world(graph, prefix, ingest)


def test_the_heavier_web_pages_pay_the_read_budget(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, world: WebWorld
) -> None:
    cfg = settings.model_copy(update={"rate_read_per_second": 0.01, "rate_read_burst": 4})
    p = world.project
    with serve(cfg, graph, embedder, limits=True) as url:
        reader, owner = signed_in(url, world.users["reader"]), signed_in(url, world.users["owner"])
        try:
            for path in (f"/p/{p}/timeline", f"/p/{p}/people", f"/p/{p}/entity?name=Marta", f"/p/{p}/chapters"):
                assert reader.get(path).status_code == 200, path
            for path in (f"/p/{p}/timeline?year=2005", f"/p/{p}/people", f"/p/{p}/entity.svg?name=Marta"):
                wait = assert_429(reader.get(path))
                assert wait > 60  # one read every 100 s
            assert reader.get(f"/p/{p}?q=Cádiz").status_code == 200, "the search page spends searches"
            assert reader.get(f"/e/{world.entry_ids[('owner', 'circle')]}").status_code == 200
            assert owner.get(f"/p/{p}/timeline").status_code == 200, "another member is not affected"
        finally:
            reader.close()
            owner.close()
