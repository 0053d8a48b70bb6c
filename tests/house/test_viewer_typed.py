"""Who is asking travels as a `Viewer` (graph/visibility.py) down to the statement that reads Neo4j: a dict of
Cypher parameters handed from function to function can be built for the wrong person, merged over, or read by key
with nothing to check the key. So, over every module of graph/ inference/ ingest/ queries/ api/:

1. no function takes `viewer_params`, nor a dict or Mapping named `visibility`;
2. `visibility_params(...)` is called only in a function that itself passes parameters to a Neo4j statement
   (`graph.read(`, `graph.write(`, `graph.run_auto(`, `tx.run(`, `session.run(`, `session.execute_read(`, ...: a
   nested function or lambda of it counts), or in a module named in `PARAMETER_MAKERS`, which turns a typed value
   into statement parameters (a search's scope becomes parameters in queries/search/scope.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAYERS = ("graph", "inference", "ingest", "queries", "api")

# Methods that run a statement with parameters (graph/db.py `Graph`, a neo4j transaction or session), called on the
# names the code gives those objects: `graph`, `self.graph`, `svc.graph`, `tx`, `session`.
STATEMENT_METHODS = {"read", "write", "run", "run_auto", "execute_read", "execute_write"}
RUNNERS = {"graph", "tx", "session"}

# module -> what typed value it turns into statement parameters.
PARAMETER_MAKERS = {
    "graph/visibility.py": "`visibility_params` itself: a Viewer as the predicate's parameters",
    "graph/export.py": "`ExportScope.params`: whose rights an export follows, for every statement of the export",
    "queries/search/scope.py": "`SearchScope.params`: where one search looks and who looks",
}


def _runs_a_statement(function: ast.AST) -> bool:
    """Whether `function` (nested functions and lambdas included) passes parameters to a Neo4j statement."""
    for node in ast.walk(function):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        receiver = ast.unparse(node.func.value).rpartition(".")[2]
        if node.func.attr in STATEMENT_METHODS and receiver in RUNNERS and (len(node.args) > 1 or node.keywords):
            return True
    return False


def _is_dict(annotation: ast.expr | None) -> bool:
    """`dict[...]`, `Mapping[...]` and the like, optional or not."""
    if annotation is None:
        return False
    text = ast.unparse(annotation).replace("typing.", "").replace("collections.abc.", "")
    return any(text.startswith(kind) or f"| {kind}" in text for kind in ("dict", "Dict", "Mapping", "MutableMapping"))


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function with its dotted name (`Class.method`, `outer.inner`)."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((prefix + child.name, child))
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def _offences(module: str, source: str) -> tuple[list[str], list[str]]:
    """(`module:function (parameter)` for rule 1, `module:function` for rule 2) in one module's source."""
    tree = ast.parse(source)
    functions = _functions(tree)
    untyped = []
    for name, function in functions:
        a = function.args
        for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, (a.vararg, a.kwarg))]:
            if arg.arg == "viewer_params" or (arg.arg == "visibility" and _is_dict(arg.annotation)):
                untyped.append(f"{module}:{name} ({arg.arg})")
    if module in PARAMETER_MAKERS:
        return untyped, []
    built = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if any(a.name == "visibility_params" and a.asname not in (None, a.name) for a in node.names):
                built.append(f"{module}:<import renaming visibility_params, line {node.lineno}>")
            continue
        if not isinstance(node, ast.Call):
            continue
        called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if called != "visibility_params":
            continue
        inside = [(name, f) for name, f in functions if f.lineno <= node.lineno <= (f.end_lineno or f.lineno)]
        if not inside:
            built.append(f"{module}:<module level, line {node.lineno}>")
            continue
        name, function = max(inside, key=lambda found: found[1].lineno)  # the innermost
        if not _runs_a_statement(function):
            built.append(f"{module}:{name}")
    return untyped, built


def _walk(root: Path = REPO) -> tuple[list[str], list[str]]:
    untyped: list[str] = []
    built: list[str] = []
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*.py")):
            module = path.relative_to(root).as_posix()
            u, b = _offences(module, path.read_text(encoding="utf-8"))
            untyped += u
            built += b
    return untyped, sorted(set(built))


def test_functions_take_a_viewer_and_build_its_parameters_where_the_statement_runs() -> None:
    untyped, built = _walk()
    problems = []
    if untyped:
        problems.append("take the visibility parameters as a dict (take `viewer: Viewer`): " + ", ".join(untyped))
    if built:
        problems.append(
            "call visibility_params(...) but run no statement with it (pass the Viewer down to the function that "
            "calls graph.read/graph.write/tx.run, and build the parameters there): " + ", ".join(built)
        )
    assert not problems, "\n".join(problems)


def test_the_parameter_makers_exist() -> None:
    """A module named in PARAMETER_MAKERS that is gone is removed from the list, not left to excuse a new one."""
    assert [m for m in PARAMETER_MAKERS if not (REPO / m).is_file()] == []


def test_the_walk_finds_a_dict_passed_down_and_parameters_built_away_from_their_statement(tmp_path: Path) -> None:
    (tmp_path / "graph").mkdir()
    (tmp_path / "graph" / "typed.py").write_text(
        "from graph.visibility import Viewer, visibility_params\n"
        "def ok(graph, viewer: Viewer):\n"
        "    return graph.read(Q, {'id': 1, **visibility_params(viewer)})\n"
        "def ok_nested(graph, viewer: Viewer):\n"
        "    seen = visibility_params(viewer)\n"
        "    def work(tx):\n"
        "        return tx.run(Q, seen)\n"
        "    return graph.transact(work)\n",
        encoding="utf-8",
    )
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "loose.py").write_text(
        "from collections.abc import Mapping\n"
        "from typing import Any\n"
        "from graph.visibility import visibility_params\n"
        "from graph.visibility import visibility_params as vp\n"
        "PARAMS = visibility_params(None)\n"
        "def route(graph, who):\n"
        "    return listing(graph, visibility_params(who))\n"
        "def listing(graph, viewer_params: dict[str, Any]):\n"
        "    return graph.read(Q, viewer_params)\n"
        "def ranked(graph, visibility: Mapping[str, Any] | None):\n"
        "    return graph.read(Q, dict(visibility or {}))\n"
        "class Page:\n"
        "    def counts(self, graph, who):\n"
        "        return generations.read(graph, [1], visibility_params(who))\n",
        encoding="utf-8",
    )
    untyped, built = _walk(tmp_path)
    assert untyped == ["api/loose.py:listing (viewer_params)", "api/loose.py:ranked (visibility)"]
    assert built == [
        "api/loose.py:<import renaming visibility_params, line 4>",
        "api/loose.py:<module level, line 5>",
        "api/loose.py:Page.counts",
        "api/loose.py:route",
    ]
