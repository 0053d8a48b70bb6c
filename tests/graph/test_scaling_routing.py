"""The service on an external Neo4j through a `neo4j://` routing URI (a single instance answers routing as a cluster
does, naming itself for every role), with its read paths in read mode, so a cluster or Aura can send them to its
secondaries.

The URI points at a TCP relay in front of Neo4j that keeps the Bolt messages the driver writes: a routing driver
announces a routing context in HELLO and asks for a routing table (ROUTE), a read transaction's BEGIN says
`mode: "r"` (what a cluster routes to a secondary), as does a read's auto-commit RUN, and a read after a write of the
same process carries that write's bookmark. A direct `bolt://` driver through the same relay is the control: no
routing context, no ROUTE."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from neo4j import GraphDatabase, ManagedTransaction
from neo4j.exceptions import ClientError

from api.app import Services, create_app
from api.auth import issue
from bench.serving import served_by_memora
from graph.db import Graph, credentials
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from tests.scaling import BEGIN, BOOKMARKS, HELLO_ROUTING, READ_MODE, ROUTE, TcpRelay, bolt_address, external_env

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

MARK = "Quisquilla"


def _graph_through(settings: Settings, uri: str) -> Graph:
    return Graph(GraphDatabase.driver(uri, auth=credentials(settings)), settings.neo4j_database)


@pytest.mark.parametrize("scheme", ["neo4j", "bolt"])
def test_a_routing_driver_asks_for_the_table_and_reads_in_read_mode(
    settings: Settings, graph: Graph, scheme: str
) -> None:
    """`neo4j://`: every connection announces routing, the table is asked for, `Graph.read` begins in read mode,
    `Graph.write` in write mode, and the read after a write carries its bookmark. `bolt://` routes and chains
    nothing, but reads in read mode too."""
    with TcpRelay(bolt_address(settings)) as relay:
        g = _graph_through(settings, f"{scheme}://127.0.0.1:{relay.port}")
        try:
            assert g.read("RETURN 1 AS one")[0]["one"] == 1
            assert relay.count(BEGIN) == 0 and relay.count(READ_MODE) == 1, "a read is one auto-commit RUN, read mode"
            g.write("RETURN 2 AS two")
            assert relay.count(BEGIN) == 1 and relay.count(READ_MODE) == 1, "the write began in read mode"
            chained = relay.count(BOOKMARKS)
            g.read("RETURN 3 AS three")
            routed = relay.count(HELLO_ROUTING), relay.count(ROUTE), relay.count(BOOKMARKS) - chained
        finally:
            g.driver.close()
    if scheme == "neo4j":
        assert routed[0] == relay.connections >= 1 and routed[1] >= 1
        assert routed[2] == 1, "the read after the write did not carry its bookmark"
    else:  # one server holds every commit: nothing to route, nothing to chain
        assert routed == (0, 0, 0)


def test_a_read_cut_off_midway_is_sent_again_in_a_read_transaction(settings: Settings) -> None:
    """`Graph.read` goes auto-commit (one round trip), which the driver never retries: when the connection dies under
    it, the read is sent again in a managed read transaction, and the caller gets its rows, not an error."""
    slow = "UNWIND range(1, $n) AS x WITH x WHERE x % 7 = 0 RETURN count(x) AS c"
    with TcpRelay(bolt_address(settings)) as relay:
        g = _graph_through(settings, f"bolt://127.0.0.1:{relay.port}")
        try:
            assert g.read(slow, {"n": 7_000_000})[0]["c"] == 1_000_000  # planned: the timed run is the one cut off
            started = time.perf_counter()
            assert g.read(slow, {"n": 7_000_000})[0]["c"] == 1_000_000
            took = time.perf_counter() - started
            assert relay.count(BEGIN) == 0
            threading.Timer(took / 3, relay.drop).start()
            assert g.read(slow, {"n": 7_000_000})[0]["c"] == 1_000_000
            assert relay.count(BEGIN) >= 1 and relay.count(READ_MODE) >= 4, "not sent again in a read transaction"
            assert relay.connections >= 2
        finally:
            g.driver.close()


def test_graph_read_is_refused_a_write_by_the_server(graph: Graph, prefix: str) -> None:
    """The server enforces read mode: a write sent through `Graph.read`, or through a streamed-read session, is
    refused (a secondary could not take it either), so any read path that wrote would fail the suite here."""
    with pytest.raises(ClientError) as refused:
        graph.read("CREATE (:Project {id: $id})", {"id": f"{prefix}never"})
    assert refused.value.code == "Neo.ClientError.Statement.AccessMode"
    with graph.session(read=True) as session, pytest.raises(ClientError):
        session.run("CREATE (:Project {id: $id})", {"id": f"{prefix}never"}).consume()
    assert not graph.read("MATCH (p:Project {id: $id}) RETURN p", {"id": f"{prefix}never"})


class WriteWatch(Graph):
    """The real graph, noting every statement sent outside a read transaction."""

    def __init__(self, graph: Graph) -> None:
        super().__init__(graph.driver, graph.database)
        self.writes: list[str] = []

    def transact(self, work: Callable[[ManagedTransaction], Any], timeout: float | None = None) -> Any:
        self.writes.append(getattr(work, "__qualname__", repr(work)))
        return super().transact(work, timeout)

    def run_auto(self, query: str, params: Any = None) -> Any:
        self.writes.append(query)
        return super().run_auto(query, params)


@pytest.fixture()
def watched(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> Iterator[tuple[TestClient, WriteWatch]]:
    watch = WriteWatch(graph)
    quiet = settings.model_copy(update={"search_log_sample": 0.0, "search_cache_seconds": 0.0})
    with TestClient(create_app(Services(quiet, graph=watch, embedder=embedder))) as c:
        yield c, watch


def test_reads_over_http_run_only_read_transactions(
    watched: tuple[TestClient, WriteWatch], family: dict[str, str], auth: Callable[[str], dict[str, str]]
) -> None:
    """Search (an entity question included), entry reads, listings, analytics and the export send no statement
    outside a read transaction, so on a cluster all of them can run on secondaries."""
    client, watch = watched
    owner, p = auth(family["owner"]), family["project"]
    watch.writes.clear()
    for q in ("Zanahoria secreta", "¿Con quién fue Josep a Cádiz?"):
        r = client.post("/v1/search", headers=owner, json={"q": q, "project_id": p, "k": 10})
        assert r.status_code == 200 and r.json()["results"], r.text
    for path in (
        f"/v1/entries/{p}/owner-circle",
        f"/v1/projects/{p}/entries",
        "/v1/projects",
        f"/v1/projects/{p}/members",
        f"/v1/projects/{p}/entities",
        f"/v1/projects/{p}/analytics/importance",
        f"/v1/projects/{p}/analytics/cooccurrence?entity=Josep",
        f"/v1/projects/{p}/analytics/timeline?entity=Josep",
        f"/v1/projects/{p}/export",
    ):
        r = client.get(path, headers=owner)
        assert r.status_code == 200, (path, r.text)
    assert watch.writes == [], watch.writes
    # The watch does see writes: a created entry goes through a write transaction.
    assert (
        client.post(
            "/v1/entries",
            headers=owner,
            json={"entry_id": f"{p}/w", "project_id": p, "text": "Una nota nueva.", "intimacy": "circle"},
        ).status_code
        == 201
    )
    assert watch.writes


def test_memora_serve_through_a_routing_uri(settings: Settings, graph: Graph, prefix: str, tmp_path: Path) -> None:
    """`memora serve` with NEO4J_URI=neo4j://<relay> starts (migrations, readiness), writes an entry and finds it by
    search over HTTP; its connections announce routing, it asked for the routing table, the write began in write
    mode, and the search and entry read only in read mode, chained to the write by its bookmark."""
    project, owner = f"{prefix}route", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    headers = {"Authorization": f"Bearer {issue(settings, owner)}"}
    with TcpRelay(bolt_address(settings)) as relay:
        env = {**external_env(settings, f"neo4j://127.0.0.1:{relay.port}"), "MEMORA_EMBED_WORKER": "false"}
        with (
            served_by_memora(tmp_path / "serve.log", env=env) as url,
            httpx.Client(base_url=url, headers=headers, timeout=60) as http,
        ):
            begins, reads = relay.count(BEGIN), relay.count(READ_MODE)
            made = http.post(
                "/v1/entries",
                json={
                    "entry_id": f"{project}/e1",
                    "project_id": project,
                    "intimacy": "circle",
                    "text": f"La {MARK} del puerto de Vigo, que comimos con la tía Maruxa.",
                },
            )
            assert made.status_code == 201, made.text
            assert relay.count(BEGIN) - begins >= 1, "the entry was not written in a transaction (reads begin none)"
            begins, reads, chained = relay.count(BEGIN), relay.count(READ_MODE), relay.count(BOOKMARKS)
            found = http.post("/v1/search", json={"q": MARK, "project_id": project, "k": 5})
            assert found.status_code == 200, found.text
            assert [r["entry_id"] for r in found.json()["results"]][:1] == [f"{project}/e1"]
            assert http.get(f"/v1/entries/{project}/e1").json()["text"].startswith(f"La {MARK}")
            assert relay.count(READ_MODE) - reads >= 2
            assert relay.count(BEGIN) == begins, "a read path began a transaction (reads are auto-commit, read mode)"
            assert relay.count(BOOKMARKS) > chained, "the reads after the write were not chained to it"
            assert relay.count(HELLO_ROUTING) == relay.connections >= 1 and relay.count(ROUTE) >= 1
    assert "Traceback" not in (tmp_path / "serve.log").read_text()
