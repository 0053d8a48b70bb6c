"""The managed Neo4j runtime: clear errors when Java or Maven is missing or the port is taken, data that survives a
restart (a second server in its own MEMORA_HOME, on its own port), and one server when two processes start it at
once."""

from __future__ import annotations

import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError

from graph.runtime import Neo4jRuntime, RuntimeProblem
from graph.settings import Settings

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _servers_of(home: Path) -> int:
    """Neo4j processes running with this home, however they were started."""
    flag = f"--home-dir={home}".encode()
    count = 0
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            count += flag in cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
    return count


def test_missing_java_is_reported_with_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    local = settings.model_copy(update={"home": tmp_path / "home", "cache_dir": tmp_path / "cache", "neo4j_uri": None})
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    with pytest.raises(RuntimeProblem, match="Java"):
        Neo4jRuntime(local).ensure_jars()


def test_missing_maven_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    import shutil

    java = shutil.which("java")
    if java is None:
        pytest.skip("no java on this machine")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "java").symlink_to(java)
    local = settings.model_copy(update={"home": tmp_path / "home", "cache_dir": tmp_path / "cache", "neo4j_uri": None})
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(RuntimeProblem, match="Maven"):
        Neo4jRuntime(local).ensure_jars()


def test_a_busy_port_is_reported(tmp_path: Path, settings: Settings) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        local = settings.model_copy(update={"home": tmp_path / "home", "neo4j_bolt_port": port, "neo4j_uri": None})
        with pytest.raises(RuntimeProblem, match=str(port)):
            Neo4jRuntime(local).start()


def test_data_survives_a_restart_two_starts_share_one_server_and_the_password_changes(
    tmp_path: Path, settings: Settings
) -> None:
    if not (settings.cache_dir / f"neo4j-{settings.neo4j_version}" / "lib").exists():
        pytest.skip("Neo4j jars not cached on this machine (the managed server was never started here)")
    port = _free_port()
    local = settings.model_copy(
        update={
            "home": tmp_path / "home",
            "neo4j_bolt_port": port,
            "neo4j_uri": None,
            "neo4j_heap": "512m",
            "neo4j_pagecache": "64m",
        }
    )
    runtime = Neo4jRuntime(local)
    try:
        status = runtime.start()
        assert status.running and status.managed
        password = runtime.password()
        assert password != "neo4j"
        with GraphDatabase.driver(local.bolt_uri, auth=("neo4j", password)) as drv:
            drv.execute_query("CREATE (:Survivor {name: $n})", n="Berlín")
        with pytest.raises(AuthError), GraphDatabase.driver(local.bolt_uri, auth=("neo4j", "neo4j")) as drv:
            drv.verify_connectivity()
        assert not runtime.stop().running
        with ThreadPoolExecutor(2) as pool:
            starts = list(pool.map(lambda _: Neo4jRuntime(local).start(), range(2)))
        assert all(s.running for s in starts) and starts[0].pid == starts[1].pid == runtime.pid()
        assert _servers_of(tmp_path / "home" / "neo4j") == 1
        with GraphDatabase.driver(local.bolt_uri, auth=("neo4j", password)) as drv:
            records, _, _ = drv.execute_query("MATCH (s:Survivor) RETURN s.name AS name")
        assert [r["name"] for r in records] == ["Berlín"]
        conf = (tmp_path / "home" / "neo4j" / "conf" / "neo4j.conf").read_text()
        assert "server.default_listen_address=127.0.0.1" in conf and "server.http.enabled=false" in conf
    finally:
        runtime.stop()
