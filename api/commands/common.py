"""What every command shares: JSON and error output, connecting to the graph, progress bars."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any, TypeAlias

from graph.settings import Settings

if TYPE_CHECKING:
    from graph.db import Graph

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def out(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def show(data: Any, as_json: bool) -> None:
    """One voice for every command: JSON with the API's keys under --json, the same data as readable text
    otherwise."""
    if as_json:
        out(data)
    else:
        print(human(data))


def _cell(value: Any, width: int = 60) -> str:
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        text = ", ".join(_cell(v, width) for v in value) or "-"
    elif isinstance(value, dict):
        text = ", ".join(f"{k}={_cell(v, width)}" for k, v in value.items())
    elif isinstance(value, float):
        text = f"{value:.3f}"
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def human(data: Any, indent: str = "") -> str:
    """Key-value lines for an object, a table for a list of objects, nested blocks indented."""
    if isinstance(data, dict):
        if not data:
            return f"{indent}(nothing)"
        wide = max(len(str(k)) for k in data)
        lines = []
        for key, value in data.items():
            if isinstance(value, dict) or (isinstance(value, list) and value and isinstance(value[0], dict)):
                lines.append(f"{indent}{key}:")
                lines.append(human(value, indent + "  "))
            else:
                lines.append(f"{indent}{str(key).ljust(wide)}  {_cell(value, 10_000)}")
        return "\n".join(lines)
    if isinstance(data, list):
        if not data:
            return f"{indent}(none)"
        if all(isinstance(row, dict) for row in data):
            keys = list(dict.fromkeys(k for row in data for k in row))
            cells = [[_cell(row.get(k)) for k in keys] for row in data]
            widths = [max(len(k), *(len(r[i]) for r in cells)) for i, k in enumerate(keys)]
            rows = [keys, *cells]
            return "\n".join(
                indent + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
            )
        return "\n".join(f"{indent}{_cell(v, 100)}" for v in data)
    return f"{indent}{_cell(data, 100)}"


def between(low: int, high: int) -> Any:
    """An argparse type for an integer in [low, high], refused with a one-line reason."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not within {low}..{high}")
        return value

    return parse


def err(message: str) -> None:
    print(f"memora: {message}", file=sys.stderr)


def auth_config_ok(settings: Settings) -> bool:
    """A server refuses to start with an incomplete MEMORA_AUTH_* configuration (said on stderr), not on the first
    JWT it meets."""
    from api.jwt_auth import JwtConfigError, verifier_for

    try:
        verifier_for(settings)
    except JwtConfigError as exc:
        err(str(exc))
        return False
    return True


def connect(settings: Settings, migrate_schema: bool = True) -> Any:
    """The graph, starting the managed Neo4j first when needed and applying pending migrations (and cutting the
    automatic chapters of entries stored before the current rule)."""
    from graph.automatic_periods import recut
    from graph.db import get_graph
    from graph.runtime import Neo4jRuntime
    from graph.schema import migrate

    if settings.managed_neo4j:
        runtime = Neo4jRuntime(settings)
        if not runtime.status().running:
            err(f"starting Neo4j {settings.neo4j_version} on bolt port {settings.neo4j_bolt_port} …")
            runtime.start()
    graph = get_graph(settings)
    if migrate_schema:
        migrate(graph)
        recut(graph)
    return graph


class LineProgress:
    """Progress for a log or a pipe: one line on stderr every `every` seconds (and at the end), never a bar."""

    def __init__(self, total: int | None, label: str, every: float = 5.0) -> None:
        self.total, self.label, self.every = total, label, every
        self.done = self.shown = 0
        self.closed = False
        self.started = self.last = time.monotonic()

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """The last line, once (tqdm's interface: callers may close before leaving the block)."""
        if self.done and self.done != self.shown and not self.closed:  # not the line just printed, twice
            self._line()
        self.closed = True

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self._line()

    def _line(self) -> None:
        self.shown = self.done
        elapsed = time.monotonic() - self.started
        of = f"/{self.total} ({100 * self.done / self.total:.0f} %)" if self.total else ""
        print(f"{self.label}: {self.done}{of}, {elapsed:.0f} s", file=sys.stderr, flush=True)


def progress(total: int | None, label: str, every: float = 5.0) -> Any:
    """A tqdm bar on a terminal; elsewhere a plain line every few seconds on stderr (stdout stays clean for
    --json), so long work in a log or CI is never silent."""
    if not sys.stderr.isatty():
        return LineProgress(total, label, every)
    from tqdm import tqdm

    return tqdm(total=total, desc=label, unit="entry", file=sys.stderr)


def relink_now(graph: Graph, project: str, settings: Settings) -> dict[str, int]:
    """Re-link the project's entries now, with a progress bar; chunks whose context changed are embedded."""
    from ingest.embedding_jobs import active_embedder
    from ingest.relink import relink_project

    seen = 0
    with progress(None, "re-linking") as bar:

        def step(done: int, total: int, _relinked: int) -> None:
            nonlocal seen
            bar.total = total
            bar.update(done - seen)
            seen = done

        total, relinked = relink_project(graph, active_embedder(graph, settings), project, embed=True, progress=step)
    return {"entries": total, "relinked": relinked}
