"""`memora search` (the API's search, as a user; `--json` prints exactly the API's body) and `memora understand`
(how a query is parsed, without searching)."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from datetime import date

from api.commands.common import Subparsers, connect, err, out
from graph.settings import Settings


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
        err(str(exc))
        return 4
    body = SearchResponseOut.model_validate(asdict(resp)).model_dump()
    if args.json:
        out(body)
        return 0
    print(f"{len(resp.results)} of {resp.total_candidates} candidates (source: {resp.source}, "
          f"{resp.latency_ms['total']:.0f} ms)")
    for i, r in enumerate(resp.results, start=1):
        when = r.occurred_on or "undated"
        print(f"{i:2d}. [{r.intimacy_level}] {r.entry_id} ({when}, {r.author_id}) {r.score:.4f}")
        print(f"    {r.snippet_md}")
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
        out(result)
    else:
        for key, value in result.items():
            print(f"{key:>13}: {value}")
    return 0


def add_search(sub: Subparsers) -> None:
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


def add_understand(sub: Subparsers) -> None:
    und = sub.add_parser("understand", help="show how a query is parsed (dates, people, places, intent)")
    und.add_argument("text")
    und.add_argument("--project", help="match against this project's entities and aliases")
    und.add_argument("--now", help="YYYY-MM-DD (default: today)")
    und.add_argument("--locale", choices=["es", "en", "fr"])
    und.add_argument("--hemisphere", choices=["north", "south"], default="north")
    und.add_argument("--json", action="store_true")
    und.set_defaults(func=cmd_understand)
