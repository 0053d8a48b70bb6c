"""What every command shares: JSON and error output, connecting to the graph, progress bars."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TypeAlias

from graph.settings import Settings

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def out(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def err(message: str) -> None:
    print(f"memora: {message}", file=sys.stderr)


def connect(settings: Settings, migrate_schema: bool = True) -> Any:
    """The graph, starting the managed Neo4j first when needed and applying pending migrations."""
    from graph.db import get_graph
    from graph.runtime import Neo4jRuntime
    from graph.schema import migrate

    if settings.managed_neo4j:
        runtime = Neo4jRuntime(settings)
        if not runtime.status().running:
            err(f"starting Neo4j {settings.neo4j_version} on bolt port {settings.neo4j_bolt_port} …")
            runtime.start()
    graph = get_graph(settings)
    if migrate_schema:
        migrate(graph)
    return graph


def progress(total: int | None, label: str) -> Any:
    """A tqdm bar on stderr, silent when stderr is not a terminal (so --json output stays clean)."""
    from tqdm import tqdm

    return tqdm(total=total, desc=label, unit="entry", disable=None, file=sys.stderr)
