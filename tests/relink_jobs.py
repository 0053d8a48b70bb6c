"""Waiting for a re-linking job through the API, as a client polls it; holding an entry a job rewrites, to catch the
job in the middle of its write."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from graph.db import Graph


def wait_relinked(client: TestClient, headers: dict[str, str], project: str, job_id: str) -> dict[str, Any]:
    """The job once done; fails the test if it failed or did not finish within a minute."""
    job: dict[str, Any] = {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = client.get(f"/v1/projects/{project}/relink/{job_id}", headers=headers).json()
        if job["status"] in ("done", "failed"):
            assert job["status"] == "done", job
            return job
        time.sleep(0.1)
    raise AssertionError(f"re-linking did not finish: {job}")


TRANSACTIONS = "SHOW TRANSACTIONS YIELD transactionId, status, metaData"


class HeldEntry:
    """A transaction of the test's own holding one entry's write lock, as a slow writer would: a re-linking job that
    rewrites the entry waits there in the middle of its write (it has read and linked the whole batch), and the
    test can tell, from Neo4j's own list of transactions, who waits for whom."""

    def __init__(self, graph: Graph, entry_id: str) -> None:
        self.graph = graph
        self.token = uuid.uuid4().hex
        self._session = graph.driver.session(database=graph.database)
        self._tx = self._session.begin_transaction(metadata={"memora_test_hold": self.token})
        self._tx.run("MATCH (e:Entry {id: $id}) SET e.id = e.id", id=entry_id).consume()
        self.tx_id = self._own_id()

    def _transactions(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.graph.run_auto(TRANSACTIONS)]

    def _own_id(self) -> str:
        return next(
            str(t["transactionId"])
            for t in self._transactions()
            if (t["metaData"] or {}).get("memora_test_hold") == self.token
        )

    def waiting_for(self, tx_id: str) -> list[str]:
        """The transactions waiting for `tx_id` to end."""
        out = []
        for t in self._transactions():
            status = str(t["status"])
            if status.startswith("Blocked by: [") and tx_id in [s.strip() for s in status[13:-1].split(",")]:
                out.append(str(t["transactionId"]))
        return out

    def wait_until(self, done: Callable[[], bool], what: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.01)

    def release(self) -> None:
        if self._tx.closed():
            return
        self._tx.rollback()
        self._session.close()
