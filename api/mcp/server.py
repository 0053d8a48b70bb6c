"""The MCP server (official `mcp` SDK, low-level `Server`): tools, resources and the prompt, over stdio for a local
agent or streamable HTTP behind the API's bearer tokens.

The graph calls are synchronous, as in the routes; each runs in a worker thread so one slow search does not stall
the transport. Over HTTP the server is stateless (every POST carries its own token and is authenticated on its own:
no session can be borrowed by another caller) and answers JSON.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi.responses import JSONResponse
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.lowlevel.server import request_ctx
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import McpError
from pydantic import AnyUrl
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Send
from starlette.types import Scope as AsgiScope

from api.jwt_auth import verifier_for
from api.mcp import resources, tools
from api.mcp.caller import STATE_KEY, Caller, authenticate, caller_of, refusal_of
from api.middleware import BodyLimit, TrustedOrigins, served_names
from api.ratelimit import Limits
from api.services import Services

INSTRUCTIONS = (
    "Memora Graph: a person's memories (diary, chronicle, transcripts, witness accounts). Every answer "
    "holds only what the caller may see. Cite entries by their `entry_id`."
)
MCP_PATH = "/mcp"
LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]


def _error(exc: BaseException) -> types.CallToolResult:
    r = refusal_of(exc)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=r.text)],
        isError=True,
        structuredContent={"status": r.status, "detail": r.detail},
    )


def _mcp_error(exc: BaseException) -> McpError:
    """Resources and prompts have no `isError` result: the refusal is a JSON-RPC error with the same text."""
    r = refusal_of(exc)
    code = types.INVALID_PARAMS if r.status in (404, 422) else types.INTERNAL_ERROR if r.status >= 500 else -32003
    return McpError(types.ErrorData(code=code, message=r.text, data={"status": r.status}))


def build_server(svc: Services, current: Callable[[], Caller]) -> Server[Any, Any]:
    """The server; `current()` names the caller of the request being answered."""
    server: Server[Any, Any] = Server("memora", version="0.1.0", instructions=INSTRUCTIONS)

    async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
        return await anyio.to_thread.run_sync(fn, svc, current(), *args)

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [
            types.Tool(
                name=t.name,
                description=t.description,
                inputSchema=args.model_json_schema(),
                outputSchema=t.result.model_json_schema(mode="serialization"),
            )
            for t, args in tools.listed(current())
        ]

    # The route's model validates the arguments, with the API's messages; the result is a dump of the route's
    # response model, so it is returned as is (the SDK's own check of it against the schema, jsonschema's
    # `validate`, costs about 170 ms a call on this machine: more than most tools).
    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        try:
            result: dict[str, Any] = await in_thread(tools.call, name, arguments)
        except Exception as exc:
            return _error(exc)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(result, ensure_ascii=False))],
            structuredContent=result,
        )

    @server.list_resources()
    async def list_resources() -> list[types.Resource]:
        try:
            found = await in_thread(resources.listing)
        except Exception as exc:
            raise _mcp_error(exc) from None
        return [
            types.Resource(
                uri=AnyUrl(r["uri"]), name=r["name"], description=r["description"], mimeType="application/json"
            )
            for r in found
        ]

    @server.read_resource()
    async def read_resource(uri: AnyUrl) -> Iterable[ReadResourceContents]:
        try:
            data = await in_thread(resources.read, str(uri))
        except Exception as exc:
            raise _mcp_error(exc) from None
        return [ReadResourceContents(content=json.dumps(data, ensure_ascii=False), mime_type="application/json")]

    @server.list_prompts()
    async def list_prompts() -> list[types.Prompt]:
        if current().witness_token is not None:
            return []
        return [
            types.Prompt(
                name=resources.PROMPT,
                description="Write a chapter from this context, citing entry ids (the context of `chapter_context`).",
                arguments=[
                    types.PromptArgument(name=n, description=d, required=r) for n, d, r in resources.PROMPT_ARGUMENTS
                ],
            )
        ]

    @server.get_prompt()
    async def get_prompt(name: str, arguments: dict[str, str] | None) -> types.GetPromptResult:
        if name != resources.PROMPT:
            raise McpError(
                types.ErrorData(code=types.INVALID_PARAMS, message=f"no such prompt (prompts: {resources.PROMPT})")
            )
        try:
            description, text = await in_thread(resources.prompt, arguments or {})
        except Exception as exc:
            raise _mcp_error(exc) from None
        return types.GetPromptResult(
            description=description,
            messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))],
        )

    return server


async def run_stdio(svc: Services, caller: Caller) -> None:
    """Serve one local agent on stdin/stdout as `caller` (stdout carries only the protocol)."""
    from mcp.server.stdio import stdio_server

    server = build_server(svc, lambda: caller)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def _http_caller() -> Caller:
    """The caller the gate put in the state of the HTTP request being answered."""
    request = request_ctx.get().request
    assert isinstance(request, Request), "an HTTP caller is read from its request"
    return caller_of(request)


class AuthGate:
    """Authenticates each HTTP request as the API does, before the MCP transport reads it; refused requests get
    the API's status, reason and headers (401 with WWW-Authenticate, 429 with Retry-After, 503)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        from fastapi import HTTPException

        request = Request(scope, receive)
        try:
            caller = await anyio.to_thread.run_sync(authenticate, request)
        except HTTPException as exc:
            await JSONResponse({"detail": exc.detail}, exc.status_code, headers=exc.headers)(scope, receive, send)
            return
        except Exception as exc:
            r = refusal_of(exc)
            await JSONResponse({"detail": r.detail}, r.status)(scope, receive, send)
            return
        scope.setdefault("state", {})[STATE_KEY] = caller
        await self.app(scope, receive, send)


def http_app(svc: Services, host: str = "127.0.0.1", lifespan_extra: Callable[[], Any] | None = None) -> Starlette:
    """The streamable-HTTP server at `/mcp`, with the API's body limit, rate limits and token checks (raises
    `JwtConfigError` when MEMORA_AUTH_* is incomplete, like `create_app`). A request naming a host the service does
    not serve (MEMORA_ALLOWED_HOSTS, the bound name, an address) is refused with 421, as by the API (DNS rebinding);
    on a loopback host the MCP library's own check refuses it too."""
    server = build_server(svc, _http_caller)
    loopback = host in ("127.0.0.1", "localhost", "::1")
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=loopback, allowed_hosts=LOOPBACK_HOSTS if loopback else []
    )
    manager = StreamableHTTPSessionManager(
        server,
        json_response=True,
        stateless=True,
        security_settings=security,
        max_request_body_size=svc.settings.max_body_bytes,
    )

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            if lifespan_extra is None:
                yield
            else:
                with lifespan_extra():
                    yield

    app = Starlette(
        routes=[Route(MCP_PATH, endpoint=AuthGate(manager.handle_request))],
        lifespan=lifespan,
        middleware=[
            Middleware(TrustedOrigins, allowed=served_names(svc.settings, host), check_origin=False),
            Middleware(BodyLimit, limit=svc.settings.max_body_bytes),
        ],
    )
    app.state.services = svc
    app.state.limits = Limits(svc.settings)
    app.state.jwt = verifier_for(svc.settings)
    return app
