"""How many plans the Neo4j server holds: the count `db.clearQueryCaches()` reports as it empties them."""

from __future__ import annotations

import re

from graph.db import Graph


def cached_plans(graph: Graph) -> int:
    """How many plans the server had cached, emptying its caches (callers run serially: the count is server-wide)."""
    with graph.session() as session:
        message = session.run("CALL db.clearQueryCaches()").single(strict=True)[0]
    found = re.search(r"(\d+) quer", message)
    return int(found.group(1)) if found else 0
