"""The use cases sit below their doors: the HTTP routes and their dependencies (`api.routes`, `api.deps`), the web
pages (`api.web`), the MCP server (`api.mcp`) and the web framework (`fastapi`, `starlette`) are adapters over
`api/actions/`, so no module there imports any of them, inside a function or not (a lazy import only hides the
dependency). An action checks roles with `api.actions.roles` and refuses with `api.actions.refusals`, which every door
answers in its own way.

Nor does an action reach a door of the service through another module of `api/` (a helper that imports a route is
the same dependency, one step removed). The framework is left out of that second check: the buckets
(`api.ratelimit`) and the error answers (`api.errors`) that actions share with the doors import it.

The other doors stand beside the routes, not on them: a web page or an MCP tool runs the action its route runs, so no
module of `api/web/` or `api/mcp/` imports `api.routes`, directly or through another module of `api/` (a route
function called from a page is FastAPI's signature called by hand, its refusals an `HTTPException` the page must
know about)."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ACTIONS = "api/actions"
DOORS = ("fastapi", "starlette", "api.routes", "api.deps", "api.web", "api.mcp")
SERVICE_DOORS = tuple(d for d in DOORS if d.startswith("api."))
BESIDE_ROUTES = ("api/web", "api/mcp")
ROUTES = ("api.routes",)
IMPORTERS = {"importlib.import_module", "import_module", "__import__"}


def _door(name: str, doors: tuple[str, ...] = DOORS) -> str | None:
    return next((d for d in doors if name == d or name.startswith(f"{d}.")), None)


def _imported(tree: ast.Module, package: str) -> list[tuple[int, str]]:
    """(line, dotted name) of every import anywhere in a module of `package`: `from a import b` names `a` and `a.b`
    (b may be a module, as in `from api import deps`), a relative import is resolved, and `import_module("x")` with
    a literal name counts."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            found += [(node.lineno, base), *((node.lineno, f"{base}.{a.name}") for a in node.names)]
        elif isinstance(node, ast.Call) and ast.unparse(node.func) in IMPORTERS and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((node.lineno, first.value))
    return found


def _package_of(path: Path, root: Path) -> str:
    return ".".join(path.parent.relative_to(root).parts)


def _module_file(name: str, root: Path) -> Path | None:
    base = root.joinpath(*name.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def _direct(root: Path = REPO, package: str = ACTIONS, doors: tuple[str, ...] = DOORS) -> list[str]:
    """`module:line imports door` for every import of a door in a module under `package` (api/actions/)."""
    found = set()
    for path in sorted((root / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, name in _imported(tree, _package_of(path, root)):
            door = _door(name, doors)
            if door:
                found.add(f"{path.relative_to(root).as_posix()}:{line} imports {door}")
    return sorted(found, key=lambda hit: (hit.split(":")[0], int(hit.split(":")[1].split()[0])))


def _through(root: Path = REPO, package: str = ACTIONS, doors: tuple[str, ...] = SERVICE_DOORS) -> dict[str, list[str]]:
    """Module under `package` (api/actions/) → the doors of the service it reaches through the other modules of api/
    it imports, each as the chain of modules that leads there."""
    reached: dict[str, list[str]] = {}
    for start in sorted((root / package).rglob("*.py")):
        chains = {start: [start.relative_to(root).as_posix()]}
        todo = [start]
        while todo:
            path = todo.pop()
            for _, name in _imported(ast.parse(path.read_text(encoding="utf-8")), _package_of(path, root)):
                door = _door(name, doors)
                if door:
                    if len(chains[path]) > 1:  # a direct import is the first test's
                        reached.setdefault(chains[start][0], []).append(" -> ".join([*chains[path], door]))
                    continue
                target = _module_file(name, root) if name.startswith("api.") else None
                if target is not None and target not in chains:
                    chains[target] = [*chains[path], target.relative_to(root).as_posix()]
                    todo.append(target)
    return {module: sorted(set(found)) for module, found in reached.items()}


def test_no_action_imports_a_door() -> None:
    walked = {p.name for p in (REPO / ACTIONS).glob("*.py")}
    assert {
        "read.py",
        "context.py",
        "write.py",
        "roles.py",
        "entries.py",
        "entities.py",
        "projects.py",
        "witnesses.py",
    } <= walked
    found = _direct()
    assert not found, (
        "api/actions/ is the use-case layer; move what it needs out of the door (a role check to "
        "api/actions/roles.py, a refusal to api/actions/refusals.py, a route's body to an action):\n" + "\n".join(found)
    )


def test_no_action_reaches_a_door_through_another_module() -> None:
    assert _through() == {}


def test_the_walk_finds_every_way_of_importing_a_door(tmp_path: Path) -> None:
    """Plain, `from`, lazy, relative and `import_module` imports are found; a name that only starts like a door
    (`api.webhooks`, `fastapi_extra`) and the action layer's own modules are not doors."""
    actions = tmp_path / "api" / "actions"
    (actions / "sub").mkdir(parents=True)
    (tmp_path / "api" / "helper.py").write_text("from api.routes.entries import entry_out\n", encoding="utf-8")
    (actions / "bad.py").write_text(
        "import fastapi\n"
        "from starlette.requests import Request\n"
        "from api import deps\n"
        "from api.actions.refusals import NotAllowed\n"
        "from api import webhooks\n"
        "import fastapi_extra\n"
        "def later():\n"
        "    from api.routes.entries import entry_out\n"
        "    return importlib.import_module('api.mcp.tools')\n",
        encoding="utf-8",
    )
    (actions / "sub" / "deep.py").write_text(
        "from ...web import app\nfrom ... import mcp\nfrom .. import refusals\nfrom api import helper\n",
        encoding="utf-8",
    )
    assert _direct(tmp_path) == [
        "api/actions/bad.py:1 imports fastapi",
        "api/actions/bad.py:2 imports starlette",
        "api/actions/bad.py:3 imports api.deps",
        "api/actions/bad.py:8 imports api.routes",
        "api/actions/bad.py:9 imports api.mcp",
        "api/actions/sub/deep.py:1 imports api.web",
        "api/actions/sub/deep.py:2 imports api.mcp",
    ]
    assert _through(tmp_path) == {
        "api/actions/sub/deep.py": ["api/actions/sub/deep.py -> api/helper.py -> api.routes"],
    }


def _routes_beside(root: Path = REPO) -> list[str]:
    """Every import of `api.routes` by a web page or an MCP module, direct or through another module of api/."""
    found = [hit for package in BESIDE_ROUTES for hit in _direct(root, package, ROUTES)]
    for package in BESIDE_ROUTES:
        found += [chain for chains in _through(root, package, ROUTES).values() for chain in chains]
    return found


def test_no_page_or_tool_imports_a_route() -> None:
    assert {"people.py", "witness.py"} <= {p.name for p in (REPO / "api/web/routes").glob("*.py")}
    assert {"tools.py", "caller.py"} <= {p.name for p in (REPO / "api/mcp").glob("*.py")}
    found = _routes_beside()
    assert not found, (
        "a web page or MCP tool runs the action its route runs (move the route's body to api/actions/, raising "
        "api/actions/refusals.py's refusals, and call it from both):\n" + "\n".join(found)
    )


def test_the_walk_finds_every_way_a_page_or_tool_imports_a_route(tmp_path: Path) -> None:
    """Plain, `from`, lazy, relative and `import_module` imports of a route module are found, and one through a
    model; the web's own `api.web.routes`, a name that only starts like `api.routes` and the other doors are not
    routes."""
    (tmp_path / "api" / "web" / "routes").mkdir(parents=True)
    (tmp_path / "api" / "mcp").mkdir()
    (tmp_path / "api" / "models").mkdir()
    (tmp_path / "api" / "models" / "mcp.py").write_text(
        "from api.routes.analytics_params import MEASURE_DOC\n", encoding="utf-8"
    )
    (tmp_path / "api" / "web" / "app.py").write_text(
        "from .routes import people\nfrom api.web.routes import witness\nfrom api import deps\n", encoding="utf-8"
    )
    (tmp_path / "api" / "web" / "routes" / "people.py").write_text(
        "from api.routes.entities import get_timeline\n"
        "from ...routes import similar\n"
        "from api import routes_extra\n"
        "from api.actions import entities\n",
        encoding="utf-8",
    )
    (tmp_path / "api" / "mcp" / "caller.py").write_text(
        "import api.routes\n"
        "def authenticate():\n"
        "    from api.routes.witnesses import witness_grant\n"
        "    return importlib.import_module('api.routes.projects')\n",
        encoding="utf-8",
    )
    (tmp_path / "api" / "mcp" / "tools.py").write_text(
        "from api.models.mcp import EntityQuestionIn\n", encoding="utf-8"
    )
    assert _routes_beside(tmp_path) == [
        "api/web/routes/people.py:1 imports api.routes",
        "api/web/routes/people.py:2 imports api.routes",
        "api/mcp/caller.py:1 imports api.routes",
        "api/mcp/caller.py:3 imports api.routes",
        "api/mcp/caller.py:4 imports api.routes",
        "api/web/app.py -> api/web/routes/people.py -> api.routes",
        "api/mcp/tools.py -> api/models/mcp.py -> api.routes",
    ]
