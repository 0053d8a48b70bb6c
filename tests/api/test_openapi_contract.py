"""The OpenAPI document says what the service does: every error status a route can answer is documented with its
body, descriptions match behaviour (diversify, rerank, "any of" filters), and no field is accepted that does
nothing."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import auth
from api.app import Services, create_app
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder


@pytest.fixture(scope="module")
def spec(settings: Settings) -> dict[str, Any]:
    return create_app(Services(settings)).openapi()


def _error_ref(op: dict[str, Any], status: str) -> str:
    return str(op["responses"][status]["content"]["application/json"]["schema"]["$ref"])


def test_every_authenticated_route_documents_401_422_503_with_their_bodies(spec: dict[str, Any]) -> None:
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if path in ("/health", "/ready"):
                continue
            for status in ("401", "503"):
                assert _error_ref(op, status).endswith("/ErrorOut"), (method, path, status)
            assert _error_ref(op, "422").endswith("/ValidationErrorOut"), (method, path)
            assert "Retry-After" in op["responses"]["503"]["headers"], (method, path)


def test_routes_with_an_id_in_the_path_document_404_and_project_routes_403(spec: dict[str, Any]) -> None:
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if "{entry_id" in path or "{grant_id}" in path or "/entities/" in path:
                assert _error_ref(op, "404").endswith("/ErrorOut"), (method, path)
            if path.startswith("/v1/projects/{project_id}"):
                assert _error_ref(op, "403").endswith("/ErrorOut"), (method, path)


def test_the_search_body_describes_what_its_switches_do(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    props = schemas["SearchRequest"]["properties"]
    assert "hyde" not in props, "a switch that does nothing is not offered"
    diversify = props["diversify"]["description"]  # what each MEMORA_DIVERSIFY setting does, default first
    assert "by default one sharing at least 80 %" in diversify and "MEMORA_DIVERSIFY=mmr, MMR" in diversify
    assert "any of its values" in schemas["SearchFilters"]["description"]


def test_rerank_without_a_reranker_keeps_the_order_and_says_so(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str
) -> None:
    project, ana = f"{prefix}rr", f"{prefix}ana"
    set_member(graph, project, ana, "owner")
    with TestClient(create_app(Services(settings, graph=graph, embedder=embedder))) as client:
        headers = {"Authorization": f"Bearer {auth.issue(settings, ana)}"}
        for i, text in enumerate(["La abuela hacía croquetas los domingos.", "Croquetas de jamón en Cádiz."]):
            assert (
                client.post(
                    "/v1/entries?wait=true",
                    headers=headers,
                    json={"project_id": project, "entry_id": f"{project}/e{i}", "text": text},
                ).status_code
                == 201
            )
        plain = client.post("/v1/search", headers=headers, json={"q": "croquetas", "project_id": project}).json()
        fast = client.post(
            "/v1/search", headers=headers, json={"q": "croquetas", "project_id": project, "rerank": "fast"}
        ).json()
        assert [r["entry_id"] for r in fast["results"]] == [r["entry_id"] for r in plain["results"]]
        assert not any("rerank" in w for w in plain["warnings"])
        assert any("no reranker is configured" in w for w in fast["warnings"])
        hyde = client.post("/v1/search", headers=headers, json={"q": "croquetas", "project_id": project, "hyde": True})
        assert hyde.status_code == 422 and hyde.json()["detail"][0]["type"] == "extra_forbidden"


def _module_strings(tree: ast.Module) -> set[str]:
    return {
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        for t in node.targets
        if isinstance(t, ast.Name)
    }


def test_every_422_a_handler_raises_has_the_documented_field_error_shape() -> None:
    """A 422 is documented as a list of field errors; a handler that raised one with a sentence would answer a body
    its own schema rejects."""
    sentences = []
    for path in sorted(Path("api").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _module_strings(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "HTTPException"):
                continue
            if len(node.args) < 2 or not (isinstance(node.args[0], ast.Constant) and node.args[0].value == 422):
                continue
            detail = node.args[1]
            if (
                isinstance(detail, (ast.Constant, ast.JoinedStr, ast.BinOp))
                or (isinstance(detail, ast.Call) and getattr(detail.func, "id", None) == "str")
                or (isinstance(detail, ast.Name) and detail.id in constants)
            ):
                sentences.append(f"{path}:{node.lineno}")
    assert not sentences, f"422 raised with a sentence instead of field errors (use invalid_field): {sentences}"
