"""`memora serve` (the HTTP API, with the embedding worker unless MEMORA_EMBED_WORKER=false) and `memora token`
(a development bearer token that API accepts)."""

from __future__ import annotations

import argparse

from api.commands.common import Subparsers, auth_config_ok, connect, err
from graph.settings import Settings


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from api.app import Services, create_app

    if not auth_config_ok(settings):
        return 2
    graph = connect(settings)
    app = create_app(Services(settings, graph=graph), worker=settings.embed_worker, warm=settings.warm_start)
    uvicorn.run(app, host=args.host or settings.api_host, port=args.port or settings.api_port, log_level="info")
    return 0


def cmd_token(args: argparse.Namespace, settings: Settings) -> int:
    from api.auth import TokenError, issue

    if args.ttl is not None and args.ttl <= 0:
        err("--ttl must be a positive number of seconds")
        return 2
    try:
        print(issue(settings, args.user_id, ttl_seconds=args.ttl))
    except TokenError as exc:
        err(str(exc))
        return 2
    return 0


def add_token(sub: Subparsers) -> None:
    tok = sub.add_parser("token", help="print a development bearer token for a user")
    tok.add_argument("user_id")
    tok.add_argument("--ttl", type=int, help="seconds (default MEMORA_TOKEN_TTL_SECONDS)")
    tok.set_defaults(func=cmd_token)


def add_serve(sub: Subparsers) -> None:
    srv = sub.add_parser("serve", help="run the HTTP API (OpenAPI docs at /docs)")
    srv.add_argument("--host")
    srv.add_argument("--port", type=int)
    srv.set_defaults(func=cmd_serve)
