"""The shape of the house: the HTTP routes and `memora` subcommands are exactly the ones listed here (a route or
command lost or added in a refactor fails here; docs/api.md and docs/cli.md are generated from them), and no module
grows past 500 lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import Services, create_app
from api.auth import issue
from api.cli import main
from graph.settings import Settings

REPO = Path(__file__).resolve().parents[2]
MAX_LINES = 500
TOO_LONG_FOR_NOW: set[str] = set()  # none: every module of graph/ ingest/ queries/ api/ is within MAX_LINES

ROUTES = {
    ("/health", "get"),
    ("/ready", "get"),
    ("/v1/search", "post"),
    ("/v1/entries", "post"),
    ("/v1/entries/{entry_id}", "get"),
    ("/v1/entries/{entry_id}", "put"),
    ("/v1/entries/{entry_id}", "patch"),
    ("/v1/entries/{entry_id}", "delete"),
    ("/v1/neighbours/{entry_id}", "get"),
    ("/v1/projects", "get"),
    ("/v1/projects", "post"),
    ("/v1/projects/{project_id}", "patch"),
    ("/v1/projects/{project_id}", "delete"),
    ("/v1/projects/{project_id}/leave", "post"),
    ("/v1/projects/{project_id}/entries", "get"),
    ("/v1/projects/{project_id}/export", "get"),
    ("/v1/projects/{project_id}/members", "get"),
    ("/v1/projects/{project_id}/members", "put"),
    ("/v1/projects/{project_id}/members/{user_id}", "delete"),
    ("/v1/projects/{project_id}/member-persons", "get"),
    ("/v1/projects/{project_id}/member-persons", "put"),
    ("/v1/projects/{project_id}/member-persons/{user_id}", "delete"),
    ("/v1/projects/{project_id}/entities", "get"),
    ("/v1/projects/{project_id}/entities", "post"),
    ("/v1/projects/{project_id}/entities/{kind}/{name}", "patch"),
    ("/v1/projects/{project_id}/entities/{kind}/{name}", "delete"),
    ("/v1/projects/{project_id}/relink/{job_id}", "get"),
    ("/v1/projects/{project_id}/entities/candidates", "get"),
    ("/v1/projects/{project_id}/entities/candidates/{kind}/{name}/{decision}", "post"),
    ("/v1/projects/{project_id}/entities/{entity}/called/{name}/reject", "post"),
    ("/v1/projects/{project_id}/entities/merge", "post"),
    ("/v1/projects/{project_id}/entities/unmerge", "post"),
    ("/v1/projects/{project_id}/analytics/cooccurrence", "get"),
    ("/v1/projects/{project_id}/analytics/timeline", "get"),
    ("/v1/projects/{project_id}/analytics/importance", "get"),
    ("/v1/projects/{project_id}/analytics/changes", "get"),
    ("/v1/projects/{project_id}/analytics/timeline.svg", "get"),
    ("/v1/projects/{project_id}/analytics/similar", "get"),
    ("/v1/projects/{project_id}/witnesses", "get"),
    ("/v1/projects/{project_id}/witnesses", "post"),
    ("/v1/projects/{project_id}/witnesses/{grant_id}", "delete"),
    ("/v1/w/{token}/search", "post"),
    ("/v1/w/{token}/entries", "post"),
    ("/v1/w/{token}/entries/{entry_id}", "get"),
    ("/v1/context/live", "post"),
    ("/v1/projects/{project_id}/summary", "get"),
    ("/v1/projects/{project_id}/periods", "get"),
    ("/v1/context/chapter", "post"),
    ("/v1/chapters/draft", "post"),
    ("/v1/feedback", "post"),
}

SUBCOMMANDS = [
    "db",
    "migrate",
    "ingest",
    "export",
    "import",
    "entries",
    "search",
    "token",
    "signin-link",
    "member",
    "project",
    "entity",
    "embeddings",
    "understand",
    "serve",
    "eval",
    "demo",
    "live",
    "summary",
    "summaries",
    "chapter",
    "stats",
    "mcp",
]


def test_the_api_serves_exactly_its_routes(settings: Settings) -> None:
    paths = create_app(Services(settings)).openapi()["paths"]
    assert {(path, method) for path, ops in paths.items() for method in ops} == ROUTES


def test_every_route_declares_its_response(settings: Settings) -> None:
    """A typed response documents the body in /docs and is checked by the fuzz test; 204 answers have no body."""
    paths = create_app(Services(settings)).openapi()["paths"]
    for path, ops in paths.items():
        for method, op in ops.items():
            status, response = next((s, r) for s, r in op["responses"].items() if s.startswith("2"))
            if status == "204":
                continue
            content = response["content"]
            if "image/svg+xml" in content:
                continue  # a picture: its schema is a string, the route is documented by its description
            schema = (content.get("application/json") or content["application/x-ndjson"])["schema"]
            typed = "$ref" in schema or "$ref" in schema.get("items", {})
            typed = typed or bool(schema.get("anyOf")) and all("$ref" in s for s in schema["anyOf"])
            assert typed, (method, path, schema)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("patch", "/v1/projects/{p}", {"hemisphere": "east"}),
        ("put", "/v1/projects/{p}/members", {"user_id": "x", "role": "boss"}),
        ("put", "/v1/projects/{p}/member-persons", {"user_id": "x"}),
        ("post", "/v1/projects/{p}/entities", {"kind": "animal", "name": "Rex"}),
        ("patch", "/v1/projects/{p}/entities/person/Rex", {}),
        ("patch", "/v1/projects/{p}/entities/animal/Rex", {"name": "Max"}),
        ("delete", "/v1/projects/{p}/entities/animal/Rex", None),
        ("post", "/v1/projects", {"id": "a/b", "name": "x"}),
        ("get", "/v1/projects/{p}/analytics/cooccurrence", None),
        ("get", "/v1/projects/{p}/analytics/importance?limit=0", None),
        ("get", "/v1/projects/{p}/analytics/similar?entity=Pep&kind=planet", None),
        ("post", "/v1/projects/{p}/witnesses", {}),
        ("post", "/v1/entries", {"project_id": "{p}"}),
        ("get", "/v1/projects/{p}/entries?limit=0", None),
        ("patch", "/v1/entries/{p}/x", {"kind": "novel"}),
        ("post", "/v1/w/not-a-link/search", {}),
        ("post", "/v1/w/not-a-link/entries", {}),
    ],
)
def test_a_bad_request_is_422_before_any_role_or_link_check(
    settings: Settings, method: str, path: str, body: dict[str, str] | None
) -> None:
    """Role and witness-link checks run after validation: a non-member (or a dead link) sending
    a malformed request learns it is malformed, not 403/401. Nothing here reaches the graph."""
    project = "layout-no-such-project"
    headers = {"Authorization": f"Bearer {issue(settings, 'layout-nobody')}"}
    client = TestClient(create_app(Services(settings)))
    json_body = {k: v.format(p=project) for k, v in body.items()} if body is not None else None
    resp = client.request(method, path.format(p=project), headers=headers, json=json_body)
    assert resp.status_code == 422, resp.text


def test_memora_help_lists_exactly_its_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    listed = re.search(r"\{([a-z,-]+)\}", capsys.readouterr().out)
    assert listed is not None
    assert listed.group(1).split(",") == SUBCOMMANDS


def test_no_module_is_over_500_lines() -> None:
    too_long = {}
    for package in ("graph", "inference", "ingest", "queries", "api"):
        for path in sorted((REPO / package).rglob("*.py")):
            name = path.relative_to(REPO).as_posix()
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES and name not in TOO_LONG_FOR_NOW:
                too_long[name] = lines
    assert not too_long, f"split these modules (at most {MAX_LINES} lines each): {too_long}"


def test_every_package_of_the_service_is_installed() -> None:
    """A folder with an `__init__.py` that pyproject.toml's `packages` misses is left out of a wheel: the editable
    install the tests use would never notice, an installed service would fail on its first import of it."""
    import tomllib

    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(REPO).parts)
        for top in ("graph", "inference", "ingest", "queries", "api")
        for init in (REPO / top).rglob("__init__.py")
    }
    assert found - listed == set(), "add these to pyproject.toml [tool.setuptools] packages"
    assert listed - found == set(), "pyproject.toml lists packages that do not exist"
