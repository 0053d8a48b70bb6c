"""`memora db start|stop|status|backup|restore` (the managed Neo4j) and `memora migrate` (its schema)."""

from __future__ import annotations

import argparse
from pathlib import Path

from api.commands.common import Subparsers, connect, err, progress, show
from graph.settings import Settings


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
    from graph.runtime import Neo4jRuntime

    runtime = Neo4jRuntime(settings)
    if args.action in ("backup", "restore"):
        return cmd_backup(args, settings)
    if args.action == "start":
        if not settings.managed_neo4j:
            err(f"NEO4J_URI is set ({settings.bolt_uri}); nothing to start")
        status = runtime.start()
    elif args.action == "stop":
        status = runtime.stop()
    else:
        status = runtime.status()
    show(
        {
            "managed": status.managed,
            "running": status.running,
            "uri": status.uri,
            "pid": status.pid,
            "home": str(status.home) if status.home else None,
            "detail": status.detail,
        },
        args.json,
    )
    return 0 if status.running or args.action == "stop" else 1


def cmd_backup(args: argparse.Namespace, settings: Settings) -> int:
    """Stop-copy-start backup, or a restore into this (new) home (graph/backup.py)."""
    from graph.backup import backup, restore

    if not args.dir:
        err(f"db {args.action} needs a directory: memora db {args.action} DIR")
        return 2
    if args.action == "backup":
        manifest = backup(settings, Path(args.dir), say=err)
        show({k: v for k, v in manifest.items() if k != "files"} | {"files": len(manifest["files"])}, args.json)
    else:
        show(restore(settings, Path(args.dir), force=args.force, say=err), args.json)
        err("restored; start it with `memora db start` (set MEMORA_NEO4J_BOLT_PORT if another server holds the port)")
    return 0


def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    """The schema, then the data steps: automatic chapters for entries stored before the current rule, entries
    written before their witness view was derived."""
    from graph.automatic_periods import pending, recut
    from graph.schema import migrate
    from ingest.embedding_jobs import active_embedder
    from ingest.relink import refresh_witness_views, witness_views_missing

    graph = connect(settings, migrate_schema=False)
    applied = migrate(graph)
    result: dict[str, object] = {"applied": applied}
    lagging = pending(graph)
    if lagging:
        with progress(lagging, "automatic chapters") as bar:
            result["automatic_periods"] = {"examined": recut(graph, bar.update)}
    else:
        recut(graph)  # records that the rule has been applied, when nothing was left to cut
    missing = witness_views_missing(graph)
    if missing:
        err(f"re-deriving what witnesses see of {len(missing)} circle entries …")
        examined, rewritten = refresh_witness_views(graph, active_embedder(graph, settings), missing)
        result["witness_views"] = {"examined": examined, "rewritten": rewritten}
    show(result, args.json)
    return 0


def add_db(sub: Subparsers) -> None:
    db = sub.add_parser("db", help="start, stop, inspect, back up or restore the local Neo4j")
    db.add_argument("action", choices=["start", "stop", "status", "backup", "restore"])
    db.add_argument("dir", nargs="?", help="backup/restore: the backup directory")
    db.add_argument("--force", action="store_true", help="restore: replace the data this home already holds")
    db.add_argument("--json", action="store_true", help="print JSON instead of text")
    db.set_defaults(func=cmd_db)


def add_migrate(sub: Subparsers) -> None:
    mig = sub.add_parser("migrate", help="apply pending schema migrations")
    mig.add_argument("--json", action="store_true", help="print JSON instead of text")
    mig.set_defaults(func=cmd_migrate)
