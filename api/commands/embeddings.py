"""`memora embeddings status|backfill|work|migrate|retry-failed|drop-old`: the embedding jobs (pending chunks) and
model migrations; exit 6 when a backfill batch failed (its chunks are retried later).

`work` may run in several processes at once (they lease batches to each other); Ctrl-C or SIGTERM stops it after
the batch in hand (up to 10 s) and gives back the chunks it holds, exit 0."""

from __future__ import annotations

import argparse
import signal
import threading
from types import FrameType
from typing import TYPE_CHECKING

from api.commands.common import Subparsers, connect, err, progress, show
from graph.settings import Settings

if TYPE_CHECKING:
    from graph.db import Graph


def work(args: argparse.Namespace, settings: Settings, graph: Graph) -> int:
    """The worker runs in its own thread; a signal only records itself here, and the main thread then stops the
    worker and gives its leases back. Raising from the handler instead could land inside a lock or a driver call and
    leave the process hanging on its way out; a second Ctrl-C while the batch in hand finishes is recorded too, so
    it cannot cut the hand-back short."""
    from ingest import embedding_jobs as jobs

    worker = jobs.Worker(graph, settings, interval=args.interval, batch_size=args.batch_size, project_id=args.project)
    err(
        f"embedding worker {worker.owner} running (leases of {settings.embed_lease_seconds:g} s); "
        "Ctrl-C or SIGTERM to stop"
    )
    received: list[str] = []

    def record(signum: int, _: FrameType | None) -> None:
        received.append(signal.Signals(signum).name)

    main = threading.current_thread() is threading.main_thread()
    previous = {s: signal.signal(s, record) for s in (signal.SIGINT, signal.SIGTERM)} if main else {}
    try:
        worker.start()
        while not received and worker.running():
            worker.wait(0.2)
        if received:
            err(f"{received[0]}: stopping after the batch in hand (up to 10 s) and giving its chunks back")
        released, t = worker.stop(), worker.totals
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    reason = received[0] if received else "stopped"
    err(
        f"{reason}: embedding worker {worker.owner} stopped: embedded {t.embedded}, failed {t.failed}, "
        f"lost {t.lost} (embedded but no longer held); {released} leased chunks given back"
    )
    return 0


def cmd_embeddings(args: argparse.Namespace, settings: Settings) -> int:
    from ingest import embedding_jobs as jobs

    if args.batch_size < 1:
        err("--batch-size must be at least 1")
        return 2
    graph = connect(settings)
    if args.action == "status":
        state = jobs.current_state(graph, settings)
        result = jobs.status(graph, jobs.active_embedder(graph, settings))
        target = jobs.target_embedder(graph, settings)
        if target is not None:
            result["migration"] = {"to": state.target, **jobs.status(graph, target, active=False)}
        show(result, args.json)
        return 0
    if args.action == "retry-failed":
        show({"reset": jobs.retry_failed(graph, jobs.active_embedder(graph, settings))}, args.json)
        return 0
    if args.action == "drop-old":
        show({"dropped": jobs.drop_retired(graph, settings)}, args.json)
        return 0
    if args.action == "migrate":
        if not args.to:
            err("embeddings migrate needs --to PROVIDER:MODEL[@DIMS]")
            return 2
        try:
            state = jobs.start_migration(graph, settings, args.to)
        except ValueError as exc:
            err(str(exc))
            return 2
        err(f"migrating from {state.active} to {state.target}; searches use both indexes until it completes")
    if args.action == "work":
        return work(args, settings, graph)
    # backfill, and migrate right after it starts: embed what is pending for the active model and the target.
    embedders = [(jobs.active_embedder(graph, settings), True)]
    target = jobs.target_embedder(graph, settings)
    if target is not None:
        embedders.append((target, False))
    for embedder, active in embedders:
        pending = jobs.status(graph, embedder, active=active)["pending"]
        with progress(pending, f"embed {embedder.slug}") as bar:
            stats = jobs.backfill(
                graph, embedder, active=active, batch_size=args.batch_size, progress=bar.update, project_id=args.project
            )
        if stats.errors:
            err(f"stopped after a failed batch ({stats.failed} chunks will be retried): {stats.errors[-1]}")
            return 6
    state = jobs.finish_migration(graph, settings)
    result = jobs.status(graph, jobs.active_embedder(graph, settings))
    result["active"] = state.active
    if args.drop_old and state.retired:
        result["dropped"] = jobs.drop_retired(graph, settings)
    show(result, args.json)
    return 0


def add_embeddings(sub: Subparsers) -> None:
    emb = sub.add_parser("embeddings", help="embedding jobs: status, backfill, worker, model migration")
    emb.add_argument("action", choices=["status", "backfill", "work", "migrate", "retry-failed", "drop-old"])
    emb.add_argument("--to", help="with migrate: the new model, PROVIDER:MODEL[@DIMS]")
    emb.add_argument("--drop-old", action="store_true", help="after a completed migration, drop the old index")
    emb.add_argument("--batch-size", type=int, default=64, help="with backfill and work: chunks per leased batch")
    emb.add_argument("--project", help="with backfill and work: only this project's chunks")
    emb.add_argument("--interval", type=float, default=5.0, help="with work: seconds between rounds")
    emb.add_argument("--json", action="store_true")
    emb.set_defaults(func=cmd_embeddings)
