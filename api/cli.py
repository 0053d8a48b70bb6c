"""`memora` command line: the same code paths as the service, for operators, the demo, tests and evaluation.

This module only assembles the parser and dispatches; each subcommand lives in `api/commands/`.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable

from api.commands import (
    db,
    demo,
    embeddings,
    entity,
    entries,
    evaluate,
    export,
    ingest,
    live,
    mcp,
    members,
    search,
    serve,
    stats,
)
from api.commands import summaries as summary_commands
from api.commands.common import Subparsers, connect, err
from graph.settings import Settings, get_settings

__all__ = ["build_parser", "connect", "main"]

# In the order `memora --help` lists them.
SUBCOMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    db.add_db,
    db.add_migrate,
    ingest.add_ingest,
    export.add_export,
    export.add_import,
    entries.add_entries,
    search.add_search,
    serve.add_token,
    serve.add_signin_link,
    members.add_member,
    members.add_project,
    entity.add_entity,
    embeddings.add_embeddings,
    search.add_understand,
    serve.add_serve,
    evaluate.add_eval,
    demo.add_demo,
    live.add_live,
    summary_commands.add_summary,
    summary_commands.add_summaries,
    summary_commands.add_chapter,
    stats.add_stats,
    mcp.add_mcp,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="memora", description="Memora Graph: personal memory search on Neo4j.")
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="command", required=True)
    for add in SUBCOMMANDS:
        add(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    if not args.verbose:  # the driver's "will be retried" warnings; the outcome is reported below
        logging.getLogger("neo4j").setLevel(logging.ERROR)
    from graph.db import UNAVAILABLE, UNAVAILABLE_EXIT
    from graph.runtime import RuntimeProblem

    settings = get_settings()
    try:
        return int(args.func(args, settings) or 0)
    except RuntimeProblem as exc:
        err(str(exc))
        return 5
    except UNAVAILABLE as exc:
        err(unreachable(settings, exc))
        return UNAVAILABLE_EXIT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `memora export … | head`: the reader left; nothing to say
        sys.stderr.close()
        return 141
    except Exception as exc:
        if args.verbose:
            raise
        err(
            f"unexpected error: {type(exc).__name__}: {' '.join(str(exc).split())[:300]} "
            "(nothing more was written; run with -v for the trace, and report it)"
        )
        return 1


def unreachable(settings: Settings, exc: BaseException) -> str:
    """What to say when Neo4j did not answer within the bounded retries (no traceback: the cause in one line)."""
    from neo4j.exceptions import IncompleteCommit

    cause = " ".join(str(exc).split())[:300]
    written = (
        "the last write may or may not have been stored (its commit was cut off)"
        if isinstance(exc, IncompleteCommit)
        else "nothing more was written"
    )
    where = "the managed Neo4j (`memora db status`, `memora db start`)" if settings.managed_neo4j else "NEO4J_URI"
    return (
        f"the graph database at {settings.bolt_uri} is unreachable ({type(exc).__name__}: {cause}); {written}. "
        f"Check {where} and run the command again (an ingest skips what it already wrote)."
    )


if __name__ == "__main__":
    sys.exit(main())
