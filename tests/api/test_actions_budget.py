"""One action, one budget, whatever the door (api/actions): a member's searches through `POST /v1/search`, the web's
search page and the MCP `search` tool come out of one bucket, and so do their writes through `POST /v1/entries`,
the web's write form and the MCP `add_entry` tool. With a burst of N, N calls across the doors, mixed, succeed and
the next is refused at every door: 429 with `Retry-After` on HTTP, the same reason from the tool. On the real Neo4j
and embedder, through the served app; the tool runs on that app's buckets, as the MCP server's HTTP door does on
its own."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from api import auth
from api.app import Services, create_app
from api.mcp import tools
from api.mcp.caller import Caller, refusal_of
from bench.serving import served_in_thread
from graph.db import Graph
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from tests.web_world import CSRF, WebWorld, build_world, signed_in

ROOT = Path(__file__).resolve().parents[2]
BURST = 4
TINY = {
    "rate_search_per_second": 0.001,
    "rate_search_burst": BURST,
    "rate_write_per_second": 0.001,
    "rate_write_burst": BURST,
}


@dataclass
class Doors:
    """The three doors of one served app, as one member."""

    app: FastAPI
    api: httpx.Client
    web: httpx.Client
    user: str

    def mcp(self, tool: str, **args: Any) -> tuple[int, str]:
        """The MCP tool on the app's own buckets: 200 and nothing, or the refusal's status and reason."""
        caller = Caller(Viewer(user_id=self.user), self.app.state.limits)
        try:
            tools.call(self.app.state.services, caller, tool, args)
        except Exception as exc:  # the server answers whatever a tool raises through `refusal_of`
            refused = refusal_of(exc)
            return refused.status, refused.text
        return 200, ""


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> WebWorld:
    return build_world(graph, prefix, ingest)


@pytest.fixture()
def doors(settings: Settings, graph: Graph, embedder: CheckedEmbedder, world: WebWorld) -> Iterator[Doors]:
    cfg = settings.model_copy(update=TINY)
    app = create_app(Services(cfg, graph=graph, embedder=embedder))
    user = world.users["coauthor"]
    with served_in_thread(app) as url:
        token = auth.issue(settings, user)
        api = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60)
        web = signed_in(url, user, graph)
        try:
            yield Doors(app, api, web, user)
        finally:
            api.close()
            web.close()


WEB_SAYS = {"searches": "Too many searches in a row", "writes": "Too many changes in a row"}


def assert_refused(status: int, text: str, headers: httpx.Headers | None, what: str) -> None:
    """The API's and the MCP server's reason, or the web page's sentence for the same budget."""
    assert status == 429, text[:500]
    said = WEB_SAYS[what] if text.startswith("<!doctype html>") else f"too many {what} by this caller"
    assert said in text, text[:500]
    if headers is not None:
        assert headers["retry-after"].isdigit() and int(headers["retry-after"]) >= 1


def test_searches_through_every_door_pay_one_search_budget(doors: Doors, world: WebWorld) -> None:
    p = world.project
    body = {"q": "Cádiz", "project_id": p, "channels": ["fulltext"]}

    def api() -> httpx.Response:
        return doors.api.post("/v1/search", json=body)

    def web() -> httpx.Response:
        return doors.web.get(f"/p/{p}", params={"q": "Cádiz"})

    assert api().status_code == 200
    assert web().status_code == 200
    assert doors.mcp("search", **body) == (200, "")
    assert web().status_code == 200, "the fourth search of a burst of four"
    assert doors.web.get(f"/p/{p}").status_code == 200, "the page without a question searches nothing"

    for refused in (api(), web()):
        assert_refused(refused.status_code, refused.text, refused.headers, "searches")
    assert_refused(*doors.mcp("search", **body), None, "searches")
    assert doors.api.post("/v1/entries", json={"project_id": p, "text": "Otra nota."}).status_code == 201, (
        "writes have a budget of their own"
    )


def test_writes_through_every_door_pay_one_write_budget(doors: Doors, world: WebWorld, graph: Graph) -> None:
    p = world.project

    def api(n: int) -> httpx.Response:
        return doors.api.post("/v1/entries", json={"project_id": p, "text": f"Nota {n} por la API."})

    def web(n: int) -> httpx.Response:
        form = doors.web.get(f"/p/{p}/write")
        token = CSRF.search(form.text)
        assert token, form.text[:500]
        data = {"text": f"Nota {n} por la web.", "intimacy": "private", "csrf": token.group(1)}
        return doors.web.post(f"/p/{p}/write", data=data)

    def mcp(n: int) -> tuple[int, str]:
        return doors.mcp("add_entry", project_id=p, text=f"Nota {n} por MCP.")

    before = _written(graph, p)
    assert api(1).status_code == 201
    assert web(2).status_code == 303
    assert mcp(3) == (200, "")
    assert api(4).status_code == 201, "the fourth write of a burst of four"

    for refused in (api(5), web(6)):
        assert_refused(refused.status_code, refused.text, refused.headers, "writes")
    assert_refused(*mcp(7), None, "writes")
    assert _written(graph, p) - before == {f"Nota {n} por {door}." for n, door in zip(range(1, 5), DOORS, strict=True)}
    assert doors.api.post("/v1/search", json={"q": "nota", "project_id": p}).status_code == 200, (
        "searches have a budget of their own"
    )


DOORS = ("la API", "la web", "MCP", "la API")


def _written(graph: Graph, project: str) -> set[str]:
    rows = graph.read("MATCH (e:Entry {project_id: $p}) RETURN e.body AS body", {"p": project})
    return {r["body"] for r in rows}


# --- house style: only actions spend -------------------------------------------------------------------------------

SPENDING = {"spend", "spend_from", "prepaid", "take", "charge"}
"""What pays from a budget: `Budgets.spend` and `prepaid`, the buckets' own `take` and `charge`."""
ALLOWED = ("api/actions/", "api/deps.py", "api/ratelimit.py")
DOOR_PACKAGES = ("api/web", "api/mcp", "api/routes", "api/commands")


def _spending_calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name in SPENDING:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} calls {name}()")
        elif isinstance(node, ast.ImportFrom) and node.module == "api.ratelimit":
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno} imports {a.name}" for a in node.names if a.name in SPENDING
            ]
    return found


def test_no_door_spends_a_budget_by_hand() -> None:
    """A page, tool, route or command runs an action and the action pays (`api/actions`); the API's dependencies
    (`api/deps.py`) pay before the body and hand the paid budgets to the action. A door that spends by hand is one
    that could forget to."""
    doors = [p for pkg in DOOR_PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    assert any("web/routes" in str(p) for p in doors) and any("mcp" in str(p) for p in doors)
    found = [hit for path in doors for hit in _spending_calls(path)]
    assert not found, "run an action of api/actions instead:\n" + "\n".join(found)


def test_every_action_spends_its_budget() -> None:
    """Each public function of an action module that takes `budgets` spends from them (the one place it is paid)."""
    missing = []
    for path in sorted((ROOT / "api/actions").glob("*.py")):
        if path.name in ("__init__.py", "budgets.py"):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
                continue
            if "budgets" not in {a.arg for a in node.args.args}:
                continue
            calls = {
                n.func.attr
                for n in ast.walk(node)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "spend"
            }
            if not calls:
                missing.append(f"{path.name}:{node.name}")
    assert not missing, f"actions that take budgets but never spend them: {missing}"
    assert re.search(r"budgets\.spend\(BUDGET", (ROOT / "api/actions/search.py").read_text(encoding="utf-8"))
