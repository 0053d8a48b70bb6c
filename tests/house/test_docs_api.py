"""docs/api.md is the FastAPI application's routes, rendered: it fails here when a route, its description or its
answers changed and the page was not regenerated, and when a router's tag has no introduction."""

from __future__ import annotations

from pathlib import Path

from api import api_doc
from api.app import Services, create_app
from graph.settings import Settings

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_api_page_is_what_the_app_renders() -> None:
    assert PAGE.read_text(encoding="utf-8") == api_doc.render(), (
        f"docs/api.md is out of date: regenerate it with `{api_doc.COMMAND}` (or `make docs`)"
    )


def test_every_route_is_on_the_page_under_an_introduced_tag(settings: Settings) -> None:
    page = PAGE.read_text(encoding="utf-8")
    for path, operations in create_app(Services(settings)).openapi()["paths"].items():
        for method, operation in operations.items():
            assert f"`{method.upper()} {path}`" in page
            assert operation["tags"][0] in api_doc.TAGS, f"introduce tag {operation['tags'][0]!r} in api_doc.TAGS"
    assert "`GET /metrics`" in page
