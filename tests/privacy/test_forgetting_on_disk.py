"""Forgetting reaches the disk: after an entry delete, the forget of a person, a member leaving with their entries and
a project delete, then the purge (`memora db purge`, which `memora db backup` runs before it copies), no file of the
Neo4j home (transaction logs, store files, fulltext and vector index files) holds a word of the forgotten texts or
names, and neither does the backup; a word of an entry that stays is found in both, and the purged server finds it.

On a managed server of its own (a home and a port of its own, stopped at the end), in the serial part: the purge
stops and starts it."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graph.backup import backup
from graph.db import Graph
from graph.entities import find_visible_entity
from graph.generations import STEPS_KEPT
from graph.members import set_member
from graph.project_deletion import delete_project
from graph.purge import due_since
from graph.runtime import Neo4jRuntime
from graph.schema import migrate
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.departure import leave_project
from ingest.forget import forget, plan_forget
from ingest.pipeline import Ingestor
from ingest.records import parse_line
from ingest.relink import relink_project
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

pytestmark = [pytest.mark.slow, pytest.mark.neo4j, pytest.mark.serial]

P, GONE_P = "dk-family", "dk-gone"
OWNER, LEAVER = "dk-ana", "dk-leo"
# One word per way of forgetting, and the forgotten person's names; KEPT is an entry that stays.
DELETED, PERSON, LEFT, PROJECT_WORD, KEPT = (
    "Xylobrantic",
    "Zenobia Quillfeather",
    "Marzipanoid",
    "Glimmerwort",
    "Sunpebble",
)
FORGOTTEN = (DELETED, "Zenobia", "Quillfeather", LEFT, PROJECT_WORD)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def own(settings: Settings, tmp_path: Path) -> Iterator[tuple[Settings, Neo4jRuntime]]:
    if not (settings.cache_dir / f"neo4j-{settings.neo4j_version}" / "lib").exists():
        pytest.skip("Neo4j jars not cached on this machine (the managed server was never started here)")
    local = settings.model_copy(
        update={
            "home": tmp_path / "home",
            "neo4j_bolt_port": _free_port(),
            "neo4j_uri": None,
            "neo4j_heap": "512m",
            "neo4j_pagecache": "64m",
            "secret": None,
        }
    )
    runtime = Neo4jRuntime(local)
    yield local, runtime
    runtime.stop()


def _graph(local: Settings) -> Graph:
    return Graph(GraphDatabase.driver(local.bolt_uri, auth=("neo4j", Neo4jRuntime(local).password())), "neo4j")


def grep_files(root: Path, words: tuple[str, ...]) -> dict[str, list[str]]:
    """For each word found (case ignored, as UTF-8 bytes), the files under `root` that hold it."""
    needles = {w: w.lower().encode() for w in words}
    found: dict[str, list[str]] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes().lower()
        for word, needle in needles.items():
            if needle in data:
                found.setdefault(word, []).append(path.relative_to(root).as_posix())
    return found


def _records(rows: list[dict[str, object]]) -> list[tuple[int, object]]:
    return [(i, parse_line(i, json.dumps(r, ensure_ascii=False))) for i, r in enumerate(rows, 1)]


def _world(graph: Graph, embedder: CheckedEmbedder) -> None:
    set_member(graph, P, OWNER, "owner")
    set_member(graph, P, LEAVER, "coauthor")
    set_member(graph, GONE_P, OWNER, "owner")
    filler = "Bajamos a la playa antes de que apretara el calor y comimos sardinas en el puerto. " * 3
    rows: list[dict[str, object]] = [
        {"entry_id": f"{P}/kept", "project_id": P, "author": OWNER, "text": f"El {KEPT} de la abuela. {filler}"},
        {
            "entry_id": f"{P}/deleted",
            "project_id": P,
            "author": OWNER,
            "intimacy": "private",
            "text": f"Un {DELETED} en el desván de Vigo. {filler}",
        },
        {"entry_id": f"{GONE_P}/e1", "project_id": GONE_P, "author": OWNER, "text": f"El {PROJECT_WORD}. {filler}"},
    ]
    rows += [
        {
            "entry_id": f"{P}/named{i}",
            "project_id": P,
            "author": OWNER,
            "persons": [PERSON],
            "text": f"{PERSON} vino a cenar, día {i}. {filler}",
        }
        for i in range(3)
    ]
    rows += [
        {"entry_id": f"{P}/left{i}", "project_id": P, "author": LEAVER, "text": f"El {LEFT} de Leo, {i}. {filler}"}
        for i in range(2)
    ]
    report = Ingestor(graph, embedder).ingest(_records(rows))
    assert not report.errors and report.written == len(rows)


def _forget_all(graph: Graph, embedder: CheckedEmbedder) -> None:
    owner = Viewer(user_id=OWNER)
    assert Ingestor(graph, embedder, embed=False, source="api", writer=owner).delete(f"{P}/deleted")
    entity = find_visible_entity(graph, P, owner, PERSON)
    assert entity is not None
    forget(graph, embedder, plan_forget(graph, entity, owner, True), owner)
    relink_project(graph, embedder, P)
    assert leave_project(graph, embedder, P, LEAVER, True).entries_deleted == 2
    assert delete_project(graph, GONE_P)["Entry"] == 1


def test_forgotten_texts_and_names_leave_the_disk_and_the_backup(
    own: tuple[Settings, Neo4jRuntime], tmp_path: Path, embedder: CheckedEmbedder
) -> None:
    local, runtime = own
    assert runtime.start().running
    graph = _graph(local)
    try:
        migrate(graph)
        _world(graph, embedder)
        assert due_since(graph) is None, "writing new entries removes nothing: no purge is due"
        _forget_all(graph, embedder)
        assert due_since(graph) is not None, "a purge is due once something was removed"
        # The graph no longer names the forgotten person anywhere, the generation steps included.
        steps = graph.read("MATCH (s:GenerationStep) RETURN s.entity_ids AS ids", {})
        assert not [ids for r in steps for ids in [r["ids"] or []] if any("quillfeather" in x for x in ids)]
        assert len(steps) <= 3 * STEPS_KEPT
    finally:
        graph.driver.close()
    # Before the purge the disk still holds them: the transaction log keeps every deleted record's before-image.
    before = grep_files(runtime.root, (*FORGOTTEN, KEPT))
    assert KEPT in before and set(FORGOTTEN) & set(before), before

    # The backup purges first (graph/backup.py): the home and the copy both hold the live graph only.
    manifest = backup(local, tmp_path / "backup")
    assert manifest["method"] == "purge-copy-start" and runtime.status().running
    after = grep_files(runtime.root, (*FORGOTTEN, KEPT))
    assert not {w: f for w, f in after.items() if w != KEPT}, after
    assert any(f.startswith("data/transactions/") for f in after[KEPT]), after
    assert any("fulltext" in f for f in after[KEPT]), "the fulltext index files are read too"
    copied = grep_files(tmp_path / "backup", (*FORGOTTEN, KEPT))
    assert set(copied) == {KEPT}, copied

    # The purged store serves: the keyword channel finds the entry that stays.
    graph = _graph(local)
    try:
        found = hybrid_search(
            graph, embedder, local, Viewer(user_id=OWNER), KEPT, Scope(project_id=P), SearchOptions(k=3)
        ).results
        assert [r.entry_id for r in found][:1] == [f"{P}/kept"]
        assert due_since(graph) is None, "the purged store owes nothing"
    finally:
        graph.driver.close()
    print(f"backup of a small home: purge {manifest['purge_seconds']} s, downtime {manifest['downtime_seconds']} s")
