"""`memora serve` (the HTTP API, with the embedding worker unless MEMORA_EMBED_WORKER=false), `memora token` (a
development bearer token that API accepts) and `memora signin-link` (a one-time link to the web app's local
sign-in)."""

from __future__ import annotations

import argparse

from api.commands.common import Subparsers, auth_config_ok, connect, err
from graph.db import Graph
from graph.settings import Settings


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from api.access_log import log_config as access_log_config
    from api.app import Services, create_app

    if not auth_config_ok(settings):
        return 2
    settings = settings.model_copy(update={"api_host": args.host or settings.api_host})
    graph = connect(settings)
    app = create_app(Services(settings, graph=graph), worker=settings.embed_worker, warm=settings.warm_start)
    link = signin_link(graph, settings, args.port or settings.api_port)
    if link:
        err(f"sign in to the web app on this machine (once; `memora signin-link` makes another): {link}")
    uvicorn.run(
        app,
        host=settings.api_host,
        port=args.port or settings.api_port,
        log_level="info",
        log_config=access_log_config(),  # tokens and search words never reach the access log (api/access_log.py)
    )
    return 0


def signin_link(graph: Graph, settings: Settings, port: int) -> str | None:
    """A one-time link to the local sign-in, or None where it is not offered (MEMORA_WEB_DEV_SIGNIN off, or a bind
    other than loopback)."""
    from api.web.session import is_loopback_name
    from graph.web_sessions import add_link

    if not settings.web_dev_signin or not is_loopback_name(settings.api_host):
        return None
    host = settings.api_host.strip("[]")
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/signin/local?key={add_link(graph, settings)}"


def cmd_signin_link(args: argparse.Namespace, settings: Settings) -> int:
    link = signin_link(connect(settings), settings, args.port or settings.api_port)
    if link is None:
        err("the local sign-in is off: MEMORA_WEB_DEV_SIGNIN=false, or the service is not bound to a loopback address")
        return 2
    print(link)
    return 0


def add_signin_link(sub: Subparsers) -> None:
    cmd = sub.add_parser(
        "signin-link", help="print a one-time link that lets this machine's browser pick a member in the web app"
    )
    cmd.add_argument("--port", type=int, help="the port `memora serve` listens on (default MEMORA_API_PORT)")
    cmd.set_defaults(func=cmd_signin_link)


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
