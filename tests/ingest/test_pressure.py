"""Under pressure, through a real HTTP server on loopback and the real Neo4j: concurrent creates of one
id, a long write that must not stall searches, and a very long query over a project holding a very long entry."""

from __future__ import annotations

import random
import statistics
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from api import auth
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.embedding_jobs import backfill
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions
from tests.serving import serve

VOCAB = (
    "casa perro verano playa abuela cocina lluvia tren carta jardín hospital escuela mercado río montaña fiesta "
    "música libro coche ventana"
).split()


@pytest.fixture(scope="module")
def base_url(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> Iterator[str]:
    """`memora serve`'s app (without its worker) on a free loopback port, in a thread, for the module."""
    with serve(settings, graph, embedder) as url:
        yield url


def bearer(settings: Settings, user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {auth.issue(settings, user)}"}


def prose(words: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(VOCAB) for _ in range(words))


def _post_together(
    base_url: str,
    barrier: threading.Barrier,
    answers: dict[str, httpx.Response],
    who: str,
    headers: dict[str, str],
    body: dict[str, str],
) -> None:
    with httpx.Client(base_url=base_url, timeout=60) as http:
        barrier.wait()
        answers[who] = http.post("/v1/entries", json=body, headers=headers)


def test_concurrent_creates_of_one_id_give_one_201_and_keep_that_entry(
    base_url: str, settings: Settings, family: dict[str, str]
) -> None:
    """Twenty races of an owner's private entry against a coauthor's circle one, same id, released together."""
    project = family["project"]
    writers = {"owner": ("private", "Lo que solo yo sé"), "coauthor": ("circle", "Lo que todos saben")}
    for round_ in range(20):
        entry_id = f"{project}/race-{round_}"
        barrier = threading.Barrier(len(writers))
        answers: dict[str, httpx.Response] = {}
        threads = [
            threading.Thread(
                target=_post_together,
                args=(
                    base_url,
                    barrier,
                    answers,
                    who,
                    bearer(settings, family[who]),
                    {"project_id": project, "entry_id": entry_id, "intimacy": lvl, "text": f"{txt} {round_}."},
                ),
            )
            for who, (lvl, txt) in writers.items()
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        statuses = sorted(r.status_code for r in answers.values())
        assert statuses == [201, 409], {w: (r.status_code, r.text) for w, r in answers.items()}
        winner = next(w for w, r in answers.items() if r.status_code == 201)
        with httpx.Client(base_url=base_url, timeout=60) as http:
            stored = http.get(f"/v1/entries/{entry_id}", headers=bearer(settings, family[winner])).json()
        level, text = writers[winner]
        assert (stored["author"], stored["intimacy"], stored["text"]) == (family[winner], level, f"{text} {round_}."), (
            "the stored entry is the acknowledged one"
        )


def _search_times(
    base_url: str, headers: dict[str, str], project: str, stop: threading.Event | None, count: int
) -> list[float]:
    times: list[float] = []
    with httpx.Client(base_url=base_url, timeout=120) as http:
        while len(times) < count or (stop is not None and not stop.is_set()):
            t = time.perf_counter()
            resp = http.post(
                "/v1/search",
                json={"q": "qué pasó en la cocina de la abuela aquel verano", "project_id": project, "k": 10},
                headers=headers,
            )
            times.append(time.perf_counter() - t)
            assert resp.status_code == 200, resp.text
    return times


def _p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1] if len(times) >= 2 else times[0]


# Serial: it counts what one backfill claims of the write's pending chunks, and the embedding worker of any `memora
# serve` another test module runs claims every project's pending chunks.
@pytest.mark.serial
def test_a_long_write_is_acknowledged_on_commit_and_never_stalls_searches(
    base_url: str, settings: Settings, graph: Graph, embedder: CheckedEmbedder, family: dict[str, str]
) -> None:
    project, headers = family["project"], bearer(settings, family["owner"])
    baseline = _search_times(base_url, headers, project, None, 12)

    ack: dict[str, Any] = {}
    done = threading.Event()

    def write() -> None:
        with httpx.Client(base_url=base_url, timeout=300) as http:
            t = time.perf_counter()
            resp = http.post(
                "/v1/entries",
                headers=headers,
                json={
                    "project_id": project,
                    "entry_id": f"{project}/long",
                    "kind": "chronicle",
                    "text": prose(30_000, 7)[:199_000],
                },
            )
            ack.update(status=resp.status_code, body=resp.json(), seconds=time.perf_counter() - t)
        done.set()

    writer = threading.Thread(target=write)
    writer.start()
    during = _search_times(base_url, headers, project, done, 8)
    writer.join(300)

    assert ack["status"] == 201 and ack["body"]["embedding"] == "pending", ack
    assert ack["seconds"] < 15, f"a 200 KB write is acknowledged once committed, not once embedded: {ack}"
    assert _p95(during) <= 2 * _p95(baseline) + 0.25, (
        f"searches during the write: p95 {_p95(during):.3f} s vs {_p95(baseline):.3f} s before"
    )

    pending = graph.read(
        "MATCH (c:Chunk {entry_id: $id}) RETURN count(c) AS n, "
        "count(CASE WHEN c.embedding_status = 'done' THEN 1 END) AS done",
        {"id": f"{project}/long"},
    )
    assert pending[0]["n"] > 50 and pending[0]["done"] == 0
    stats = backfill(graph, embedder, project_id=project, max_batches=1, batch_size=8)
    assert stats.embedded == 8, "the worker's backfill embeds what the write left pending"


def test_a_ten_thousand_character_query_over_a_200_kb_entry_answers_in_under_a_second(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Any
) -> None:
    project, user = f"{prefix}big", f"{prefix}ana"
    set_member(graph, project, user, "owner")
    rows = [
        {
            "entry_id": f"{project}/big",
            "project_id": project,
            "author": user,
            "kind": "chronicle",
            "occurred_on": "2008-07",
            "text": prose(30_000, 1)[:199_000],
        }
    ]
    rows += [
        {"entry_id": f"{project}/e{i}", "project_id": project, "author": user, "text": prose(40, 100 + i)}
        for i in range(30)
    ]
    from ingest.pipeline import Ingestor
    from ingest.records import parse_line

    items = [(i, parse_line(i, __import__("json").dumps(r, ensure_ascii=False))) for i, r in enumerate(rows, 1)]
    assert Ingestor(graph, embedder, embed=False).ingest(items).written == len(rows)
    query = prose(2_000, 3)[:10_000]
    assert len(query) == 10_000

    def once() -> tuple[float, Any]:
        t = time.perf_counter()
        resp = hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=user),
            query,
            Scope(project_id=project),
            SearchOptions(k=50, include_chunks=True),
        )
        return time.perf_counter() - t, resp

    once()  # the first call plans each Cypher statement once per server
    runs = [once() for _ in range(3)]
    best, resp = min(runs, key=lambda r: r[0])
    assert f"{project}/big" in [r.entry_id for r in resp.results]
    assert best < 1.0, f"best of three: {best:.2f} s ({resp.latency_ms})"
