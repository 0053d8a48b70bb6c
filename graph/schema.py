"""Versioned schema: numbered Cypher files in `migrations/`, applied once each and recorded in the graph."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from graph.db import Graph
from graph.keyword_terms import fill_terms
from graph.settings import REPO_ROOT

MIGRATIONS_DIR = REPO_ROOT / "migrations"
_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.cypher$")
_SLUG = re.compile(r"^[a-z][a-z0-9_]{0,40}$")

APPLIED = "MATCH (m:Migration) RETURN m.version AS version, m.name AS name, m.checksum AS checksum"
RECORD = """
MERGE (m:Migration {version: $version})
SET m.name = $name, m.checksum = $checksum, m.applied_at = datetime()
"""


class MigrationError(RuntimeError):
    """An applied migration was edited, or a file is misnamed: refuse rather than drift."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path
    checksum: str

    def statements(self) -> list[str]:
        text = "\n".join(line for line in self.path.read_text().splitlines() if not line.strip().startswith("//"))
        return [stmt.strip() for stmt in text.split(";") if stmt.strip()]


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found = []
    for path in sorted(directory.glob("*.cypher")):
        match = _NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file {path.name} must be named NNN_snake_name.cypher")
        checksum = hashlib.sha256(path.read_bytes()).hexdigest()
        found.append(Migration(int(match.group(1)), match.group(2), path, checksum))
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise MigrationError("two migration files share a version number")
    return found


def migrate(graph: Graph, directory: Path = MIGRATIONS_DIR, await_seconds: int = 300) -> list[str]:
    """Apply pending migrations in order; return the names applied. Idempotent."""
    graph.run_auto("CREATE CONSTRAINT migration_version IF NOT EXISTS FOR (m:Migration) REQUIRE m.version IS UNIQUE")
    applied = {r["version"]: r for r in graph.read(APPLIED)}
    done: list[str] = []
    for mig in discover(directory):
        previous = applied.get(mig.version)
        if previous is not None:
            if previous["checksum"] != mig.checksum:
                raise MigrationError(
                    f"migration {mig.path.name} was edited after it was applied "
                    f"(recorded checksum {previous['checksum'][:12]}, file {mig.checksum[:12]}); "
                    "add a new migration instead of editing an applied one"
                )
            continue
        for stmt in mig.statements():
            graph.run_auto(stmt)
        graph.write(RECORD, {"version": mig.version, "name": mig.name, "checksum": mig.checksum})
        done.append(mig.path.name)
    graph.run_auto("CALL db.awaitIndexes($seconds)", {"seconds": await_seconds})
    fill_terms(graph)
    return done


def vector_index_name(slug: str) -> str:
    return f"chunk_vec_{_check_slug(slug)}"


def vector_property(slug: str) -> str:
    return f"emb_{_check_slug(slug)}"


def ensure_vector_index(graph: Graph, slug: str, dimensions: int, await_seconds: int = 300) -> str:
    """Create the vector index of one embedding model version (schema names cannot be parameters)."""
    name, prop = vector_index_name(slug), vector_property(slug)
    if not 1 <= dimensions <= 4096:
        raise ValueError(f"vector dimensions must be 1..4096, got {dimensions}")
    existing = graph.read("SHOW VECTOR INDEXES YIELD name, options WHERE name = $name RETURN options", {"name": name})
    if existing:
        stored = existing[0]["options"]["indexConfig"]["vector.dimensions"]
        if int(stored) != dimensions:
            raise MigrationError(f"vector index {name} has {stored} dimensions, the model returns {dimensions}")
        return name
    graph.run_auto(
        f"CREATE VECTOR INDEX {name} IF NOT EXISTS FOR (n:Chunk) ON (n.{prop}) "
        f"OPTIONS {{indexConfig: {{`vector.dimensions`: {int(dimensions)}, `vector.similarity_function`: 'cosine'}}}}"
    )
    graph.run_auto("CALL db.awaitIndexes($seconds)", {"seconds": await_seconds})
    return name


def _check_slug(slug: str) -> str:
    if not _SLUG.fullmatch(slug):
        raise ValueError(f"invalid embedding model slug {slug!r}")
    return slug
