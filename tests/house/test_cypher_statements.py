"""docs/cypher/ holds every named statement as the service sends it, and every one of them plans on the real Neo4j."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api.cypher_doc import COMMAND, is_statement, named_statements, named_strings, render
from graph.db import Graph

SNAPSHOTS = Path(__file__).resolve().parents[2] / "docs" / "cypher"
STATEMENTS = named_statements()


def test_every_named_statement_has_its_snapshot_and_no_snapshot_is_stale() -> None:
    expected = render(STATEMENTS)
    present = {p.name: p.read_text(encoding="utf-8") for p in SNAPSHOTS.glob("*.cypher")}
    missing, extra = sorted(set(expected) - set(present)), sorted(set(present) - set(expected))
    assert not missing and not extra, f"run `{COMMAND}`: missing {missing[:5]}, extra {extra[:5]}"
    stale = [name for name, text in expected.items() if present[name] != text]
    assert not stale, f"run `{COMMAND}`: out of date {stale[:5]}"


def test_discovery_reaches_every_room_and_tells_statements_from_fragments() -> None:
    statements = STATEMENTS
    rooms = {key.rsplit(".", 2)[0] if key.startswith("queries.") else key.split(".")[0] for key in statements}
    assert {"graph", "ingest", "queries.search", "queries.context", "queries.entities", "queries.telemetry"} <= rooms
    strings = named_strings()
    # the predicate and the viewer prelude are fragments: they show inside statements, never as one of their own
    assert not is_statement(strings["graph.visibility.CAN_SEE"])
    assert not is_statement(strings["graph.visibility.VIEWER_IN_PROJECT"])
    assert strings["graph.visibility.CAN_SEE"].strip() in statements["queries.search.channels.FULLTEXT"]
    # a statement imported by another module is filed once, under the module that defines it
    assert "ingest.pipeline.EXISTING" not in statements and "graph.entries.EXISTING" in statements


def test_no_statement_is_left_half_formatted() -> None:
    """Values reach a statement as `$parameters`; a `%s` or `{name}` left in one is Python formatting not done."""
    for key, text in STATEMENTS.items():
        assert "%s" not in text and not re.search(r"(?<![{\w])\{[a-z_]+\}(?!\})", text), key


@pytest.mark.parametrize("key", sorted(STATEMENTS))
def test_statement_plans_on_neo4j(graph: Graph, key: str) -> None:
    """EXPLAIN plans without running: an unknown function, a syntax error or a wrong subquery form fails here."""
    text = STATEMENTS[key]
    with graph.driver.session(database=graph.database) as session:
        summary = session.run(f"EXPLAIN {text}").consume()
    assert summary.plan is not None, key
