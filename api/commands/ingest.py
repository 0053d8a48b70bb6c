"""`memora ingest FILE.jsonl`: the same pipeline as `POST /v1/entries`; exit 3 when any line was bad.

Interrupted (Ctrl-C or SIGTERM), it stops once the batch being written has committed and says what it committed
and how to resume; exit 130 (SIGINT) or 143 (SIGTERM). A second signal stops at once.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from api.commands.common import Subparsers, connect, err, out, progress
from graph.settings import Settings

if TYPE_CHECKING:
    from ingest.pipeline import IngestReport

RESUME = "run the same command again: entries already written are skipped by their content hash"


class Interrupted(BaseException):
    """Raised out of the ingest loop when a signal asked it to stop (a BaseException, like KeyboardInterrupt, so
    nothing on the way catches it as an error)."""

    def __init__(self, signum: int, at_once: bool) -> None:
        super().__init__(signum)
        self.signum = signum
        self.at_once = at_once


class StopAtBatch:
    """SIGINT and SIGTERM while ingesting: the first asks the loop to stop at the next point where the report matches
    the graph (after a batch commits, or a bad line is counted); a second stops at once.

    The check runs in the progress callback, which `Ingestor.ingest` calls only after a batch's transaction and its
    counts are done; so a stop there leaves no batch half counted. Lines are followed as they are read, so the
    report can say through which line every line was processed."""

    def __init__(self, report_progress: Callable[[int], Any]) -> None:
        self.report_progress = report_progress
        self.signum: int | None = None
        self.read = 0  # lines (records or bad lines) handed to the ingestor
        self.last_read = 0  # the file line number of the last one
        self.processed = 0  # of those, committed or counted as bad
        self.through = 0  # every line up to this number is processed
        self._previous: dict[int, Any] = {}

    def lines(self, items: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
        for number, item in items:
            self.read, self.last_read = self.read + 1, number
            yield number, item

    def progress(self, n: int) -> None:
        self.processed += n
        if self.processed == self.read:  # nothing read is still waiting in the batch
            self.through = self.last_read
        self.report_progress(n)
        if self.signum is not None:
            raise Interrupted(self.signum, at_once=False)

    def _handle(self, signum: int, _: FrameType | None) -> None:
        if self.signum is not None:
            raise Interrupted(self.signum, at_once=True)
        self.signum = signum
        err(
            f"{signal.Signals(signum).name}: stopping once the batch being written commits "
            f"(send it again to stop at once) …"
        )

    def __enter__(self) -> StopAtBatch:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *_: object) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    from graph.members import authors_without_membership, ensure_owner, projects_without_owner
    from ingest.embedding_jobs import active_embedder
    from ingest.pipeline import Ingestor, IngestReport
    from ingest.records import LineError, read_jsonl

    path = Path(args.file)
    if not path.is_file():
        err(f"no such file: {path}")
        return 2
    if is_export(path):
        err(
            f"{path} is a memora export (its first line is the project header), not entries to ingest: restore it "
            f"with `memora import {path}` (add --as-project NEWID to restore it under another id)"
        )
        return 2
    graph = connect(settings)
    total = sum(1 for line in path.open(encoding="utf-8", errors="replace") if line.strip())
    report = IngestReport()  # filled as each batch commits, so an interrupted run still knows what it wrote
    with progress(total, "ingest") as bar, StopAtBatch(bar.update) as stop:
        try:
            Ingestor(graph, active_embedder(graph, settings), overwrite=args.overwrite).ingest(
                stop.lines(read_jsonl(path)), report=report, progress=stop.progress
            )
        except (Interrupted, KeyboardInterrupt) as exc:
            signum = exc.signum if isinstance(exc, Interrupted) else signal.SIGINT
            at_once = exc.at_once if isinstance(exc, Interrupted) else True
            bar.close()
            return interrupted(args, report, stop, total, signum, at_once)
    if stop.signum is not None:  # the signal came after the last batch: everything is in, the rest is skipped
        return interrupted(args, report, stop, total, stop.signum, False)
    projects = sorted({r.project_id for _, r in read_jsonl(path) if not isinstance(r, LineError)})
    if args.owner:
        for project in projects:
            ensure_owner(graph, project, args.owner)
    for project, users in authors_without_membership(graph, projects).items():
        err(
            f"note: in {project}, {', '.join(users)} wrote entries but are not members, so they cannot see them; "
            f"add them with `memora member add --project {project} --user USER --role coauthor`"
        )
    for project in projects_without_owner(graph, projects):
        err(
            f"note: {project} has no owner, so nobody can manage it over HTTP; make one with `memora member add "
            f"--project {project} --user USER --role owner` (or ingest with --owner USER)"
        )
    summary = report.as_dict()
    if args.json:
        out(summary)
    else:
        print(
            f"written {report.written}, unchanged {report.unchanged}, skipped {len(report.skipped)}, chunks "
            f"embedded {report.chunks_embedded}, reused {report.chunks_reused}, pending {report.chunks_pending}, "
            f"bad lines {len(report.errors)}"
        )
        for e in report.errors:
            print(f"  line {e.line}{f' ({e.entry_id})' if e.entry_id else ''}: {e.reason}")
        for e in report.skipped:
            print(f"  skipped line {e.line} ({e.entry_id}): {e.reason}")
    return 0 if not report.errors else 3


def is_export(path: Path) -> bool:
    """True when the first non-empty line is an export header (graph/export.py)."""
    import json

    from graph.export import MARKER

    with path.open(encoding="utf-8", errors="replace") as fh:
        for text in fh:
            if text.strip():
                try:
                    data = json.loads(text)
                except json.JSONDecodeError:
                    return False
                return isinstance(data, dict) and data.get(MARKER) == "project"
    return False


def interrupted(
    args: argparse.Namespace, report: IngestReport, stop: StopAtBatch, total: int, signum: int, at_once: bool
) -> int:
    """What an interrupted run committed, on stderr (and as JSON on stdout with --json); 128 + the signal."""
    name = signal.Signals(signum).name
    unsure = "; the batch being written when it stopped (up to 64 entries) may also have committed" if at_once else ""
    err(
        f"interrupted ({name}) after {stop.processed} of {total} lines (every line through line {stop.through} "
        f"processed): written {report.written}, unchanged {report.unchanged}, chunks embedded "
        f"{report.chunks_embedded}, reused {report.chunks_reused}, pending {report.chunks_pending}, skipped "
        f"{len(report.skipped)}, bad lines {len(report.errors)}{unsure}"
    )
    for e in report.errors:
        err(f"  line {e.line}{f' ({e.entry_id})' if e.entry_id else ''}: {e.reason}")
    err(f"to finish, {RESUME}" + (" (and --owner is applied then)" if args.owner else ""))
    if args.json:
        out(
            {
                **report.as_dict(),
                "interrupted": True,
                "signal": name,
                "lines_total": total,
                "lines_processed": stop.processed,
                "processed_through_line": stop.through,
                "counts_exact": not at_once,
                "resume": RESUME,
            }
        )
    sys.stdout.flush()
    return 128 + signum


def add_ingest(sub: Subparsers) -> None:
    ing = sub.add_parser("ingest", help="ingest a JSON Lines file of entries")
    ing.add_argument("file")
    ing.add_argument("--owner", help="make this user owner of projects that have no owner yet")
    ing.add_argument(
        "--overwrite",
        action="store_true",
        help="replace entries changed through the API since this file last wrote them (skipped and reported otherwise)",
    )
    ing.add_argument("--json", action="store_true")
    ing.set_defaults(func=cmd_ingest)
