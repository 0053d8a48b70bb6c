"""`memora db purge`: rebuild the managed Neo4j's store from its live graph, so that what was deleted leaves the disk.

A delete in Neo4j takes the text out of the graph but not off the disk: the transaction log holds the before-image
of every record a delete removes (Community always keeps the newest log and has no procedure to checkpoint or rotate
it), freed store records and index pages keep their bytes until a later write reuses them, and Lucene keeps a deleted
document in its segment until a merge it does not expose. No online step removes those copies, so the purge copies
the live graph into a new, empty store and removes the old one: stop the server, start the old store and an empty
one side by side on private ports, copy the schema, every node and every relationship, check the counts, stop both,
put the new store in place, start again. A purge cut short is undone by the next one (the old store is moved back).
"""

from __future__ import annotations

import shutil
import socket
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from neo4j import Driver, GraphDatabase, ManagedTransaction

from graph.db import Graph
from graph.runtime import Neo4jRuntime, RuntimeProblem
from graph.settings import Settings

BATCH = 500
WORK_DIR = "purge"

# The marker that a purge is due (graph/forgetting.py) is the one node not copied: the new store owes nothing.
NODES = "MATCH (n) WHERE NOT n:PurgeDue RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props"
RELATIONSHIPS = """
MATCH (a)-[r]->(b)
RETURN elementId(a) AS a, elementId(b) AS b, type(r) AS type, properties(r) AS props
"""
# Vectors go through the procedure that stores them as the vector index expects them (32-bit floats), as written.
CREATE_NODES = """
UNWIND $rows AS row
CREATE (n:$(row.labels))
SET n = row.props
WITH n, row
CALL (n, row) {
  UNWIND row.vectors AS v
  CALL db.create.setNodeVectorProperty(n, v.key, v.vector)
}
RETURN row.id AS old, elementId(n) AS new
"""
CREATE_RELATIONSHIPS = """
UNWIND $rows AS row
MATCH (a) WHERE elementId(a) = row.a
MATCH (b) WHERE elementId(b) = row.b
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.props
"""
COUNTS = "RETURN COUNT { MATCH (n) WHERE NOT n:PurgeDue } AS nodes, COUNT { MATCH ()-[r]->() } AS relationships"
DUE_SINCE = "MATCH (m:PurgeDue {id: 'store'}) RETURN toString(m.since) AS since"
# The schema as Neo4j itself writes it: constraints (with their indexes), then the indexes no constraint owns.
CONSTRAINTS = "SHOW CONSTRAINTS YIELD name, createStatement RETURN name, createStatement AS statement ORDER BY name"
INDEXES = """
SHOW INDEXES YIELD name, type, owningConstraint, createStatement, labelsOrTypes, properties, entityType
WHERE owningConstraint IS NULL
RETURN name, type, createStatement AS statement, labelsOrTypes AS labels, properties, entityType AS entity
ORDER BY name
"""
AWAIT_INDEXES = "CALL db.awaitIndexes($seconds)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _private(settings: Settings, home: Path) -> tuple[Settings, Neo4jRuntime]:
    """A server of its own for `home`, on a free port, with this home's password (the empty store is given it)."""
    home.mkdir(parents=True, exist_ok=True)
    password = settings.home / "neo4j-password"
    if password.exists():
        shutil.copy2(password, home / "neo4j-password")
    local = settings.model_copy(
        update={"home": home, "neo4j_bolt_port": _free_port(), "neo4j_uri": None, "secret": None}
    )
    return local, Neo4jRuntime(local)


def _driver(runtime: Neo4jRuntime) -> Driver:
    return GraphDatabase.driver(runtime.settings.bolt_uri, auth=("neo4j", runtime.password()))


def recover(settings: Settings) -> bool:
    """Undo a purge cut short: the old store goes back in place when the new one never got there; the work directory
    goes. Returns whether there was anything to undo."""
    work = settings.home / WORK_DIR
    if not work.exists():
        return False
    old, live = work / "old" / "neo4j" / "data", Neo4jRuntime(settings).root / "data"
    for sub in ("old", "new"):
        Neo4jRuntime(settings.model_copy(update={"home": work / sub})).stop()
    if old.is_dir() and not live.exists():
        live.parent.mkdir(parents=True, exist_ok=True)
        old.rename(live)
    shutil.rmtree(work)
    return True


def _batches(rows: Iterator[Any], size: int = BATCH) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _vector_keys(src: Driver, database: str) -> dict[str, set[str]]:
    """The node properties a vector index reads, with the labels it reads them on."""
    keys: dict[str, set[str]] = {}
    for r in src.execute_query(INDEXES, database_=database).records:
        if r["type"] == "VECTOR" and r["entity"] == "NODE":
            for prop in r["properties"] or []:
                keys.setdefault(prop, set()).update(r["labels"] or [])
    return keys


def _node_row(record: Any, vector_keys: dict[str, set[str]]) -> dict[str, Any]:
    labels, props = list(record["labels"]), dict(record["props"])
    vectors = [
        {"key": key, "vector": props.pop(key)}
        for key in [k for k in props if k in vector_keys and vector_keys[k] & set(labels)]
        if isinstance(props[key], list) and props[key]
    ]
    return {"id": record["id"], "labels": labels, "props": props, "vectors": vectors}


def copy_live_graph(src: Driver, dst: Driver, database: str = "neo4j") -> dict[str, int]:
    """Every node and relationship of `src` into the empty `dst`, then its constraints and indexes (populated once,
    after the data); returns the counts, checked equal on both sides."""
    vector_keys = _vector_keys(src, database)
    new_ids: dict[str, str] = {}

    def nodes(tx: ManagedTransaction, rows: list[dict[str, Any]]) -> None:
        new_ids.update((r["old"], r["new"]) for r in tx.run(CREATE_NODES, rows=rows))

    def relationships(tx: ManagedTransaction, rows: list[dict[str, Any]]) -> None:
        tx.run(CREATE_RELATIONSHIPS, rows=rows).consume()

    with src.session(database=database) as reading, dst.session(database=database) as writing:
        for batch in _batches(_node_row(r, vector_keys) for r in reading.run(NODES)):
            writing.execute_write(nodes, batch)
        rels = (
            {"a": new_ids[r["a"]], "b": new_ids[r["b"]], "type": r["type"], "props": dict(r["props"])}
            for r in reading.run(RELATIONSHIPS)
        )
        for batch in _batches(rels, BATCH * 4):
            writing.execute_write(relationships, batch)
    existing = {r["name"] for r in dst.execute_query(INDEXES, database_=database).records}
    existing |= {r["name"] for r in dst.execute_query(CONSTRAINTS, database_=database).records}
    # Schema statements cannot take parameters; these are the server's own rendering of its schema.
    for query in (CONSTRAINTS, INDEXES):
        for r in src.execute_query(query, database_=database).records:
            if r["name"] not in existing:
                dst.execute_query(r["statement"], database_=database)
    dst.execute_query(AWAIT_INDEXES, {"seconds": 3600}, database_=database)
    before = dict(src.execute_query(COUNTS, database_=database).records[0])
    after = dict(dst.execute_query(COUNTS, database_=database).records[0])
    if before != after:
        raise RuntimeProblem(f"the copy does not hold what the store holds ({after} against {before}); not purged")
    return {"nodes": int(after["nodes"]), "relationships": int(after["relationships"])}


def due_since(graph: Graph) -> str | None:
    """When the first delete or rewrite since the last purge was made (ISO 8601), or None: nothing to purge."""
    rows = graph.read(DUE_SINCE)
    return str(rows[0]["since"]) if rows else None


def purge(settings: Settings, restart: bool = True, say: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """Rebuild this home's store from its live graph (see the module's docstring). The server is down throughout;
    with `restart` it is started again when it was running (also when the purge fails, on the old store)."""
    if not settings.managed_neo4j:
        raise RuntimeProblem(
            "NEO4J_URI is set: that server's store is its own to compact (neo4j-admin database copy, or a dump "
            "and load); `memora db purge` rebuilds the managed Neo4j"
        )
    runtime = Neo4jRuntime(settings)
    live = runtime.root / "data"
    if recover(settings):
        say("a purge cut short was undone first")
    if not live.is_dir():
        raise RuntimeProblem(f"nothing to purge: {live} does not exist")
    was_running = runtime.pid() is not None
    started = time.monotonic()
    if was_running:
        say("stopping Neo4j …")
        runtime.stop()
    work = settings.home / WORK_DIR
    _, old = _private(settings, work / "old")
    _, new = _private(settings, work / "new")
    (old.root).mkdir(parents=True, exist_ok=True)
    live.rename(old.root / "data")
    out: dict[str, Any] = {}
    try:
        say("starting the old store and an empty one on private ports …")
        with ThreadPoolExecutor(2) as pool:
            for status in pool.map(lambda r: r.start(), (old, new)):
                if not status.running:
                    raise RuntimeProblem(f"a private server did not start: {status.detail}")
        copy_started = time.monotonic()
        say("copying the live graph …")
        with _driver(old) as src, _driver(new) as dst:
            out.update(copy_live_graph(src, dst, settings.neo4j_database))
        out["copy_seconds"] = round(time.monotonic() - copy_started, 2)
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda r: r.stop(), (old, new)))
        (new.root / "data").rename(live)
        before, after = _bytes(old.root / "data"), _bytes(live)
        out.update({"bytes_before": before, "bytes_after": after})
        shutil.rmtree(work)
    finally:
        recover(settings)
        if restart and was_running:
            say("starting Neo4j again …")
            runtime.start()
    out["downtime_seconds"] = round(time.monotonic() - started, 2) if was_running else 0.0
    out["seconds"] = round(time.monotonic() - started, 2)
    return out


def _bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
