"""`memora db backup DIR` / `memora db restore DIR` for the managed Neo4j: purge, copy, start.

Neo4j Community has no online backup, and `neo4j-admin database dump` is not among the jars `org.neo4j:neo4j`
resolves (it lives in the server distribution's command-line tooling), so a consistent copy is taken with the server
stopped. A copy of the store files as they are would carry what was deleted (transaction logs, freed records, index
segments: graph/purge.py), so the store is first rebuilt from the live graph (the purge, which leaves the server
stopped), then `$MEMORA_HOME/neo4j/data` is copied with the generated Neo4j password and the token secret, and the
server started again. The service is down for the purge, the copy and the start (measured, in the manifest); a
restore writes the copy into a new `MEMORA_HOME`, whose server then starts on its own port.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graph.purge import purge
from graph.runtime import Neo4jRuntime, RuntimeProblem
from graph.settings import Settings

FORMAT = "memora-backup"
VERSION = 1
SECRET_FILES = ("neo4j-password", "secret")


def _sizes(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_size for p in sorted(root.rglob("*")) if p.is_file()}


def _copy_secret(src: Path, dst: Path) -> None:
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(src.read_bytes())


def backup(settings: Settings, dest: Path, say: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """A stopped-server copy of this home's Neo4j, purged first so that it holds the live graph only, into `dest`
    (new or empty); the server is started again when it was running, even if the purge or the copy fails."""
    if not settings.managed_neo4j:
        raise RuntimeProblem(
            "NEO4J_URI is set: back that server up with its own tools (neo4j-admin, Aura "
            "snapshots); `memora export` copies one project from any server"
        )
    if dest.exists() and any(dest.iterdir()):
        raise RuntimeProblem(f"{dest} is not empty; back up into a new directory")
    runtime = Neo4jRuntime(settings)
    data = runtime.root / "data"
    if not data.is_dir():
        raise RuntimeProblem(f"nothing to back up: {data} does not exist")
    dest.mkdir(parents=True, exist_ok=True)
    was_running = runtime.pid() is not None
    started = time.monotonic()
    stopped_for = 0.0
    try:
        say("rebuilding the store from the live graph (purge) …")
        purged = purge(settings, restart=False, say=say)
        say(f"copying {data} …")
        copy_started = time.monotonic()
        shutil.copytree(data, dest / "data")
        copy_seconds = time.monotonic() - copy_started
        for name in SECRET_FILES:
            if (settings.home / name).exists():
                _copy_secret(settings.home / name, dest / name)
    finally:
        if was_running:
            say("starting Neo4j again …")
            runtime.start()
            stopped_for = time.monotonic() - started
    files = _sizes(dest / "data")
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "method": "purge-copy-start",
        "neo4j_version": settings.neo4j_version,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "source_home": str(settings.home),
        "bolt_port": settings.neo4j_bolt_port,
        "secrets": [n for n in SECRET_FILES if (dest / n).exists()],
        "bytes": sum(files.values()),
        "files": files,
        "purge_seconds": purged["seconds"],
        "copy_seconds": round(copy_seconds, 2),
        "downtime_seconds": round(stopped_for, 2) if was_running else 0.0,
    }
    (dest / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def restore(
    settings: Settings, src: Path, force: bool = False, say: Callable[[str], None] = lambda _: None
) -> dict[str, Any]:
    """Write a backup into this (new, stopped) home; refuses a home that holds data unless `force`."""
    if not settings.managed_neo4j:
        raise RuntimeProblem("NEO4J_URI is set: restore into that server with its own tools")
    try:
        manifest = json.loads((src / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RuntimeProblem(f"{src} is not a memora backup (no readable manifest.json: {exc})") from exc
    if manifest.get("format") != FORMAT or not isinstance(manifest.get("files"), dict):
        raise RuntimeProblem(f"{src}/manifest.json is not a memora backup manifest")
    if manifest.get("neo4j_version") != settings.neo4j_version:
        raise RuntimeProblem(
            f"the backup is of Neo4j {manifest.get('neo4j_version')}, this home runs "
            f"{settings.neo4j_version}; restore with that version"
        )
    if _sizes(src / "data") != manifest["files"]:
        raise RuntimeProblem(f"{src}/data does not match its manifest (files missing or changed); not restoring")
    runtime = Neo4jRuntime(settings)
    if runtime.pid() is not None:
        raise RuntimeProblem(f"this home's Neo4j is running ({runtime.root}); stop it first (`memora db stop`)")
    data = runtime.root / "data"
    taken = [
        p
        for p in (data, *(settings.home / n for n in SECRET_FILES))
        if p.exists() and (not p.is_dir() or any(p.iterdir()))
    ]
    if taken and not force:
        raise RuntimeProblem(
            f"{settings.home} already holds {', '.join(str(p) for p in taken)}; restore into a new "
            "MEMORA_HOME, or pass --force to replace them"
        )
    if data.exists():
        shutil.rmtree(data)
    runtime.root.mkdir(parents=True, exist_ok=True)
    say(f"copying {src / 'data'} into {data} …")
    shutil.copytree(src / "data", data)
    for name in manifest.get("secrets", []):
        if name in SECRET_FILES:
            _copy_secret(src / name, settings.home / name)
    return {
        "restored": str(settings.home),
        "from": str(src),
        "created_at": manifest.get("created_at"),
        "bytes": manifest.get("bytes"),
        "neo4j_version": manifest.get("neo4j_version"),
    }
