"""`memora` command line: the same code paths as the service, for operators, the demo, tests and evaluation.

This module only assembles the parser and dispatches; each subcommand lives in `api/commands/`.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable

from api.commands import db, demo, embeddings, entity, entries, evaluate, export, ingest, members, search, serve
from api.commands.common import Subparsers, connect, err
from graph.settings import get_settings

__all__ = ["build_parser", "connect", "main"]

# In the order `memora --help` lists them.
SUBCOMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    db.add_db, db.add_migrate, ingest.add_ingest, export.add_export, export.add_import, entries.add_entries,
    search.add_search, serve.add_token, members.add_member, members.add_project, entity.add_entity,
    embeddings.add_embeddings, search.add_understand, serve.add_serve, evaluate.add_eval, demo.add_demo,
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
    from graph.runtime import RuntimeProblem

    try:
        return int(args.func(args, get_settings()) or 0)
    except RuntimeProblem as exc:
        err(str(exc))
        return 5
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
