"""`memora db start|stop|status` (the managed Neo4j) and `memora migrate` (its schema)."""

from __future__ import annotations

import argparse

from api.commands.common import Subparsers, connect, err, out
from graph.settings import Settings


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
    from graph.runtime import Neo4jRuntime

    runtime = Neo4jRuntime(settings)
    if args.action == "start":
        if not settings.managed_neo4j:
            err(f"NEO4J_URI is set ({settings.bolt_uri}); nothing to start")
        status = runtime.start()
    elif args.action == "stop":
        status = runtime.stop()
    else:
        status = runtime.status()
    out({"managed": status.managed, "running": status.running, "uri": status.uri, "pid": status.pid,
         "home": str(status.home) if status.home else None, "detail": status.detail})
    return 0 if status.running or args.action == "stop" else 1


def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    from graph.schema import migrate

    graph = connect(settings, migrate_schema=False)
    applied = migrate(graph)
    out({"applied": applied})
    return 0


def add_db(sub: Subparsers) -> None:
    db = sub.add_parser("db", help="start, stop or inspect the local Neo4j")
    db.add_argument("action", choices=["start", "stop", "status"])
    db.set_defaults(func=cmd_db)


def add_migrate(sub: Subparsers) -> None:
    sub.add_parser("migrate", help="apply pending schema migrations").set_defaults(func=cmd_migrate)
