"""Waiting for a re-linking job through the API, as a client polls it."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient


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
