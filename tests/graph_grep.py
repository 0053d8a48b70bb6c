"""Grep the whole graph: every string (or string in a list) of every node and relationship property."""

from __future__ import annotations

from graph.db import Graph

GREP = """
CALL {
  MATCH (n) UNWIND keys(n) AS k WITH n[k] AS v, labels(n)[0] + '.' + k AS where RETURN v, where
  UNION ALL
  MATCH ()-[r]->() UNWIND keys(r) AS k WITH r[k] AS v, type(r) + '.' + k AS where RETURN v, where
}
WITH where, CASE WHEN v IS :: LIST<ANY> THEN v ELSE [v] END AS values
UNWIND values AS value
WITH where, toLower(toString(value)) AS text
UNWIND $needles AS needle
WITH where, needle, text WHERE text CONTAINS needle
RETURN needle, collect(DISTINCT where) AS places
"""

# The one place ids outlive their entry: the generation steps kept views catch up from (graph/generations.py) must
# name the entries that changed so that caches drop them; they are pruned after a bounded number of later writes.
# The entities they name are scrubbed as soon as an entity goes (graph/forgetting.py), so those are grepped too.
CATCH_UP = {"GenerationStep.entry_ids"}


def grep_graph(graph: Graph, needles: list[str]) -> dict[str, list[str]]:
    """For each needle found (lower-cased), the `Label.property` places that hold it."""
    rows = graph.read(GREP, {"needles": [n.lower() for n in needles]})
    found = {r["needle"]: sorted(set(r["places"]) - CATCH_UP) for r in rows}
    return {needle: places for needle, places in found.items() if places}
