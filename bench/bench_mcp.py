"""The MCP door's overhead: the same call through an MCP tool and through its HTTP route, in one process
(docs/BENCHMARKS.md, "MCP server").

A small project (ENTRIES entries by ingest, three members) is served twice on loopback, by the API (`create_app`)
and by the MCP server over streamable HTTP (`api.mcp.server.http_app`), both in uvicorn threads of this process,
on the same graph and embedder, rate limits off. A reader then calls, alternating the two doors call by call,
`get_entry` (a short read) and `search` (the search door; each round a new query per door, so no door is
served by the search caches), through three doors: the HTTP route (httpx), the MCP tool as one JSON-RPC POST
(`mcp_raw`: the server's own cost) and the MCP tool through the SDK's client session (`mcp_sdk`: what an agent
built on the SDK waits, including the client's check of the result against the tool's output schema). Reported:
p50/p95 per door and the ratios of medians. The project is deleted at the end.

Usage: MEMORA_HOME=... python bench/bench_mcp.py [ENTRIES] [ROUNDS]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import uuid
from typing import Any

import anyio
import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import LATEST_PROTOCOL_VERSION

from api.app import create_app
from api.auth import issue
from api.mcp.server import MCP_PATH, http_app
from api.ratelimit import UNLIMITED
from api.services import Services
from bench.serving import served_in_thread
from graph.db import get_graph
from graph.members import set_member
from graph.settings import get_settings
from inference.embedders import get_embedder
from ingest.pipeline import Ingestor
from ingest.records import parse_line

CLEANUP = "MATCH (n) WHERE n.project_id STARTS WITH $p OR (n:Project AND n.id STARTS WITH $p) DETACH DELETE n"
CLEANUP_USERS = "MATCH (u:User) WHERE u.id STARTS WITH $p DETACH DELETE u"
PEOPLE = ["Marta", "Pep", "Lola", "Ana", "Jordi", "Carmen"]
PLACES = ["Cádiz", "Berlín", "Girona", "Madrid", "Lisboa"]
LEVELS = ["circle", "public", "circle", "intimate", "private"]


def _records(project: str, users: list[str], n: int) -> list[dict[str, Any]]:
    return [
        {
            "entry_id": f"{project}/e{i}",
            "project_id": project,
            "author": users[i % len(users)],
            "intimacy": LEVELS[i % len(LEVELS)],
            "occurred_on": f"{2000 + i % 20}-0{1 + i % 9}-1{i % 10}",
            "persons": [PEOPLE[i % 6], PEOPLE[(i * 5) % 6]],
            "places": [PLACES[i % 5]],
            "text": f"Día {i}: {PEOPLE[i % 6]} y {PEOPLE[(i * 5) % 6]} en {PLACES[i % 5]}, hablamos del viaje "
            f"número {i} y de la casa de la abuela.",
        }
        for i in range(n)
    ]


def _summary(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {"p50_ms": round(statistics.median(ms), 1), "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1)}


async def _measure(api: str, mcp: str, token: str, project: str, n: int, rounds: int) -> dict[str, Any]:
    names = [f"{tool}_{door}" for tool in ("get_entry", "search") for door in ("http", "mcp_raw", "mcp_sdk")]
    times: dict[str, list[float]] = {k: [] for k in names}
    auth = {"Authorization": f"Bearer {token}"}
    rpc_headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": LATEST_PROTOCOL_VERSION}

    def rpc(tool: str, arguments: dict[str, Any]) -> Any:
        """A tools/call as one JSON-RPC POST, without the SDK client (and its check of the result's schema)."""
        return raw.post(
            mcp,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}},
            headers=rpc_headers,
        )

    async with (
        httpx.AsyncClient(base_url=api, headers=auth, timeout=120) as http,
        httpx.AsyncClient(headers=auth, timeout=120) as raw,
        create_mcp_http_client(headers=auth) as client,
        streamable_http_client(mcp, http_client=client) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        await session.list_tools()
        for r in range(rounds + 1):  # round 0 warms both doors
            entry_id = f"{project}/e{(r * 5) % n}"  # circle: visible to the reader
            q = [
                {
                    "q": f"{PEOPLE[(r + d) % 6]} en {PLACES[(r + 2 * d) % 5]} viaje {3 * r + d}",
                    "project_id": project,
                    "k": 10,
                }
                for d in range(3)
            ]  # a query of its own per door: all cold
            calls = [
                ("get_entry_http", lambda e=entry_id: http.get(f"/v1/entries/{e}")),
                ("get_entry_mcp_raw", lambda e=entry_id: rpc("get_entry", {"entry_id": e})),
                ("get_entry_mcp_sdk", lambda e=entry_id: session.call_tool("get_entry", {"entry_id": e})),
                ("search_http", lambda q=q[0]: http.post("/v1/search", json=q)),
                ("search_mcp_raw", lambda q=q[1]: rpc("search", q)),
                ("search_mcp_sdk", lambda q=q[2]: session.call_tool("search", q)),
            ]
            if r % 2:
                calls = calls[2::-1] + calls[:2:-1]
            for name, call in calls:
                start = time.perf_counter()
                answer = await call()
                elapsed = (time.perf_counter() - start) * 1000
                if isinstance(answer, httpx.Response):
                    body = answer.json()
                    ok = answer.status_code == 200 and (
                        body.get("result", {}).get("isError") is False if "jsonrpc" in body else True
                    )
                else:
                    ok = not answer.isError
                assert ok, (name, answer)
                if r:
                    times[name].append(elapsed)
    out: dict[str, Any] = {k: _summary(v) for k, v in times.items()}
    for tool in ("get_entry", "search"):
        for door in ("mcp_raw", "mcp_sdk"):
            out[f"{tool}_ratio_{door}_over_http"] = round(
                out[f"{tool}_{door}"]["p50_ms"] / out[f"{tool}_http"]["p50_ms"], 2
            )
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    settings = get_settings().model_copy(update=UNLIMITED)
    graph, embedder = get_graph(settings), get_embedder(settings)
    prefix = f"bmcp{uuid.uuid4().hex[:8]}-"
    project, users = f"{prefix}p", [f"{prefix}owner", f"{prefix}coauthor", f"{prefix}reader"]
    for user, role in zip(users, ("owner", "coauthor", "reader"), strict=True):
        set_member(graph, project, user, role)
    try:
        items = [
            (i, parse_line(i, json.dumps(r, ensure_ascii=False)))
            for i, r in enumerate(_records(project, users, n), start=1)
        ]
        report = Ingestor(graph, embedder).ingest(items)
        assert not report.errors
        svc = Services(settings, graph=graph, embedder=embedder)
        with served_in_thread(create_app(svc)) as api, served_in_thread(http_app(svc)) as mcp:
            result = anyio.run(_measure, api, mcp + MCP_PATH, issue(settings, users[2]), project, n, rounds)
        print(json.dumps({"entries": n, "rounds": rounds, **result}))
    finally:
        graph.write(CLEANUP, {"p": prefix})
        graph.write(CLEANUP_USERS, {"p": prefix})


if __name__ == "__main__":
    main()
