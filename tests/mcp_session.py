"""MCP clients for the tests, from the SDK itself: `memora mcp --as USER` started over stdio in a subprocess, or the
streamable-HTTP server (`api.mcp.server.http_app`) served on loopback in a thread."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from api.mcp.server import MCP_PATH, http_app
from api.ratelimit import UNLIMITED
from api.services import Services
from bench.serving import ROOT, served_in_thread
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from tests.summary_world import BERLIN, CADIZ, ENTRIES, ROLES, record

PERSONS = ("Marta", "Pep", "Lola", "Ana", "Papá")
PLACES = ("Cádiz", "Berlín", "Barcelona", "Kreuzberg", "Caleta")


def names(text: str, among: tuple[str, ...]) -> list[str]:
    return [n for n in among if n.lower() in text.lower()]


def build_world(graph: Graph, prefix: str, ingest: Any) -> dict[str, Any]:
    """tests/summary_world.py's family (one marker word per entry), with the persons and places each entry names."""
    project = f"{prefix}fam"
    users = {key: f"{prefix}{key}" for key in ROLES}
    for key, role in ROLES.items():
        set_member(graph, project, users[key], role)
    report = ingest(
        [record(project, users, row, persons=names(row[5], PERSONS), places=names(row[5], PLACES)) for row in ENTRIES]
    )
    assert not report.errors
    return {"project": project, "users": users, "outsider": f"{prefix}outsider"}


@asynccontextmanager
async def stdio_session(user: str, extra_env: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    """`python -m api.cli mcp --as USER` from this checkout, on the test's MEMORA_HOME and Neo4j, no worker."""
    env = {**os.environ, "MEMORA_EMBED_WORKER": "false", **(extra_env or {})}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "api.cli", "mcp", "--as", user], env=env, cwd=str(ROOT)
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@contextmanager
def http_server(settings: Settings, graph: Graph, embedder: CheckedEmbedder, limits: bool = False) -> Iterator[str]:
    """The MCP endpoint's URL; rate limits off unless `limits`."""
    cfg = settings if limits else settings.model_copy(update=UNLIMITED)
    with served_in_thread(http_app(Services(cfg, graph=graph, embedder=embedder))) as url:
        yield url + MCP_PATH


@asynccontextmanager
async def http_session(url: str, token: str) -> AsyncIterator[ClientSession]:
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        streamable_http_client(url, http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def ok(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool's structured result, failing the test on an error result."""
    result = await session.call_tool(tool, arguments)
    assert not result.isError, (tool, result.content)
    assert result.structuredContent is not None
    return result.structuredContent


async def refused(session: ClientSession, tool: str, **arguments: Any) -> tuple[int, str]:
    """The status and reason of a tool's error result (the HTTP layer's), failing the test on a result."""
    result = await session.call_tool(tool, arguments)
    assert result.isError, (tool, result.structuredContent)
    assert result.structuredContent is not None
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert "Traceback" not in text.text
    return int(result.structuredContent["status"]), text.text


VOLATILE = {"latency_ms", "search_id"}


def stable(data: Any) -> Any:
    """What a viewer observes, without the timings and ids that differ on every call."""
    if isinstance(data, dict):
        return {k: stable(v) for k, v in data.items() if k not in VOLATILE}
    if isinstance(data, list):
        return [stable(v) for v in data]
    return data


async def everything(session: Any, project: str, entry_ids: list[str]) -> dict[str, Any]:
    """Each tool (every entity question), every resource and the prompt, as the session's caller sees them."""
    seen: dict[str, Any] = {}
    seen["search"] = await session.call_tool(
        "search", {"q": "Marta Cádiz Berlín Pep papá", "project_id": project, "k": 50}
    )
    seen["search_all"] = await session.call_tool("search", {"q": "mandarino tamborín pelícano"})
    for entry_id in entry_ids:
        seen[f"get {entry_id}"] = await session.call_tool("get_entry", {"entry_id": entry_id})
    for question, entity in (
        ("cooccurrence", "Marta"),
        ("timeline", "Pep"),
        ("importance", None),
        ("similar", "Marta"),
    ):
        args = {"question": question, "project_id": project, **({"entity": entity} if entity else {})}
        seen[f"entity {question}"] = await session.call_tool("entity_question", args)
    seen["summary"] = await session.call_tool("summary", {"project_id": project})
    for period in (CADIZ, BERLIN):
        seen[f"summary {period}"] = await session.call_tool("summary", {"project_id": project, "period": period})
    seen["chapter"] = await session.call_tool(
        "chapter_context", {"project_id": project, "theme": "Cádiz y Berlín", "budget_tokens": 3000}
    )
    seen["live"] = await session.call_tool(
        "live_context", {"project_id": project, "transcript": "Háblame de Pep en Berlín y de Marta en Cádiz."}
    )
    listed = await session.list_resources()
    seen["resources"] = sorted(str(r.uri) for r in listed.resources)
    for r in listed.resources:
        seen[f"read {r.uri}"] = (await session.read_resource(r.uri)).contents[0].text
    prompt = await session.get_prompt("write_chapter", {"project_id": project, "theme": "Cádiz"})
    seen["prompt"] = prompt.messages[0].content.text
    return {k: stable(observed(v)) for k, v in seen.items()}


def observed(answer: Any) -> Any:
    """A tool result's structured content (its text is the same JSON, timings included), or its error."""
    if isinstance(answer, types.CallToolResult):
        if answer.isError:
            return {"error": answer.structuredContent, "text": [c.model_dump() for c in answer.content]}
        assert answer.structuredContent is not None
        assert stable(json.loads(answer.content[0].text)) == stable(answer.structuredContent)  # type: ignore
        return answer.structuredContent
    return answer
