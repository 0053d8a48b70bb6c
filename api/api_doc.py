"""docs/api.md, rendered from the FastAPI application: every route by resource (its router's tag), with its method,
path, summary, description and answers, as the OpenAPI document at `/docs` has them.

    .venv/bin/python -m api.api_doc > docs/api.md      (or `make docs`)

tests/house/test_docs_api.py fails when the page differs from what this module renders. A route's text is its function's
docstring and its declared responses in `api/routes/`; a resource's introduction is in `TAGS` below.
"""

from __future__ import annotations

import sys
from typing import Any

from fastapi.routing import APIRoute

from api.app import ROUTERS, Services, create_app
from graph.settings import Settings

COMMAND = ".venv/bin/python -m api.api_doc > docs/api.md"

# Resources in the order of the page, with a line about each.
TAGS: dict[str, str] = {
    "health": "Probes for load balancers and orchestrators, and the operator's metrics. No token.",
    "search": "The one search door ([search.md](search.md)), and the click feedback of the retrieval log "
    '([operations.md, "Telemetry"](operations.md#telemetry)).',
    "entries": "Entries in the one record format of files and HTTP ([entries.md](entries.md)), and a project's "
    "visible entries by date.",
    "projects": "Projects, their members and roles, and the export of a project "
    '([operations.md, "Export, import, backup"](operations.md#export-import-backup)).',
    "entities": "Persons, places and things: declarations, re-linking, recognition candidates, merges, and the "
    "entity questions ([entities.md](entities.md)).",
    "witnesses": "Links that let an outside person search and add to one chapter "
    '([architecture.md, "Privacy: who sees what"](architecture.md#privacy-who-sees-what)).',
    "context": "Live interview context ([live.md](live.md)).",
    "summaries": "Summaries per audience, chapter context and drafts ([summaries.md](summaries.md)).",
}
METHODS = ("get", "post", "put", "patch", "delete")


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split()).replace("|", "/")


def _answers(responses: dict[str, Any]) -> str:
    return ", ".join(sorted(responses))


def _schema_routes(openapi: dict[str, Any]) -> dict[str, list[tuple[str, str, dict[str, Any]]]]:
    by_tag: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, operations in openapi["paths"].items():
        for method in METHODS:
            if method in operations:
                operation = operations[method]
                tag = (operation.get("tags") or ["other"])[0]
                by_tag.setdefault(tag, []).append((method, path, operation))
    return by_tag


def _hidden_routes() -> dict[str, list[APIRoute]]:
    """Routes left out of the OpenAPI document (the operator's `/metrics`), by tag."""
    by_tag: dict[str, list[APIRoute]] = {}
    for router in ROUTERS:
        for route in router.routes:
            if isinstance(route, APIRoute) and not route.include_in_schema:
                tag = str((route.tags or router.tags or ["other"])[0])
                by_tag.setdefault(tag, []).append(route)
    return by_tag


def render() -> str:
    app = create_app(Services(Settings.model_construct()))  # defaults, whatever the environment says
    openapi = app.openapi()
    schema_routes = _schema_routes(openapi)
    hidden = _hidden_routes()
    lines = [
        "# HTTP API reference",
        "",
        "<!-- Generated from the FastAPI application (api/app.py, api/routes/) by api/api_doc.py; do not edit.",
        f"     Regenerate: {COMMAND} -->",
        "",
        f"{openapi['info']['title']} {openapi['info']['version']}: {openapi['info'].get('description', '')} "
        "Every route of `memora serve`, by resource. The request and response bodies are in the OpenAPI document "
        "the service serves: the interactive page at `/docs` (for example `http://127.0.0.1:8077/docs`) and the "
        "schema at `/openapi.json`. How to authenticate, the rate limits and what each refusal means are in "
        "[http.md](http.md).",
        "",
        "Every route but `/health`, `/ready` and `/metrics` needs `Authorization: Bearer <token>` (the witness "
        "routes take the link's token in the path instead). Answers are listed by status code; `429` is a spent "
        "rate budget and `503` an unreachable graph database, both with `Retry-After`.",
        "",
    ]
    tags = list(TAGS) + sorted(set(schema_routes) - set(TAGS))
    for tag in tags:
        lines += [f"## {tag}", ""]
        if tag in TAGS:
            lines += [TAGS[tag], ""]
        lines += ["| method and path | what | answers |", "|---|---|---|"]
        for method, path, operation in schema_routes.get(tag, []):
            what = f"**{_one_line(operation.get('summary'))}**"
            description = _one_line(operation.get("description"))
            if description:
                what += f": {description}"
            lines.append(f"| `{method.upper()} {path}` | {what} | {_answers(operation['responses'])} |")
        for route in hidden.get(tag, []):
            for method in sorted(m.lower() for m in route.methods or ()):
                what = f"**{_one_line(route.summary or route.name.replace('_', ' ').title())}**"
                description = _one_line((route.description or "").split("\n\n")[0])
                if description:
                    what += f": {description}"
                what += " Not in the OpenAPI document."
                lines.append(f"| `{method.upper()} {route.path}` | {what} | 200, 401, 404, 429 |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(render())
