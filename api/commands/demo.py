"""`memora demo`: the command; what it loads and searches is `api/demo.py` (imported only when it runs)."""

from __future__ import annotations

import argparse

from api.commands.common import Subparsers, connect
from graph.settings import Settings


def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    from api.demo import run_demo

    return run_demo(connect(settings), settings)


def add_demo(sub: Subparsers) -> None:
    sub.add_parser("demo", help="load the bundled demo diary and search it as different viewers").set_defaults(
        func=cmd_demo
    )
