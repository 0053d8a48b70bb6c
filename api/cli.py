"""`memora` command line: the same code paths as the service, for operators, the demo, tests and evaluation."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any

from graph.settings import Settings, get_settings


def _out(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def _err(message: str) -> None:
    print(f"memora: {message}", file=sys.stderr)


def connect(settings: Settings, migrate_schema: bool = True) -> Any:
    """The graph, starting the managed Neo4j first when needed and applying pending migrations."""
    from graph.db import get_graph
    from graph.runtime import Neo4jRuntime
    from graph.schema import migrate

    if settings.managed_neo4j:
        runtime = Neo4jRuntime(settings)
        if not runtime.status().running:
            _err(f"starting Neo4j {settings.neo4j_version} on bolt port {settings.neo4j_bolt_port} …")
            runtime.start()
    graph = get_graph(settings)
    if migrate_schema:
        migrate(graph)
    return graph


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
    from graph.runtime import Neo4jRuntime

    runtime = Neo4jRuntime(settings)
    if args.action == "start":
        if not settings.managed_neo4j:
            _err(f"NEO4J_URI is set ({settings.bolt_uri}); nothing to start")
        status = runtime.start()
    elif args.action == "stop":
        status = runtime.stop()
    else:
        status = runtime.status()
    _out({"managed": status.managed, "running": status.running, "uri": status.uri, "pid": status.pid,
          "home": str(status.home) if status.home else None, "detail": status.detail})
    return 0 if status.running or args.action == "stop" else 1


def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    from graph.schema import migrate

    graph = connect(settings, migrate_schema=False)
    applied = migrate(graph)
    _out({"applied": applied})
    return 0


def _progress(total: int | None, label: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=label, unit="entry", disable=None, file=sys.stderr)


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    from graph.members import authors_without_membership, ensure_owner
    from ingest.embedding_jobs import active_embedder
    from ingest.pipeline import Ingestor, LineError, read_jsonl

    path = Path(args.file)
    if not path.is_file():
        _err(f"no such file: {path}")
        return 2
    graph = connect(settings)
    total = sum(1 for line in path.open(encoding="utf-8", errors="replace") if line.strip())
    with _progress(total, "ingest") as bar:
        report = Ingestor(graph, active_embedder(graph, settings)).ingest(read_jsonl(path), progress=bar.update)
    projects = sorted({r.project_id for _, r in read_jsonl(path) if not isinstance(r, LineError)})
    if args.owner:
        for project in projects:
            ensure_owner(graph, project, args.owner)
    for project, users in authors_without_membership(graph, projects).items():
        _err(f"note: in {project}, {', '.join(users)} wrote entries but are not members, so they cannot see them; "
             f"add them with `memora member add --project {project} --user USER --role coauthor`")
    summary = report.as_dict()
    if args.json:
        _out(summary)
    else:
        print(f"written {report.written}, unchanged {report.unchanged}, chunks embedded {report.chunks_embedded}, "
              f"reused {report.chunks_reused}, pending {report.chunks_pending}, bad lines {len(report.errors)}")
        for e in report.errors:
            print(f"  line {e.line}{f' ({e.entry_id})' if e.entry_id else ''}: {e.reason}")
    return 0 if not report.errors else 3


def cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    from api.models import SearchResponseOut
    from graph.visibility import Viewer
    from ingest.embedding_jobs import active_embedder
    from queries.search import CHANNELS, AccessDenied, Filters, Scope, SearchOptions, hybrid_search

    graph = connect(settings, migrate_schema=False)
    filters = Filters(
        date_from=date.fromisoformat(args.date_from) if args.date_from else None,
        date_to=date.fromisoformat(args.date_to) if args.date_to else None,
        persons=args.person or None, places=args.place or None, author_ids=args.author or None,
        intimacy_max=args.intimacy_max,
    )
    options = SearchOptions(k=args.k, explain=args.explain, filters=filters, diversify=not args.no_diversify,
                            channels=tuple(args.channels.split(",")) if args.channels else CHANNELS)
    try:
        resp = hybrid_search(graph, active_embedder(graph, settings), settings, Viewer(user_id=args.as_user), args.text,
                             Scope(project_id=args.project, multi_project=args.project is None), options)
    except AccessDenied as exc:
        _err(str(exc))
        return 4
    body = SearchResponseOut.model_validate(asdict(resp)).model_dump()
    if args.json:
        _out(body)
        return 0
    print(f"{len(resp.results)} of {resp.total_candidates} candidates (source: {resp.source}, "
          f"{resp.latency_ms['total']:.0f} ms)")
    for i, r in enumerate(resp.results, start=1):
        when = r.occurred_on or "undated"
        print(f"{i:2d}. [{r.intimacy_level}] {r.entry_id} ({when}, {r.author_id}) {r.score:.4f}")
        print(f"    {r.snippet_md}")
    return 0


def cmd_token(args: argparse.Namespace, settings: Settings) -> int:
    from api.auth import issue

    print(issue(settings, args.user_id, ttl_seconds=args.ttl))
    return 0


def cmd_member(args: argparse.Namespace, settings: Settings) -> int:
    from graph.members import members_of, remove_member, set_member

    graph = connect(settings)
    if args.action == "add":
        if not args.user or not args.role:
            _err("member add needs --user and --role")
            return 2
        role = set_member(graph, args.project, args.user, args.role)
        _out({"project": args.project, "user": args.user, "role": role})
    elif args.action == "remove":
        _out({"project": args.project, "user": args.user, "removed": remove_member(graph, args.project, args.user)})
    else:
        _out(members_of(graph, args.project))
    return 0


def cmd_project(args: argparse.Namespace, settings: Settings) -> int:
    from graph.members import update_project

    graph = connect(settings)
    row = update_project(graph, args.project, args.name, args.hemisphere)
    if row is None:
        _err(f"no such project: {args.project}")
        return 2
    _out(row)
    return 0


def cmd_entity(args: argparse.Namespace, settings: Settings) -> int:
    from graph import analytics
    from graph.entities import find_visible_entity, list_entities, upsert_entity
    from graph.members import role_of
    from graph.visibility import Viewer, visibility_params

    graph = connect(settings)
    if args.action in ("with", "timeline", "top"):
        if not args.as_user:
            _err(f"entity {args.action} needs --as USER (counts cover what that user may see)")
            return 2
        if role_of(graph, args.project, args.as_user) is None:
            _err("not a member of this project")
            return 4
        params = visibility_params(Viewer(user_id=args.as_user))
        if args.action == "top":
            _out(analytics.importance(graph, params, args.project, args.kind))
            return 0
        entity = find_visible_entity(graph, args.project, params, args.name or "")
        if entity is None:
            _err(f"no such person, place or thing: {args.name}")
            return 2
        if args.action == "with":
            _out(analytics.co_occurrence(graph, params, args.project, entity.id))
        else:
            _out(analytics.timeline(graph, params, args.project, entity.id))
        return 0
    if args.action == "add":
        e = upsert_entity(graph, args.project, args.kind or "person", args.name, args.alias or [])
        _out({"id": e.id, "kind": e.kind, "name": e.name, "aliases": list(e.aliases)})
    else:
        _out([{"id": e.id, "kind": e.kind, "name": e.name, "aliases": list(e.aliases)}
              for e in list_entities(graph, [args.project])])
    return 0


def cmd_embeddings(args: argparse.Namespace, settings: Settings) -> int:
    from ingest import embedding_jobs as jobs

    graph = connect(settings)
    if args.action == "status":
        state = jobs.current_state(graph, settings)
        result = jobs.status(graph, jobs.active_embedder(graph, settings))
        target = jobs.target_embedder(graph, settings)
        if target is not None:
            result["migration"] = {"to": state.target, **jobs.status(graph, target, active=False)}
        if args.json:
            _out(result)
        else:
            print(" ".join(f"{k}={v}" for k, v in result.items()))
        return 0
    if args.action == "retry-failed":
        _out({"reset": jobs.retry_failed(graph, jobs.active_embedder(graph, settings))})
        return 0
    if args.action == "drop-old":
        _out({"dropped": jobs.drop_retired(graph, settings)})
        return 0
    if args.action == "migrate":
        if not args.to:
            _err("embeddings migrate needs --to PROVIDER:MODEL[@DIMS]")
            return 2
        try:
            state = jobs.start_migration(graph, settings, args.to)
        except ValueError as exc:
            _err(str(exc))
            return 2
        _err(f"migrating from {state.active} to {state.target}; searches use both indexes until it completes")
    if args.action == "work":
        worker = jobs.Worker(graph, settings, interval=args.interval)
        _err("embedding worker running; Ctrl-C to stop")
        try:
            worker.loop()
        except KeyboardInterrupt:
            worker.stop_event.set()
        return 0
    embedders = [(jobs.active_embedder(graph, settings), True)]
    target = jobs.target_embedder(graph, settings)
    if target is not None:
        embedders.append((target, False))
    for embedder, active in embedders:
        pending = jobs.status(graph, embedder, active=active)["pending"]
        with _progress(pending, f"embed {embedder.slug}") as bar:
            stats = jobs.backfill(graph, embedder, active=active, batch_size=args.batch_size, progress=bar.update)
        if stats.errors:
            _err(f"stopped after a failed batch ({stats.failed} chunks will be retried): {stats.errors[-1]}")
            return 6
    state = jobs.finish_migration(graph, settings)
    result = jobs.status(graph, jobs.active_embedder(graph, settings))
    result["active"] = state.active
    if args.drop_old and state.retired:
        result["dropped"] = jobs.drop_retired(graph, settings)
    _out(result)
    return 0


def cmd_understand(args: argparse.Namespace, settings: Settings) -> int:
    from graph.entities import list_entities
    from queries.understanding import KnownEntity, to_json, understand

    known: list[KnownEntity] = []
    if args.project:
        graph = connect(settings, migrate_schema=False)
        known = [KnownEntity(e.id, e.kind, e.name, e.aliases) for e in list_entities(graph, [args.project])]
    now = date.fromisoformat(args.now) if args.now else date.today()
    result = to_json(understand(args.text, known, now, args.locale, args.hemisphere))
    if args.json:
        _out(result)
    else:
        for key, value in result.items():
            print(f"{key:>13}: {value}")
    return 0


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from api.app import Services, create_app

    graph = connect(settings)
    app = create_app(Services(settings, graph=graph), worker=settings.embed_worker)
    uvicorn.run(app, host=args.host or settings.api_host, port=args.port or settings.api_port, log_level="info")
    return 0


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from ingest.embedding_jobs import active_embedder
    from queries.evaluate import add_entities, ingest_dataset, load_queries, namespace, run_eval

    entries, queries = Path(args.entries), Path(args.queries)
    for p in (entries, queries):
        if not p.is_file():
            _err(f"no such file: {p}")
            return 2
    graph = connect(settings)
    embedder = active_embedder(graph, settings)
    prefix = namespace(entries)
    if args.entities:
        add_entities(graph, Path(args.entities), prefix, entries)
    total = sum(1 for line in entries.open(encoding="utf-8") if line.strip())
    with _progress(total, "ingest") as bar:
        report = ingest_dataset(graph, embedder, entries, prefix, progress=bar.update)
    qs = load_queries(queries, prefix)
    channels = tuple(c.strip() for c in args.channels.split(",")) if args.channels else ("dense", "fulltext",
                                                                                           "structured")
    with _progress(len(qs), "queries") as bar:
        result = run_eval(graph, embedder, settings, qs, channels, k=args.k, progress=bar.update,
                          understanding=not args.no_understanding, diversify=not args.no_diversify)
    result["ingest"] = {"written": report.written, "unchanged": report.unchanged, "errors": len(report.errors)}
    result["dataset"] = {"entries": str(entries), "queries": str(queries)}
    if args.json:
        _out(result)
    else:
        keys = ("n_queries", "recall@5", "recall@10", "recall@30", "mrr@10", "ndcg@10", "latency_ms")
        for key in keys:
            print(f"{key:>10}: {result[key]}")
    return 0


def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    from api.demo import run_demo

    return run_demo(connect(settings), settings)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="memora", description="Memora Graph: personal memory search on Neo4j.")
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="command", required=True)

    db = sub.add_parser("db", help="start, stop or inspect the local Neo4j")
    db.add_argument("action", choices=["start", "stop", "status"])
    db.set_defaults(func=cmd_db)

    sub.add_parser("migrate", help="apply pending schema migrations").set_defaults(func=cmd_migrate)

    ing = sub.add_parser("ingest", help="ingest a JSON Lines file of entries")
    ing.add_argument("file")
    ing.add_argument("--owner", help="make this user owner of projects that have no owner yet")
    ing.add_argument("--json", action="store_true")
    ing.set_defaults(func=cmd_ingest)

    se = sub.add_parser("search", help="search as a user (same search as the API)")
    se.add_argument("text")
    se.add_argument("--project")
    se.add_argument("--as", dest="as_user", required=True, help="the viewer's user id")
    se.add_argument("--k", type=int, default=10)
    se.add_argument("--channels", help="comma-separated subset of dense,fulltext,structured")
    se.add_argument("--from", dest="date_from", help="YYYY-MM-DD")
    se.add_argument("--to", dest="date_to", help="YYYY-MM-DD")
    se.add_argument("--person", action="append")
    se.add_argument("--place", action="append")
    se.add_argument("--author", action="append")
    se.add_argument("--intimacy-max", choices=["public", "circle", "intimate", "private"])
    se.add_argument("--explain", action="store_true")
    se.add_argument("--no-diversify", action="store_true", help="keep near-identical entries (no MMR)")
    se.add_argument("--json", action="store_true")
    se.set_defaults(func=cmd_search)

    tok = sub.add_parser("token", help="print a development bearer token for a user")
    tok.add_argument("user_id")
    tok.add_argument("--ttl", type=int, help="seconds (default MEMORA_TOKEN_TTL_SECONDS)")
    tok.set_defaults(func=cmd_token)

    mem = sub.add_parser("member", help="manage project membership")
    mem.add_argument("action", choices=["add", "remove", "list"])
    mem.add_argument("--project", required=True)
    mem.add_argument("--user")
    mem.add_argument("--role", choices=["owner", "coauthor", "reader"])
    mem.set_defaults(func=cmd_member)

    prj = sub.add_parser("project", help="rename a project or set its hemisphere (what 'summer' means)")
    prj.add_argument("action", choices=["set"])
    prj.add_argument("--project", required=True)
    prj.add_argument("--name")
    prj.add_argument("--hemisphere", choices=["north", "south"])
    prj.set_defaults(func=cmd_project)

    ent = sub.add_parser("entity", help="manage persons, places and things with aliases")
    ent.add_argument("action", choices=["add", "list", "with", "timeline", "top"],
                     help="with: who appears with NAME; timeline: NAME's entries per year; top: most important")
    ent.add_argument("--project", required=True)
    ent.add_argument("--as", dest="as_user", help="with/timeline/top: count what this user may see")
    ent.add_argument("--kind", choices=["person", "place", "thing"])
    ent.add_argument("--name")
    ent.add_argument("--alias", action="append")
    ent.set_defaults(func=cmd_entity)

    emb = sub.add_parser("embeddings", help="embedding jobs: status, backfill, worker, model migration")
    emb.add_argument("action", choices=["status", "backfill", "work", "migrate", "retry-failed", "drop-old"])
    emb.add_argument("--to", help="with migrate: the new model, PROVIDER:MODEL[@DIMS]")
    emb.add_argument("--drop-old", action="store_true", help="after a completed migration, drop the old index")
    emb.add_argument("--batch-size", type=int, default=64)
    emb.add_argument("--interval", type=float, default=5.0, help="with work: seconds between rounds")
    emb.add_argument("--json", action="store_true")
    emb.set_defaults(func=cmd_embeddings)

    und = sub.add_parser("understand", help="show how a query is parsed (dates, people, places, intent)")
    und.add_argument("text")
    und.add_argument("--project", help="match against this project's entities and aliases")
    und.add_argument("--now", help="YYYY-MM-DD (default: today)")
    und.add_argument("--locale", choices=["es", "en", "fr"])
    und.add_argument("--hemisphere", choices=["north", "south"], default="north")
    und.add_argument("--json", action="store_true")
    und.set_defaults(func=cmd_understand)

    srv = sub.add_parser("serve", help="run the HTTP API (OpenAPI docs at /docs)")
    srv.add_argument("--host")
    srv.add_argument("--port", type=int)
    srv.set_defaults(func=cmd_serve)

    ev = sub.add_parser("eval", help="evaluate retrieval on a dataset")
    ev.add_argument("--entries", required=True)
    ev.add_argument("--queries", required=True)
    ev.add_argument("--k", type=int, default=10)
    ev.add_argument("--channels")
    ev.add_argument("--entities", help="JSON list of {kind, name, aliases} to add to every dataset project")
    ev.add_argument("--no-understanding", action="store_true", help="embed the raw query; no extracted filters")
    ev.add_argument("--no-diversify", action="store_true", help="no MMR on the ranking")
    ev.add_argument("--json", action="store_true")
    ev.set_defaults(func=cmd_eval)

    sub.add_parser("demo", help="load the bundled demo diary and search it as different viewers").set_defaults(
        func=cmd_demo)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    from graph.runtime import RuntimeProblem

    try:
        return int(args.func(args, get_settings()) or 0)
    except RuntimeProblem as exc:
        _err(str(exc))
        return 5
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
