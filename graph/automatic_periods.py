"""Automatic chapters for entries that an older rule cut (or that were stored before there were any): the same rule as
ingest (graph/periods.py), applied to the stored entries in batches, each batch one transaction that marks the
summaries and cached results the move touches, as any write of entries does."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from neo4j import ManagedTransaction

from graph.db import Graph
from graph.entity_vectors import DROP_AFFECTED_VARIANTS
from graph.generations import bump_levels_in, entry_levels
from graph.periods import AUTO_RULE, automatic_period
from graph.summaries import mark_stale

BATCH = 500
DONE = """
OPTIONAL MATCH (b:Backfill {name: 'automatic_periods'})
RETURN coalesce(b.rule, 0) >= $rule AS done
"""
LAGGING = """
MATCH (e:Entry) WHERE coalesce(e.period_rule, 0) < $rule
RETURN e.id AS id, e.project_id AS project_id, e.period_name AS declared, e.occurred_start AS start,
       e.occurred_end AS end, e.metadata AS metadata
LIMIT $limit
"""
# The rewrite removes the entry's automatic chapter and links the new one; a declared chapter stays as it is. The
# entry itself is not edited (its `updated_at` stays): the chapter is derived from it.
RECUT = (
    """
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
WITH e, row
"""
    + DROP_AFFECTED_VARIANTS
    + """WITH DISTINCT e, row
OPTIONAL MATCH (e)-[old:IN_PERIOD]->(:Period {automatic: true})
DELETE old
WITH DISTINCT e, row
SET e.period_rule = $rule, e.auto_period_name = row.name
WITH e, row WHERE row.period_id IS NOT NULL
MATCH (p:Project {id: e.project_id})
MERGE (per:Period {id: row.period_id})
ON CREATE SET per.project_id = e.project_id, per.level = 'chapter', per.automatic = true, per.created_at = datetime()
MERGE (per)-[:PART_OF]->(p)
MERGE (e)-[:IN_PERIOD]->(per)
"""
)
LAGGING_COUNT = """
MATCH (e:Entry) WHERE coalesce(e.period_rule, 0) < $rule
RETURN count(e) AS n
"""
MARK_DONE = """
MERGE (b:Backfill {name: 'automatic_periods'})
SET b.rule = $rule, b.at = datetime()
"""


def _session(metadata: str | None) -> object:
    try:
        extra = json.loads(metadata) if metadata else {}
    except ValueError:
        return None
    return extra.get("session") if isinstance(extra, dict) else None


def _row(entry: dict[str, Any]) -> dict[str, Any]:
    start = entry["start"].to_native() if entry["start"] is not None else None
    end = entry["end"].to_native() if entry["end"] is not None else None
    auto = None if entry["declared"] else automatic_period(entry["project_id"], start, end, _session(entry["metadata"]))
    return {"id": entry["id"], "period_id": auto.id if auto else None, "name": auto.name if auto else None}


def pending(graph: Graph) -> int:
    """How many stored entries the current rule has not cut yet (0 once a run has finished under it)."""
    if graph.read(DONE, {"rule": AUTO_RULE})[0]["done"]:
        return 0
    return int(graph.read(LAGGING_COUNT, {"rule": AUTO_RULE})[0]["n"])


def recut(graph: Graph, progress: Callable[[int], None] | None = None) -> int:
    """Cut the automatic chapters of every entry that an older rule cut; the number of entries examined. A no-op
    (one read) once a run has finished under the current rule: ingest cuts new entries itself."""
    if graph.read(DONE, {"rule": AUTO_RULE})[0]["done"]:
        return 0
    examined = 0
    while batch := [dict(r) for r in graph.read(LAGGING, {"rule": AUTO_RULE, "limit": BATCH})]:
        rows = [_row(entry) for entry in batch]
        ids = [r["id"] for r in rows]

        def work(tx: ManagedTransaction, rows: list[dict[str, Any]] = rows, ids: list[str] = ids) -> None:
            mark_stale(tx, ids)
            before = entry_levels(tx, ids)
            tx.run(RECUT, rows=rows, rule=AUTO_RULE).consume()
            mark_stale(tx, ids)
            bump_levels_in(tx, before + entry_levels(tx, ids))

        graph.transact(work)
        examined += len(rows)
        if progress:
            progress(len(rows))
    graph.write(MARK_DONE, {"rule": AUTO_RULE})
    return examined
