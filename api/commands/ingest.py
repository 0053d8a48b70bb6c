"""`memora ingest FILE.jsonl`: the same pipeline as `POST /v1/entries`; exit 3 when any line was bad."""

from __future__ import annotations

import argparse
from pathlib import Path

from api.commands.common import Subparsers, connect, err, out, progress
from graph.settings import Settings


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    from graph.members import authors_without_membership, ensure_owner
    from ingest.embedding_jobs import active_embedder
    from ingest.pipeline import Ingestor, LineError, read_jsonl

    path = Path(args.file)
    if not path.is_file():
        err(f"no such file: {path}")
        return 2
    graph = connect(settings)
    total = sum(1 for line in path.open(encoding="utf-8", errors="replace") if line.strip())
    with progress(total, "ingest") as bar:
        report = Ingestor(graph, active_embedder(graph, settings)).ingest(read_jsonl(path), progress=bar.update)
    projects = sorted({r.project_id for _, r in read_jsonl(path) if not isinstance(r, LineError)})
    if args.owner:
        for project in projects:
            ensure_owner(graph, project, args.owner)
    for project, users in authors_without_membership(graph, projects).items():
        err(f"note: in {project}, {', '.join(users)} wrote entries but are not members, so they cannot see them; "
            f"add them with `memora member add --project {project} --user USER --role coauthor`")
    summary = report.as_dict()
    if args.json:
        out(summary)
    else:
        print(f"written {report.written}, unchanged {report.unchanged}, chunks embedded {report.chunks_embedded}, "
              f"reused {report.chunks_reused}, pending {report.chunks_pending}, bad lines {len(report.errors)}")
        for e in report.errors:
            print(f"  line {e.line}{f' ({e.entry_id})' if e.entry_id else ''}: {e.reason}")
    return 0 if not report.errors else 3


def add_ingest(sub: Subparsers) -> None:
    ing = sub.add_parser("ingest", help="ingest a JSON Lines file of entries")
    ing.add_argument("file")
    ing.add_argument("--owner", help="make this user owner of projects that have no owner yet")
    ing.add_argument("--json", action="store_true")
    ing.set_defaults(func=cmd_ingest)
