"""`memora mcp`: the MCP server for agents, over stdio as `--as USER` (a local agent, like the CLI) or over
streamable HTTP (`--transport http`), where every request needs the API's bearer token (development token, JWT
where MEMORA_AUTH_* is configured, or a witness link)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from api.commands.common import Subparsers, auth_config_ok, connect, err
from graph.settings import Settings


@contextmanager
def _embedding_worker(graph: object, settings: Settings) -> Iterator[None]:
    """The embedding worker `memora serve` runs (MEMORA_EMBED_WORKER), so entries added by agents get embedded."""
    from ingest.embedding_jobs import Worker

    worker = Worker(graph, settings) if settings.embed_worker else None  # type: ignore[arg-type]
    if worker is not None:
        worker.start()
    try:
        yield
    finally:
        if worker is not None:
            worker.stop()


@contextmanager
def _served(graph: object, settings: Settings) -> Iterator[None]:
    """What runs beside the MCP server as beside `memora serve`: the embedding worker, and one BLAS thread pool
    sized by MEMORA_BLAS_THREADS (api/blas.py)."""
    from api.blas import blas_threads

    with blas_threads(settings.blas_threads), _embedding_worker(graph, settings):
        yield


def cmd_mcp(args: argparse.Namespace, settings: Settings) -> int:
    import anyio

    from api.mcp.caller import Caller
    from api.ratelimit import Limits
    from api.services import Services
    from graph.visibility import Viewer

    if args.transport == "stdio":
        if not args.as_user:
            err("mcp over stdio needs --as USER (the identity of the person running it, like the CLI)")
            return 2
        if args.port is not None or args.host is not None:
            err("--host and --port are for --transport http")
            return 2
    elif args.as_user:
        err("over HTTP each request names its caller with a bearer token; --as is for stdio")
        return 2
    if not auth_config_ok(settings):
        return 2
    graph = connect(settings)
    svc = Services(settings, graph=graph)
    if settings.warm_start:  # beside the handshake: an agent's first call finds the statements planned or planning
        from api.warmup import WarmStart

        WarmStart(svc).start()
    if args.transport == "stdio":
        from api.mcp.server import run_stdio

        caller = Caller(Viewer(user_id=args.as_user), Limits(settings), body_limit=settings.max_body_bytes)
        with _served(graph, settings):
            anyio.run(run_stdio, svc, caller)
        return 0
    import uvicorn

    from api.mcp.server import MCP_PATH, http_app

    host = args.host or settings.api_host
    port = args.port or settings.api_port + 1
    app = http_app(svc, host, lambda: _served(graph, settings))
    err(f"MCP over streamable HTTP at http://{host}:{port}{MCP_PATH} (bearer tokens as the API)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0


def add_mcp(sub: Subparsers) -> None:
    p = sub.add_parser("mcp", help="the MCP server for agents (stdio as --as USER, or streamable HTTP with tokens)")
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    p.add_argument("--as", dest="as_user", metavar="USER", help="stdio: the user the agent acts as")
    p.add_argument("--host", help="http: the address to listen on (default MEMORA_API_HOST)")
    p.add_argument("--port", type=int, help="http: the port (default MEMORA_API_PORT + 1)")
    p.set_defaults(func=cmd_mcp)
