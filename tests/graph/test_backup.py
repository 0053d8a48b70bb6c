"""`memora db backup|restore` and one home, one server, on managed Neo4j servers of their own: a
backup restored into a new MEMORA_HOME on another port answers the same searches with the same ids; a new shell with
only MEMORA_HOME set reaches that home's server; `memora db status` tells this home's server from another's on the
same port. Every server started here is stopped at the end, pass or fail."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from api.auth import secret_of
from graph.backup import backup, restore
from graph.db import Graph
from graph.members import set_member
from graph.runtime import Neo4jRuntime, RuntimeProblem, port_file
from graph.schema import migrate
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor
from ingest.records import parse_line
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

REPO = Path(__file__).resolve().parents[2]
PROJECT, OWNER = "bk-family", "bk-ana"
QUERIES = ("¿qué dijo papá del piso?", "la playa de Cádiz", "Berlín en invierno")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def servers(settings: Settings) -> Iterator[Callable[[Path, int], tuple[Settings, Neo4jRuntime]]]:
    """Settings and a runtime for a home of its own on a port of its own; all of them stopped afterwards."""
    if not (settings.cache_dir / f"neo4j-{settings.neo4j_version}" / "lib").exists():
        pytest.skip("Neo4j jars not cached on this machine (the managed server was never started here)")
    made: list[Neo4jRuntime] = []

    def make(home: Path, port: int) -> tuple[Settings, Neo4jRuntime]:
        local = settings.model_copy(
            update={
                "home": home,
                "neo4j_bolt_port": port,
                "neo4j_uri": None,
                "neo4j_heap": "512m",
                "neo4j_pagecache": "64m",
                "secret": None,
            }
        )
        runtime = Neo4jRuntime(local)
        made.append(runtime)
        return local, runtime

    yield make
    for runtime in made:
        runtime.stop()


def _graph(local: Settings) -> Graph:
    driver = GraphDatabase.driver(local.bolt_uri, auth=("neo4j", Neo4jRuntime(local).password()))
    return Graph(driver, "neo4j")


def _ids(graph: Graph, embedder: CheckedEmbedder, local: Settings) -> list[list[str]]:
    return [
        [
            r.entry_id
            for r in hybrid_search(
                graph, embedder, local, Viewer(user_id=OWNER), q, Scope(project_id=PROJECT), SearchOptions(k=5)
            ).results
        ]
        for q in QUERIES
    ]


def _memora(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """`memora` in a new shell that sets only MEMORA_HOME (no port, no NEO4J_URI)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORA_", "NEO4J_"))}
    env["MEMORA_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *argv], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )


def test_backup_restore_and_one_home_one_server(
    servers: Callable[..., tuple[Settings, Neo4jRuntime]], tmp_path: Path, embedder: CheckedEmbedder
) -> None:
    port_a, port_b = _free_port(), _free_port()
    local_a, runtime_a = servers(tmp_path / "home-a", port_a)
    local_b, runtime_b = servers(tmp_path / "home-b", port_b)
    pool = ThreadPoolExecutor(1)
    starting_b = pool.submit(runtime_b.start)  # an empty installation for the import below, started meanwhile
    assert runtime_a.start().running
    graph_a = _graph(local_a)
    try:
        migrate(graph_a)
        set_member(graph_a, PROJECT, OWNER, "owner")
        rows = [
            {
                "entry_id": f"{PROJECT}/e1",
                "project_id": PROJECT,
                "author": OWNER,
                "occurred_on": "2008-07",
                "text": "Papá dijo que el piso de Lavapiés era demasiado pequeño.",
            },
            {
                "entry_id": f"{PROJECT}/e2",
                "project_id": PROJECT,
                "author": OWNER,
                "places": ["Cádiz"],
                "text": "La playa de Cádiz en verano, con la abuela.",
            },
            {
                "entry_id": f"{PROJECT}/e3",
                "project_id": PROJECT,
                "author": OWNER,
                "intimacy": "private",
                "text": "Berlín en invierno: lloramos en la estación.",
            },
        ]
        items = [(i, parse_line(i, json.dumps(r))) for i, r in enumerate(rows, 1)]
        assert Ingestor(graph_a, embedder).ingest(items).written == 3
        before = _ids(graph_a, embedder, local_a)
        assert all(before), before

        # A new shell with only MEMORA_HOME set finds this home's server (its port is kept in the home).
        assert port_file(local_a.home).read_text().strip() == str(port_a)
        status = _memora(local_a.home, "db", "status", "--json")
        assert status.returncode == 0, status.stderr
        assert json.loads(status.stdout)["uri"] == f"bolt://127.0.0.1:{port_a}"
        assert json.loads(status.stdout)["running"] is True
        # Another checkout whose home names the same port (started there once, or the port was reused) is told
        # that the server on it is not its own, and whose it is.
        other = tmp_path / "home-other"
        port_file(other).parent.mkdir(parents=True)
        port_file(other).write_text(f"{port_a}\n")
        _, runtime_o = servers(other, port_a)
        status_o = runtime_o.status()
        assert not status_o.running
        assert "another checkout's Neo4j" in status_o.detail and str(runtime_a.root) in status_o.detail
        with pytest.raises(RuntimeProblem, match="another checkout"):
            runtime_o.start()
        shell = _memora(other, "db", "status")
        assert shell.returncode == 1 and str(runtime_a.root) in shell.stdout
        assert runtime_a.status().detail == "running"

        secret_of(local_a)  # the token secret, generated in the home: it travels with the backup
        manifest = backup(local_a, tmp_path / "backup")
        assert manifest["method"] == "purge-copy-start" and manifest["neo4j_version"] == local_a.neo4j_version
        assert manifest["bytes"] > 0 and 0 < manifest["downtime_seconds"] < 120
        assert runtime_a.status().running, "the server is started again after the copy"
        assert (tmp_path / "backup" / "neo4j-password").stat().st_mode & 0o077 == 0
        with pytest.raises(RuntimeProblem, match="not empty"):
            backup(local_a, tmp_path / "backup")

        # A family leaving with its data: export from A, import into B while B is an empty installation; the
        # searches give the same ids and B's export is A's, byte for byte.
        exported = tmp_path / "family.jsonl"
        assert _memora(local_a.home, "export", "--project", PROJECT, "--out", str(exported)).returncode == 0
        assert starting_b.result().running
        imported = _memora(local_b.home, "import", str(exported))
        assert imported.returncode == 0, imported.stderr
        graph_b = _graph(local_b)
        try:
            assert _ids(graph_b, embedder, local_b) == before
        finally:
            graph_b.driver.close()
        again = _memora(local_b.home, "export", "--project", PROJECT)
        assert again.returncode == 0 and again.stdout == exported.read_text(encoding="utf-8")
        runtime_b.stop()

        with pytest.raises(RuntimeProblem, match="not a memora backup"):
            restore(local_b, tmp_path)
        with pytest.raises(RuntimeProblem, match="already holds"):
            restore(local_b, tmp_path / "backup")
        restored = restore(local_b, tmp_path / "backup", force=True)
        assert restored["restored"] == str(local_b.home)
        assert runtime_b.start().running
        graph_b = _graph(local_b)
        try:
            assert _ids(graph_b, embedder, local_b) == before
            assert (local_b.home / "secret").read_text() == (local_a.home / "secret").read_text()
        finally:
            graph_b.driver.close()
        with pytest.raises(RuntimeProblem, match="running"):
            restore(local_b, tmp_path / "backup")
        runtime_b.stop()
        with pytest.raises(RuntimeProblem, match="already holds"):
            restore(local_b, tmp_path / "backup")
        assert restore(local_b, tmp_path / "backup", force=True)["restored"] == str(local_b.home)
    finally:
        graph_a.driver.close()
        pool.shutdown()
    runtime_a.stop()
    assert runtime_o.status().detail == "stopped", "a free port is not another's server"
    print(
        f"backup downtime {manifest['downtime_seconds']}s for {manifest['bytes'] / 1e6:.1f} MB "
        f"(copy {manifest['copy_seconds']}s)"
    )
