"""`memora mcp --transport http`: the streamable-HTTP door, driven by the MCP SDK's own client on loopback. Every
tool answers what its route answers; a reader sees nothing hidden through any tool, resource or prompt, and nothing
they see moves when hidden entries are added; a witness link reaches its chapter only; tokens are the API's."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import anyio
import httpx
import jwt
import pytest
from mcp import types
from mcp.shared.exceptions import McpError

from api import auth
from graph.db import Graph
from graph.ids import period_id
from graph.settings import Settings
from graph.witnesses import create_grant, revoke_grant
from inference.embedders import CheckedEmbedder
from tests.mcp_session import (
    PERSONS,
    PLACES,
    build_world,
    everything,
    http_server,
    http_session,
    names,
    ok,
    refused,
    stable,
)
from tests.summary_world import BERLIN, CADIZ, MARKERS, hidden_markers, record

TOOLS = {"search", "get_entry", "entity_question", "summary", "chapter_context", "live_context", "add_entry"}


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, Any]:
    return build_world(graph, prefix, ingest)


def _token(settings: Settings, world: dict[str, Any], key: str) -> str:
    return auth.issue(settings, world["users"][key])


def test_tools_are_listed_with_schemas_and_each_answers_as_its_route(
    settings: Settings,
    graph: Graph,
    embedder: CheckedEmbedder,
    world: dict[str, Any],
    client: Any,
    auth: Callable[[str], dict[str, str]],
) -> None:
    project, owner = world["project"], world["users"]["owner"]

    async def run(url: str) -> None:
        async with http_session(url, _token(settings, world, "owner")) as s:
            listed = (await s.list_tools()).tools
            assert {t.name for t in listed} == TOOLS
            for t in listed:
                assert t.description and t.inputSchema["type"] == "object" and t.inputSchema["properties"]
                assert t.outputSchema is not None and t.outputSchema["type"] == "object"
            search = {t.name: t for t in listed}["search"]
            assert {"q", "project_id", "k", "filters", "rerank"} <= set(search.inputSchema["properties"])

            q = {"q": "Marta aprendió a nadar, flotaba como un girasol", "project_id": project, "k": 5}
            found = await ok(s, "search", **q)
            over_http = client.post("/v1/search", json=q, headers=auth(owner)).json()
            assert [r["entry_id"] for r in found["results"]] == [r["entry_id"] for r in over_http["results"]]
            assert found["results"][0]["entry_id"] == f"{project}/c2"

            entry = await ok(s, "get_entry", entry_id=f"{project}/c4")
            assert entry == client.get(f"/v1/entries/{project}/c4", headers=auth(owner)).json()

            co = await ok(s, "entity_question", question="cooccurrence", project_id=project, entity="Marta")
            assert (
                co["cooccurrence"]
                == client.get(
                    f"/v1/projects/{project}/analytics/cooccurrence", params={"entity": "Marta"}, headers=auth(owner)
                ).json()
            )
            tl = await ok(
                s, "entity_question", question="timeline", project_id=project, entity="Pep", resolution="month"
            )
            assert (
                tl["timeline"]
                == client.get(
                    f"/v1/projects/{project}/analytics/timeline",
                    params={"entity": "Pep", "resolution": "month"},
                    headers=auth(owner),
                ).json()
            )
            assert sum(y["entries"] for y in tl["timeline"]["years"]) == 2  # b1, n1; not b2, the coauthor's private
            imp = await ok(s, "entity_question", question="importance", project_id=project, limit=3)
            assert (
                imp["importance"]
                == client.get(
                    f"/v1/projects/{project}/analytics/importance", params={"limit": 3}, headers=auth(owner)
                ).json()
            )
            status, reason = await refused(
                s, "entity_question", question="similar", project_id=project, entity="Nadie Inventado"
            )
            assert (status, reason) == (404, "no such person, place, thing or chapter")

            summary = await ok(s, "summary", project_id=project)
            assert summary["summary"]["level"] == 2 and MARKERS["c4"] in summary["summary"]["text"]
            chapter = await ok(s, "summary", project_id=project, period=period_id(project, BERLIN))
            assert chapter["period"]["name"] == BERLIN and chapter["summary"]["level"] == 1

            ctx = await ok(s, "chapter_context", project_id=project, theme=CADIZ, budget_tokens=2000)
            assert ctx["used_tokens"] <= 2000 and {e["entry_id"] for e in ctx["entries"]} <= {
                f"{project}/{k}" for k in ("c1", "c2", "c3", "c4", "c5")
            }
            live = await ok(s, "live_context", project_id=project, transcript="Pep y la estufa de Kreuzberg")
            assert stable(live) == stable(
                client.post(
                    "/v1/context/live",
                    json={"project_id": project, "transcript": "Pep y la estufa de Kreuzberg"},
                    headers=auth(owner),
                ).json()
            )

            written = await ok(
                s,
                "add_entry",
                project_id=project,
                text="Volvimos a la Caleta en 2011.",
                occurred_on="2011",
                intimacy="private",
                wait=True,
            )
            assert written["status"] == "created" and written["embedding"] == "done"
            again = await ok(s, "get_entry", entry_id=written["entry_id"])
            assert again["author"] == owner and again["intimacy"] == "private" and "wait" not in again

    with http_server(settings, graph, embedder) as url:
        anyio.run(run, url)


def test_a_reader_sees_nothing_hidden_through_any_tool_resource_or_prompt(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any], ingest: Callable[..., Any]
) -> None:
    project, users = world["project"], world["users"]
    ids = [f"{project}/{k}" for k in MARKERS] + [f"{project}/nope"]

    async def observe(url: str) -> dict[str, Any]:
        async with http_session(url, _token(settings, world, "reader")) as s:
            seen = await everything(s, project, ids)
            missing = seen[f"get {project}/nope"]
            for hidden in ("c3", "c4", "b2", "n1"):  # intimate and private entries of others
                assert seen[f"get {project}/{hidden}"] == missing
            assert missing["error"] == {"status": 404, "detail": "entry not found"}
            status, reason = await refused(s, "add_entry", project_id=project, text="Un lector no escribe.")
            assert (status, reason) == (403, "only the project's owner and coauthors can write to it")
            return seen

    with http_server(settings, graph, embedder) as url:
        before = anyio.run(observe, url)
        text = json.dumps(before, ensure_ascii=False)
        leaked = [m for m in hidden_markers("reader") if m in text]
        assert not leaked, f"the reader saw {leaked} through MCP"
        assert MARKERS["c5"] in text  # the reader's own intimate entry is theirs to see
        assert f"{project}/chapters/" in text and project in before["resources"][1]

        # Hidden entries added (naming the people and places the reader asks about): nothing the reader observes
        # through any tool, resource or prompt changes.
        rows = [
            ("x1", "owner", "private", CADIZ, "2008-07-03", "Marta y Pep en Cádiz y Berlín, papá, pepinillo."),
            ("x2", "coauthor", "intimate", "Capítulo oculto", "2012-01-01", "Pep y Marta en Kreuzberg, pepinillo."),
            ("x3", "owner", "private", BERLIN, "2009-01-11", "Marta en Berlín con Pep y Lola, pepinillo."),
        ]
        extra = [
            record(project, users, row, persons=names(row[5], PERSONS), places=names(row[5], PLACES)) for row in rows
        ]
        assert not ingest(extra).errors
        after = anyio.run(observe, url)
    assert "pepinillo" not in json.dumps(after, ensure_ascii=False)
    changed = sorted(k for k in before if before[k] != after[k])
    assert not changed, f"hidden entries changed what the reader sees through: {changed}"


def test_a_witness_link_reaches_its_chapter_only(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any]
) -> None:
    project = world["project"]
    from datetime import timedelta

    grant = create_grant(
        graph, project, period_id(project, CADIZ), world["users"]["owner"], timedelta(days=1), "tía Lola"
    )
    assert grant is not None
    link = auth.issue_witness(settings, grant, 86400)

    async def run(url: str) -> None:
        async with http_session(url, link) as s:
            listed = (await s.list_tools()).tools
            assert {t.name for t in listed} == {"search", "get_entry", "add_entry"}
            assert set({t.name: t for t in listed}["search"].inputSchema["properties"]) == {"q", "k", "include_chunks"}
            found = await ok(s, "search", q="Marta Cádiz Berlín Pep papá mandarino", k=50)
            assert {r["entry_id"] for r in found["results"]} == {f"{project}/c1", f"{project}/c2"}
            assert (await ok(s, "get_entry", entry_id=f"{project}/c1"))["text"].startswith("Llegamos")
            for other in ("c3", "c4", "b1", "b3", "nope"):  # hidden in the chapter, or another chapter
                assert await refused(s, "get_entry", entry_id=f"{project}/{other}") == (404, "entry not found")
            for tool, args in (
                ("entity_question", {"question": "importance", "project_id": project}),
                ("summary", {"project_id": project}),
                ("chapter_context", {"project_id": project, "theme": "Cádiz"}),
                ("live_context", {"project_id": project, "transcript": "Cádiz"}),
            ):
                status, reason = await refused(s, tool, **args)
                assert status == 403 and "witness link opens only its chapter" in reason
            assert (await s.list_resources()).resources == [] and (await s.list_prompts()).prompts == []
            with pytest.raises(McpError, match="witness link opens only its chapter"):
                await s.read_resource(f"memora://projects/{project}")  # type: ignore[arg-type]
            with pytest.raises(McpError, match="witness link opens only its chapter"):
                await s.get_prompt("write_chapter", {"project_id": project, "theme": "Cádiz"})
            status, _ = await refused(s, "search", q="Cádiz", project_id=project)  # the witness body only
            assert status == 422
            account = await ok(s, "add_entry", text="Yo estaba en la Caleta aquel verano.")
            assert account["status"] == "created"
            mine = await ok(s, "get_entry", entry_id=account["entry_id"])
            assert (mine["kind"], mine["intimacy"], mine["period"]) == ("witness", "circle", CADIZ)

    with http_server(settings, graph, embedder) as url:
        anyio.run(run, url)
        assert revoke_grant(graph, project, grant)
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"q": "Caleta"}},
        }
        answer = httpx.post(
            url, json=call, headers={"Authorization": f"Bearer {link}", "Accept": "application/json, text/event-stream"}
        )
        assert (answer.status_code, answer.json()) == (401, {"detail": "this witness link has expired or was revoked"})


def test_tokens_are_the_apis(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any]
) -> None:
    project = world["project"]
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": types.LATEST_PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        },
    }
    headers = {"Accept": "application/json, text/event-stream"}
    expired = auth.issue(settings, world["users"]["owner"], ttl_seconds=-10)
    secret = "s" * 40
    jwt_settings = settings.model_copy(
        update={
            "auth_issuer": "https://id.example",
            "auth_audience": "memora",
            "auth_hs256_secret": secret,
            "auth_algorithms": "HS256",
        }
    )
    token = jwt.encode(
        {"sub": world["users"]["reader"], "iss": "https://id.example", "aud": "memora", "exp": int(time.time()) + 300},
        secret,
        algorithm="HS256",
    )

    with http_server(settings, graph, embedder) as url:
        for given, reason in (
            (None, "missing bearer token"),
            ("mem1.abc.def", "invalid token: bad signature"),
            (expired, "invalid token: token expired"),
            (token, "invalid token: JWTs are not accepted by this service (MEMORA_AUTH_* not configured)"),
            ("wit1.abc.def", "invalid witness link: bad signature"),
        ):
            auth_header = {"Authorization": f"Bearer {given}"} if given else {}
            answer = httpx.post(url, json=init, headers={**headers, **auth_header})
            assert (answer.status_code, answer.json()) == (401, {"detail": reason}), given

        async def refused_by_client() -> None:
            async with http_session(url, "mem1.abc.def"):
                pass

        with pytest.raises(Exception) as caught:
            anyio.run(refused_by_client)
        assert "401" in repr(caught.value) or "Unauthorized" in repr(caught.value)

    async def as_jwt_reader(url: str) -> None:
        async with http_session(url, token) as s:
            found = await ok(s, "search", q="mandarino tamborín", project_id=project, k=50)
            assert not {f"{project}/c4", f"{project}/b2"} & {r["entry_id"] for r in found["results"]}

    with http_server(jwt_settings, graph, embedder) as url:
        anyio.run(as_jwt_reader, url)


def test_bad_arguments_and_spent_budgets_are_answered_with_the_apis_reasons(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any]
) -> None:
    project = world["project"]
    limited = settings.model_copy(
        update={
            "rate_search_per_second": 0.001,
            "rate_search_burst": 2,
            "rate_read_per_second": 0.001,
            "rate_read_burst": 4,
        }
    )

    async def run(url: str) -> None:
        async with http_session(url, _token(settings, world, "owner")) as s:
            status, reason = await refused(s, "search", q="x", k=1000)
            assert status == 422 and reason.startswith("invalid arguments: k: ") and "100" in reason
            assert await refused(s, "entity_question", question="timeline", project_id=project) == (
                422,
                "invalid arguments: entity: Field required",
            )
            status, reason = await refused(s, "entity_question", question="why", project_id=project, entity="Pep")
            assert status == 422 and "question" in reason
            status, reason = await refused(s, "get_entry")
            assert (status, reason) == (422, "invalid arguments: entry_id: Field required")
            status, reason = await refused(s, "summary", project_id=f"{project}-not-mine")
            assert (status, reason) == (403, "not a member of this project")
            assert await refused(s, "summary", project_id=project, period="Nunca existió") == (
                404,
                "no such chapter in this project",
            )
            status, reason = await refused(s, "no_such_tool")
            assert status == 404 and "no such tool" in reason
            await ok(s, "search", q="Cádiz", project_id=project)  # the second search (a refused body spends too)
            status, reason = await refused(s, "search", q="Cádiz")  # the third: the budget of 2 is spent
            assert status == 429 and reason.startswith("too many searches by this caller")
            with pytest.raises(McpError, match="no such resource"):
                await s.read_resource("memora://elsewhere/x")  # type: ignore[arg-type]
            # entity_question and summary spent the 4 reads (refused arguments spend too, as on the API)
            with pytest.raises(McpError, match="too many expensive reads by this caller"):
                await s.list_resources()  # one listing reads every project's chapters: it spends a read

    with http_server(limited, graph, embedder, limits=True) as url:
        anyio.run(run, url)


def test_a_host_the_server_does_not_serve_is_refused_on_any_bind(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder
) -> None:
    """A wide bind (no MCP-library check) still answers only the names it serves: a rebound name gets 421."""
    from api.app import Services
    from api.mcp.server import MCP_PATH, http_app
    from bench.serving import served_in_thread

    with served_in_thread(http_app(Services(settings, graph=graph, embedder=embedder), host="0.0.0.0")) as url:
        port = url.rsplit(":", 1)[1]
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        foreign = httpx.post(url + MCP_PATH, json=body, headers={"host": f"attacker.example:{port}"})
        assert foreign.status_code == 421
        served = httpx.post(url + MCP_PATH, json=body, headers={"host": f"localhost:{port}"})
        assert served.status_code == 401, "a served name reaches the token check"
