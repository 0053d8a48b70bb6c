"""`memora export --project P [--out FILE]` and `memora import FILE [--as-project ID]`: a project as JSON Lines
(graph/export.py) and back (ingest/restore.py).

The operator's export holds everything, private entries of every author included (docs/SECURITY.md, "Export"): a
file written with `--out` is created with mode 0600.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from api.commands.common import Subparsers, connect, err, out, progress
from graph.settings import Settings


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from graph.export import ExportScope, count_entries, export_lines, project_exists

    graph = connect(settings)
    if not project_exists(graph, args.project):
        err(f"no such project: {args.project}")
        return 2
    started = time.monotonic()
    total = count_entries(graph, args.project)
    target = None
    if args.out:
        path = Path(args.out)
        if path.exists() and not args.force:
            err(f"{path} exists; pass --force to overwrite it")
            return 2
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        target = os.fdopen(fd, "w", encoding="utf-8")
    sink = target or sys.stdout
    entries = 0
    try:
        with progress(total, "export") as bar:
            for text in export_lines(graph, args.project, ExportScope()):
                sink.write(text)
                if '"memora_record":' not in text:  # in an entry's JSON a quote inside a value is escaped
                    entries += 1
                    bar.update(1)
    finally:
        if target is not None:
            target.close()
    err(
        f"exported {args.project}: {entries} entries in {time.monotonic() - started:.1f}s"
        + (f" to {args.out}" if args.out else "")
    )
    return 0


def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    from graph.export import project_exists
    from ingest.embedding_jobs import active_embedder
    from ingest.records import EntryRecord
    from ingest.restore import ExportFileError, Restorer, read_export

    path = Path(args.file)
    if not path.is_file():
        err(f"no such file: {path}")
        return 2
    try:
        export = read_export(path)
    except (ExportFileError, UnicodeDecodeError) as exc:
        err(f"{path}: {exc}")
        return 2
    target = args.as_project or export.header.project_id
    if args.as_project:
        try:  # the same rule as every project id: not empty, no "/"
            EntryRecord(entry_id=f"{target}/x", project_id=target, text="x")
        except ValueError:
            err(f"--as-project {target!r} is not a valid project id (not empty, no '/', no control characters)")
            return 2
    graph = connect(settings)
    if project_exists(graph, target) and not args.into_existing:
        err(
            f"project {target} already exists; import into a new id with --as-project NEWID, or merge into it "
            "with --into-existing (entries with the same id are replaced by the file's)"
        )
        return 2
    started = time.monotonic()
    with progress(export.entries, "import") as bar:
        report = Restorer(graph, active_embedder(graph, settings), export, target, embed=not args.defer_embedding).run(
            bar.update
        )
    summary = report.as_dict()
    summary["seconds"] = round(time.monotonic() - started, 1)
    if args.json:
        out(summary)
    else:
        print(
            f"imported {target}: members {report.members}, entities {report.entities}, declarations "
            f"{report.declarations}, rejected names {report.dismissals}, witness grants {report.witness_grants}, "
            f"entries written "
            f"{report.entries.written} (unchanged {report.entries.unchanged}), chunks embedded "
            f"{report.entries.chunks_embedded}, reused {report.entries.chunks_reused}, pending "
            f"{report.entries.chunks_pending}, bad lines {len(report.entries.errors)} in {summary['seconds']}s"
        )
        for e in report.entries.errors:
            print(f"  line {e.line}{f' ({e.entry_id})' if e.entry_id else ''}: {e.reason}")
    return 0 if not report.entries.errors else 3


def add_export(sub: Subparsers) -> None:
    exp = sub.add_parser("export", help="write a project as JSON Lines (entries in the ingest format)")
    exp.add_argument("--project", required=True)
    exp.add_argument("--out", help="a file (mode 0600) instead of stdout")
    exp.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    exp.set_defaults(func=cmd_export)


def add_import(sub: Subparsers) -> None:
    imp = sub.add_parser("import", help="restore a project written by `memora export`")
    imp.add_argument("file")
    imp.add_argument("--as-project", help="restore under this project id (entry ids are rewritten to it)")
    imp.add_argument(
        "--into-existing", action="store_true", help="merge into a project that already exists instead of refusing"
    )
    imp.add_argument(
        "--defer-embedding",
        action="store_true",
        help="write at once and leave new chunks pending for the embedding worker",
    )
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(func=cmd_import)
