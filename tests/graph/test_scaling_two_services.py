"""Two `memora serve` processes on one Neo4j, as two replicas behind a load balancer: what one writes the other reads
at once, its caches included (they are keyed by generations stored in the graph, not by anything in the process);
a create of one entry id through both at once succeeds once; their embedding workers share the pending chunks by
leases in the graph, each chunk embedded once.

Both processes are started once for the module, together, with NEO4J_URI (neither manages a server)."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from api.auth import issue
from bench.serving import several_served_by_memora
from graph.db import Graph
from graph.members import set_member
from graph.schema import vector_property
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from tests.ingest.test_worker_leases import STORED_TWICE, embedded, final_state, leases, owner_of, pending_project
from tests.scaling import external_env

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

Replica = tuple[subprocess.Popen[str], httpx.Client]
LEASE_SECONDS = 4.0


@pytest.fixture(scope="module")
def replicas(settings: Settings, graph: Graph, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Replica]]:
    logs = [tmp_path_factory.mktemp("replicas") / f"serve{i}.log" for i in range(2)]
    uri = settings.neo4j_uri or f"neo4j://127.0.0.1:{settings.neo4j_bolt_port}"
    env = {
        **external_env(settings, uri),
        "MEMORA_EMBED_LEASE_SECONDS": str(LEASE_SECONDS),
        "MEMORA_EMBED_WORKER_INTERVAL_SECONDS": "0.3",
        # The test database is shared with tests running beside this one: no re-linking of their projects.
        "MEMORA_RELINK_RESUME": "false",
    }  # both workers wake before the first batch is embedded
    with several_served_by_memora(logs, env=env) as served:
        clients = [httpx.Client(base_url=url, timeout=60) for _, url in served]
        try:
            yield [(proc, c) for (proc, _), c in zip(served, clients, strict=True)]
        finally:
            for c in clients:
                c.close()
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


@pytest.fixture()
def owner(settings: Settings, graph: Graph, prefix: str) -> tuple[str, dict[str, str]]:
    project, user = f"{prefix}two", f"{prefix}owner"
    set_member(graph, project, user, "owner")
    return project, {"Authorization": f"Bearer {issue(settings, user)}"}


def _answer(http: httpx.Client, headers: dict[str, str], project: str, q: str) -> dict[str, Any]:
    r = http.post("/v1/search", headers=headers, json={"q": q, "project_id": project, "k": 10})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _search(http: httpx.Client, headers: dict[str, str], project: str, q: str) -> tuple[list[str], bool]:
    """The ids found, and whether the answer came from the process's result cache."""
    body = _answer(http, headers, project, q)
    return [x["entry_id"] for x in body["results"]], "cache" in body["latency_ms"]


def _entries_of(http: httpx.Client, headers: dict[str, str], project: str, person: str) -> int | None:
    r = http.get(f"/v1/projects/{project}/analytics/importance", headers=headers, params={"kind": "person"})
    assert r.status_code == 200, r.text
    return next((row["entries"] for row in r.json() if row["name"] == person), None)


def test_what_one_replica_writes_the_other_reads_at_once_caches_included(
    replicas: list[Replica], owner: tuple[str, dict[str, str]]
) -> None:
    (_, a), (_, b) = replicas
    project, h = owner
    e1, e2 = f"{project}/e1", f"{project}/e2"
    made = a.post(
        "/v1/entries",
        headers=h,
        json={
            "entry_id": e1,
            "project_id": project,
            "intimacy": "circle",
            "persons": ["Josep"],
            "text": "La Zanahoria morada de la huerta de Josep, en Lleida.",
        },
    )
    assert made.status_code == 201, made.text

    # B reads A's write: the entry, a search, an entity aggregate.
    assert b.get(f"/v1/entries/{e1}", headers=h).json()["text"].startswith("La Zanahoria")
    assert _search(b, h, project, "Zanahoria")[0][:1] == [e1]
    assert _entries_of(b, h, project, "Josep") == 1
    # A's caches are warm for the same questions: a repeated search is a hit once the workers' follow-up writes
    # (vectors stored for pending chunks by either replica's embedding worker) have landed and moved the generations.
    deadline = time.monotonic() + 30
    _search(a, h, project, "Zanahoria")
    while True:
        ids, hit = _search(a, h, project, "Zanahoria")
        assert ids[:1] == [e1]
        if hit:
            break
        assert time.monotonic() < deadline, "A never served a repeated search from its cache"
        time.sleep(0.2)
    assert _entries_of(a, h, project, "Josep") == 1

    # Writes through B: a new entry, an edit, then a delete; A sees each on its very next request.
    assert (
        b.post(
            "/v1/entries",
            headers=h,
            json={
                "entry_id": e2,
                "project_id": project,
                "intimacy": "circle",
                "persons": ["Josep"],
                "text": "Josep nos enseñó a podar el Manzano viejo.",
            },
        ).status_code
        == 201
    )
    ids, hit = _search(a, h, project, "Zanahoria")
    assert not hit, "A served a search cached before B's write"
    assert _entries_of(a, h, project, "Josep") == 2, "A served an aggregate cached before B's write"
    assert _search(a, h, project, "Manzano")[0][:1] == [e2]

    edited = b.patch(f"/v1/entries/{e1}", headers=h, json={"text": "Una Berenjena sin nombre."})
    assert edited.status_code == 200, edited.text
    assert a.get(f"/v1/entries/{e1}", headers=h).json()["text"] == "Una Berenjena sin nombre."
    after_edit = _answer(a, h, project, "Zanahoria")
    assert "cache" not in after_edit["latency_ms"]
    assert not any("Zanahoria" in r["snippet_md"] for r in after_edit["results"]), "A served the text before the edit"
    assert _search(a, h, project, "Berenjena")[0][:1] == [e1]

    assert _entries_of(a, h, project, "Josep") == 2  # warm again
    assert b.delete(f"/v1/entries/{e2}", headers=h).status_code == 200
    assert a.get(f"/v1/entries/{e2}", headers=h).status_code == 404
    assert _entries_of(a, h, project, "Josep") == 1
    assert e2 not in _search(a, h, project, "Manzano")[0]


def test_one_entry_id_created_through_both_replicas_at_once_succeeds_once(
    replicas: list[Replica], owner: tuple[str, dict[str, str]], graph: Graph
) -> None:
    """Each round sends the same new id to both replicas at the same instant: one 201 and one 409, and the graph
    holds one entry (with one set of chunks) whose text is the winner's."""
    project, h = owner
    rounds = 6
    for i in range(rounds):
        entry_id = f"{project}/race{i}"
        answers: dict[int, httpx.Response] = {}
        start = threading.Barrier(2)

        def create(
            n: int, http: httpx.Client, entry_id: str, start: threading.Barrier, answers: dict[int, httpx.Response]
        ) -> None:
            start.wait()
            answers[n] = http.post(
                "/v1/entries",
                headers=h,
                json={
                    "entry_id": entry_id,
                    "project_id": project,
                    "intimacy": "circle",
                    "text": f"Versión {n} de la misma nota sobre el Membrillo.",
                },
            )

        threads = [
            threading.Thread(target=create, args=(n, http, entry_id, start, answers))
            for n, (_, http) in enumerate(replicas)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        codes = sorted(r.status_code for r in answers.values())
        assert codes == [201, 409], [r.text for r in answers.values()]
        winner = next(n for n, r in answers.items() if r.status_code == 201)
        stored = graph.read(
            "MATCH (e:Entry {id: $id}) OPTIONAL MATCH (c:Chunk)-[:OF]->(e) "
            "RETURN count(DISTINCT e) AS entries, collect(c.text) AS chunks",
            {"id": entry_id},
        )[0]
        assert stored["entries"] == 1
        assert stored["chunks"] and all(f"Versión {winner} " in t for t in stored["chunks"]), stored["chunks"]


def test_each_replicas_worker_embeds_a_share_and_every_chunk_once(
    replicas: list[Replica], graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any]
) -> None:
    """Chunks left pending (the model was down at ingest) are embedded by the two replicas' workers: both claim
    some, every chunk is stored exactly once, no lease remains."""
    project, chunks = f"{prefix}emb", 320
    pending_project(ingest, embedder, project, chunks)
    prop, owners = vector_property(embedder.slug), set()
    # A bound on liveness, not a speed figure: on 2 cores beside another test module, five batches of 64 chunks
    # through two replicas have taken over two minutes.
    deadline = time.monotonic() + 300
    while embedded(graph, project, prop) < chunks:
        owners |= set(leases(graph, project))
        assert time.monotonic() < deadline, f"chunks stuck: {embedded(graph, project, prop)}/{chunks}"
        time.sleep(0.05)
    mine = [owner_of(proc, owners) for proc, _ in replicas]
    assert all(mine), f"a replica's worker claimed nothing: {owners}"
    state = final_state(graph, project, embedder)
    assert len(state) == chunks and all(s["has_vector"] and s["stores"] == 1 for s in state)
    assert all(s["owner"] is None for s in state), "a lease remains"
    assert graph.read(STORED_TWICE, {"p": project})[0]["n"] == 0
