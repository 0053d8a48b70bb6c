"""`memora stats`: the retrieval log in aggregate (queries/telemetry/search_stats.py)."""

from __future__ import annotations

import argparse
from dataclasses import asdict

from api.commands.common import Subparsers, connect, err, show
from graph.settings import Settings


def cmd_stats(args: argparse.Namespace, settings: Settings) -> int:
    from queries.telemetry.search_stats import search_stats

    if args.days < 1:
        err("--days must be at least 1")
        return 2
    graph = connect(settings, migrate_schema=False)
    stats = search_stats(graph, days=args.days, project_id=args.project)
    data = asdict(stats)
    if not args.json:
        data["click_through"] = {f"position {p}": v for p, v in stats.click_through.items()}
        if not stats.searches:
            data["note"] = (
                f"no searches logged in the last {args.days} days (MEMORA_SEARCH_LOG_SAMPLE is "
                f"{settings.search_log_sample}; only API searches are logged)"
            )
    show(data, args.json)
    return 0


def add_stats(sub: Subparsers) -> None:
    p = sub.add_parser(
        "stats", help="search latency per stage, channel shares and click-through, from the sampled retrieval log"
    )
    p.add_argument("--days", type=int, default=30, help="look back this many days (default 30)")
    p.add_argument("--project", help="only searches of this project")
    p.add_argument("--json", action="store_true", help="the figures as JSON")
    p.set_defaults(func=cmd_stats)
