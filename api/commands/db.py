"""`memora db start|stop|status|backup|restore|purge` (the managed Neo4j) and `memora migrate` (its schema)."""

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
    if args.action == "purge":
        return cmd_purge(args, settings)
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
            "purge_due_since": _purge_due(settings) if status.running else None,
        },
        args.json,
    )
    return 0 if status.running or args.action == "stop" else 1


def _purge_due(settings: Settings) -> str | None:
    """When removed text started waiting on disk for a purge (graph/purge.py), for `memora db status`."""
    from graph.db import get_graph
    from graph.purge import due_since

    return due_since(get_graph(settings))


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


def cmd_purge(args: argparse.Namespace, settings: Settings) -> int:
    """Rebuild the store from the live graph, so deleted and forgotten texts leave the disk (graph/purge.py); with
    `--if-due`, only when something was deleted or rewritten since the last purge (what a daily cron job runs)."""
    from graph.purge import due_since, purge

    if args.if_due:
        since = due_since(connect(settings, migrate_schema=False))
        if since is None:
            err("nothing was deleted or rewritten since the last purge; nothing to do")
            show({"purged": False, "due_since": None}, args.json)
            return 0
        err(f"a purge is due: the first delete or rewrite since the last one was at {since}")
    show({"purged": True, **purge(settings, say=err)}, args.json)
    return 0


def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    """The schema, then the data steps: automatic chapters for entries stored before the current rule, entries
    written before their witness view was derived, conversation turns placed by an older rule."""
    from graph.automatic_periods import pending, recut
    from graph.schema import migrate
    from ingest.embedding_jobs import active_embedder
    from ingest.relink import conversations_lagging, refresh_conversations, refresh_witness_views, witness_views_missing

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
    lagging_turns = conversations_lagging(graph)
    if lagging_turns:
        with progress(len(lagging_turns), "conversation turns") as bar:
            shown = [0]

            def step(done: int, _total: int, _rewritten: int) -> None:
                bar.update(done - shown[0])
                shown[0] = done

            examined, rewritten = refresh_conversations(graph, active_embedder(graph, settings), lagging_turns, step)
        result["conversations"] = {"examined": examined, "rewritten": rewritten}
    show(result, args.json)
    return 0


def add_db(sub: Subparsers) -> None:
    db = sub.add_parser("db", help="start, stop, inspect, back up, restore or purge the local Neo4j")
    db.add_argument("action", choices=["start", "stop", "status", "backup", "restore", "purge"])
    db.add_argument("dir", nargs="?", help="backup/restore: the backup directory")
    db.add_argument("--force", action="store_true", help="restore: replace the data this home already holds")
    db.add_argument("--json", action="store_true", help="print JSON instead of text")
    db.add_argument(
        "--if-due", action="store_true", help="purge: only when something was deleted or rewritten since the last"
    )
    db.set_defaults(func=cmd_db)


def add_migrate(sub: Subparsers) -> None:
    mig = sub.add_parser("migrate", help="apply pending schema migrations")
    mig.add_argument("--json", action="store_true", help="print JSON instead of text")
    mig.set_defaults(func=cmd_migrate)
