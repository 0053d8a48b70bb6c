"""The layer rule: api → queries, ingest → inference → graph → Neo4j. A layer imports only itself and the layers
below it, and no modules import each other in a circle (imports inside functions count: they only hide a circle)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

REPO = Path(__file__).resolve().parents[2]
BELOW = {
    "graph": {"graph"},
    "inference": {"inference", "graph"},
    "ingest": {"ingest", "inference", "graph"},
    "queries": {"queries", "inference", "graph"},
    "api": {"api", "queries", "ingest", "inference", "graph"},
}


def _modules() -> dict[str, Path]:
    found = {}
    for layer in BELOW:
        for path in (REPO / layer).rglob("*.py"):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _imports(modules: dict[str, Path]) -> nx.DiGraph:
    """Module → project module it imports, anywhere in its source (`from a import b` names a.b when b is one)."""
    edges = nx.DiGraph()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    for name, path in modules.items():
        edges.add_node(name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
            for target in targets:
                found = known(target)
                if found and found != name:
                    edges.add_edge(name, found)
    return edges


IMPORTS = _imports(_modules())


def test_every_layer_imports_only_itself_and_the_layers_below() -> None:
    upward = sorted(f"{a} imports {b}" for a, b in IMPORTS.edges if b.split(".")[0] not in BELOW[a.split(".")[0]])
    assert upward == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    circles = [sorted(c) for c in nx.strongly_connected_components(IMPORTS) if len(c) > 1]
    assert circles == []


def test_the_check_sees_lazy_imports_and_every_room() -> None:
    """The rule would pass vacuously if the walk missed imports inside functions or the packages under queries/."""
    assert IMPORTS.has_edge("api.commands.common", "ingest.relink")  # imported inside `relink_now`
    assert IMPORTS.has_edge("queries.search.door", "queries.search.retrieval")
    assert {
        "queries.search.keyword",
        "queries.context.chapter",
        "queries.entities.similar",
        "queries.telemetry.search_log",
        "inference.providers.llm",
    } <= set(IMPORTS.nodes)
