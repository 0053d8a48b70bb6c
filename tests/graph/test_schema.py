"""Versioned migrations on the real Neo4j: applied once, edits refused, indexes online."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.db import Graph
from graph.schema import (
    MIGRATIONS_DIR,
    MigrationError,
    discover,
    ensure_vector_index,
    migrate,
    vector_index_name,
    vector_property,
)
from inference.embedders import CheckedEmbedder


@pytest.fixture()
def probe_version(graph: Graph) -> Iterator[int]:
    """A migration version no real file uses; its Migration record is removed afterwards."""
    taken = {m.version for m in discover()} | {r["v"] for r in graph.read("MATCH (m:Migration) RETURN m.version AS v")}
    version = random.choice([v for v in range(900, 1000) if v not in taken])
    yield version
    graph.write("MATCH (m:Migration {version: $v}) DETACH DELETE m", {"v": version})


def copy_migrations(target: Path) -> Path:
    target.mkdir()
    for path in MIGRATIONS_DIR.glob("*.cypher"):
        shutil.copy(path, target / path.name)
    return target


def probe_count(graph: Graph, project_id: str) -> int:
    return int(graph.read("MATCH (p:Project {id: $id}) RETURN count(p) AS n", {"id": project_id})[0]["n"])


def test_migrate_twice_applies_nothing_new(graph: Graph) -> None:
    migrate(graph)  # whatever is pending (the session fixture already migrated)
    recorded_before = {r["v"]: r["c"] for r in graph.read("MATCH (m:Migration) RETURN m.version AS v, m.checksum AS c")}
    assert migrate(graph) == []
    recorded_after = {r["v"]: r["c"] for r in graph.read("MATCH (m:Migration) RETURN m.version AS v, m.checksum AS c")}
    assert recorded_after == recorded_before
    for mig in discover():
        assert recorded_after[mig.version] == mig.checksum


def test_new_migration_runs_exactly_once(graph: Graph, prefix: str, probe_version: int, tmp_path: Path) -> None:
    directory = copy_migrations(tmp_path / "migrations")
    project_id = f"{prefix}migration-probe"
    name = f"{probe_version}_probe.cypher"
    # CREATE (not MERGE): running the file twice would leave two nodes.
    (directory / name).write_text(f"// test probe\nCREATE (:Project {{id: '{project_id}', name: 'probe'}});\n")

    assert migrate(graph, directory=directory) == [name]
    assert probe_count(graph, project_id) == 1
    assert migrate(graph, directory=directory) == []
    assert probe_count(graph, project_id) == 1
    recorded = graph.read("MATCH (m:Migration {version: $v}) RETURN m.name AS name", {"v": probe_version})
    assert [r["name"] for r in recorded] == ["probe"]


def test_edited_applied_migration_is_refused(graph: Graph, prefix: str, probe_version: int, tmp_path: Path) -> None:
    directory = copy_migrations(tmp_path / "migrations")
    first = directory / "001_constraints.cypher"
    data = bytearray(first.read_bytes())
    data[-1:] = b" " if data[-1:] != b" " else b"\n"  # one byte changed, same statements
    first.write_bytes(bytes(data))
    # A pending migration after the edited one must not run either.
    project_id = f"{prefix}must-not-exist"
    (directory / f"{probe_version}_after_edit.cypher").write_text(f"CREATE (:Project {{id: '{project_id}'}});\n")

    with pytest.raises(MigrationError, match="001_constraints"):
        migrate(graph, directory=directory)
    assert probe_count(graph, project_id) == 0
    assert not graph.read("MATCH (m:Migration {version: $v}) RETURN m", {"v": probe_version})
    migrate(graph)  # the real directory is still accepted


@pytest.mark.parametrize("name", ["1_x.cypher", "001-constraints.cypher", "001_Upper.cypher", "abc_x.cypher"])
def test_misnamed_migration_is_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("RETURN 1;")
    with pytest.raises(MigrationError):
        discover(tmp_path)


def test_duplicate_version_is_refused(tmp_path: Path) -> None:
    (tmp_path / "001_a.cypher").write_text("RETURN 1;")
    (tmp_path / "001_b.cypher").write_text("RETURN 2;")
    with pytest.raises(MigrationError):
        discover(tmp_path)


def test_statements_skip_comments(tmp_path: Path) -> None:
    path = tmp_path / "001_x.cypher"
    path.write_text("// a; comment\nRETURN 1;\n  // another\nRETURN 2;\n;\n")
    assert [s for m in discover(tmp_path) for s in m.statements()] == ["RETURN 1", "RETURN 2"]


def test_search_indexes_are_online(graph: Graph, embedder: CheckedEmbedder) -> None:
    rows = {
        r["name"]: r for r in graph.read("SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties RETURN *")
    }
    vector = rows[vector_index_name(embedder.slug)]
    assert (vector["type"], vector["state"]) == ("VECTOR", "ONLINE")
    assert vector["labelsOrTypes"] == ["Chunk"] and vector["properties"] == [vector_property(embedder.slug)]
    text = rows["entry_text_v2"]
    assert (text["type"], text["state"]) == ("FULLTEXT", "ONLINE")
    assert set(text["properties"]) == {"body", "title", "names", "context"}
    names = rows["entity_names"]
    assert (names["type"], names["state"]) == ("FULLTEXT", "ONLINE")
    assert "entry_text" not in rows, "migration 005 replaced the first fulltext index"


def test_vector_index_matches_the_embedder(graph: Graph, embedder: CheckedEmbedder) -> None:
    options = graph.read(
        "SHOW VECTOR INDEXES YIELD name, options WHERE name = $name RETURN options",
        {"name": vector_index_name(embedder.slug)},
    )[0]["options"]["indexConfig"]
    assert int(options["vector.dimensions"]) == embedder.dimensions
    assert options["vector.similarity_function"].lower() == "cosine"
    assert ensure_vector_index(graph, embedder.slug, embedder.dimensions) == vector_index_name(embedder.slug)


def test_ensure_vector_index_refuses_a_dimension_change(graph: Graph, embedder: CheckedEmbedder) -> None:
    with pytest.raises(MigrationError, match="dimensions"):
        ensure_vector_index(graph, embedder.slug, embedder.dimensions + 1)


@pytest.mark.parametrize(
    "slug",
    [
        "",
        "E5small",
        "1model",
        "bad-slug",
        "x y",
        "x`) DETACH DELETE n //",
        "a" * 42,
        "émbed",
    ],
)
def test_ensure_vector_index_rejects_bad_slugs(graph: Graph, slug: str) -> None:
    before = {r["name"] for r in graph.read("SHOW INDEXES YIELD name RETURN name")}
    with pytest.raises(ValueError, match="slug"):
        ensure_vector_index(graph, slug, 384)
    assert {r["name"] for r in graph.read("SHOW INDEXES YIELD name RETURN name")} <= before


@pytest.mark.parametrize("dimensions", [0, -1, 4097])
def test_ensure_vector_index_rejects_bad_dimensions(graph: Graph, dimensions: int) -> None:
    with pytest.raises(ValueError, match="dimensions"):
        ensure_vector_index(graph, "memora_test_never_created", dimensions)
    assert not graph.read("SHOW INDEXES YIELD name WHERE name = 'chunk_vec_memora_test_never_created' RETURN name")


def test_slug_with_trailing_newline_is_rejected() -> None:
    with pytest.raises(ValueError, match="slug"):
        vector_index_name("e5small\n")
