"""`memora mcp --as USER` over stdio: started as a subprocess from this checkout and driven by the MCP SDK's stdio
client, as a desktop agent would. The caller is the `--as` user; a reader sees nothing hidden through any tool,
resource or prompt; arguments over the API's body limit are refused as the HTTP door refuses them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anyio
import pytest

from api.cli import main
from graph.db import Graph
from tests.mcp_session import build_world, everything, ok, refused, stdio_session
from tests.summary_world import MARKERS, hidden_markers

TOOLS = {"search", "get_entry", "entity_question", "summary", "chapter_context", "live_context", "add_entry"}


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, Any]:
    return build_world(graph, prefix, ingest)


def test_a_reader_over_stdio_sees_only_what_they_may_see(world: dict[str, Any]) -> None:
    project = world["project"]
    ids = [f"{project}/{k}" for k in MARKERS] + [f"{project}/nope"]

    async def run() -> dict[str, Any]:
        async with stdio_session(world["users"]["reader"]) as s:
            assert {t.name for t in (await s.list_tools()).tools} == TOOLS
            assert [p.name for p in (await s.list_prompts()).prompts] == ["write_chapter"]
            seen = await everything(s, project, ids)
            assert await refused(s, "add_entry", project_id=project, text="Un lector no escribe.") == (
                403,
                "only the project's owner and coauthors can write to it",
            )
            return seen

    seen = anyio.run(run)
    for hidden in ("c3", "c4", "b2", "n1"):
        assert seen[f"get {project}/{hidden}"] == seen[f"get {project}/nope"]
    assert seen[f"get {project}/nope"]["error"] == {"status": 404, "detail": "entry not found"}
    text = json.dumps(seen, ensure_ascii=False)
    leaked = [m for m in hidden_markers("reader") if m in text]
    assert not leaked, f"the reader saw {leaked} through MCP over stdio"
    assert MARKERS["c5"] in text and MARKERS["c1"] in text
    assert "memora://projects" in seen["resources"] and len(seen["resources"]) == 4  # list, project, 2 chapters
    assert "Cite every fact with the id of the entry" in seen["prompt"]


def test_an_owner_over_stdio_writes_and_the_body_limit_holds(world: dict[str, Any]) -> None:
    project = world["project"]

    async def run() -> None:
        async with stdio_session(world["users"]["owner"], {"MEMORA_MAX_BODY_BYTES": "4000"}) as s:
            written = await ok(
                s,
                "add_entry",
                project_id=project,
                text="Desde el agente: la Caleta en 2011.",
                occurred_on="2011",
                persons=["Marta"],
                mood="nostalgia",
            )
            assert written["status"] == "created" and written["entry_id"].startswith(f"{project}/")
            entry = await ok(s, "get_entry", entry_id=written["entry_id"])
            assert (entry["author"], entry["mood"], entry["intimacy"]) == (
                world["users"]["owner"],
                "nostalgia",
                "circle",
            )
            status, reason = await refused(s, "search", q="Caleta " * 900, project_id=project)
            assert (status, reason) == (
                422,
                "invalid arguments: arguments: request body larger than the limit of 4000 bytes",
            )
            status, reason = await refused(s, "chapter_context", project_id=project, theme="Cádiz", budget_tokens=0)
            assert status == 422 and reason.startswith("invalid arguments: budget_tokens: ")

    anyio.run(run)


def test_stdio_needs_an_identity_and_http_takes_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp"]) == 2
    assert "mcp over stdio needs --as USER" in capsys.readouterr().err
    assert main(["mcp", "--transport", "http", "--as", "someone"]) == 2
    assert "--as is for stdio" in capsys.readouterr().err
