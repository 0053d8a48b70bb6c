"""`memora entries`: a project's entries as a user may see them, filtered, sorted by date and paged (the API's
`GET /v1/projects/{p}/entries`; `--json` prints exactly its body)."""

from __future__ import annotations

import argparse
from datetime import date

from api.commands.common import Subparsers, between, connect, err, out
from graph.settings import Settings

KINDS = ("diary", "chronicle", "session", "witness")


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from exc


def cmd_entries(args: argparse.Namespace, settings: Settings) -> int:
    from api.actions.entries import entry_out
    from api.models.core import EntryListOut
    from graph.members import role_of
    from graph.visibility import Viewer
    from queries.listing import BadCursor, EntryFilters, list_entries

    if args.date_from and args.date_to and args.date_to < args.date_from:
        err("--to is before --from")
        return 2
    graph = connect(settings, migrate_schema=False)
    if role_of(graph, args.project, args.as_user) is None:
        err(f"{args.as_user} is not a member of {args.project}")
        return 4
    filters = EntryFilters(
        periods=args.period,
        date_from=args.date_from,
        date_to=args.date_to,
        authors=args.author,
        persons=args.person,
        places=args.place,
        kinds=args.kind,
        time=args.time,
    )
    try:
        page = list_entries(
            graph,
            Viewer(user_id=args.as_user),
            args.project,
            filters,
            sort=args.sort,
            limit=args.limit,
            cursor=args.cursor,
        )
    except BadCursor as exc:
        err(f"--cursor: {exc}")
        return 2
    body = EntryListOut(entries=[entry_out(r) for r in page.rows], next_cursor=page.next_cursor, warnings=page.warnings)
    if args.json:
        out(body.model_dump())
        return 0
    for warning in body.warnings:
        err(f"warning: {warning}")
    if not body.entries:
        print("no entries")
    for e in body.entries:
        first_line = (e.title or e.text).strip().splitlines()[0] if (e.title or e.text).strip() else ""
        # A conversation turn dated only by `occurred_at` shows its day, as the listing sorts it.
        when = e.occurred_on or (e.read_only.occurred.start if e.read_only.occurred else "undated")
        print(f"{when:>10}  {e.entry_id}  [{e.kind}, {e.intimacy}, {e.author or '-'}]  {first_line[:80]}")
    if body.next_cursor:
        print(f"more: --cursor {body.next_cursor}")
    return 0


def add_entries(sub: Subparsers) -> None:
    en = sub.add_parser("entries", help="list a project's entries as a user sees them (filters, date order, pages)")
    en.add_argument("--project", required=True)
    en.add_argument("--as", dest="as_user", required=True, help="the viewer's user id")
    en.add_argument("--period", action="append", help="chapter name (repeat: any of)")
    en.add_argument("--from", dest="date_from", type=_day, help="YYYY-MM-DD")
    en.add_argument("--to", dest="date_to", type=_day, help="YYYY-MM-DD")
    en.add_argument("--author", action="append", help="author user id (repeat: any of)")
    en.add_argument("--person", action="append", help="person name or alias (repeat: any of)")
    en.add_argument("--place", action="append", help="place name or alias (repeat: any of)")
    en.add_argument("--kind", action="append", choices=KINDS, help="repeat: any of")
    en.add_argument("--sort", choices=["desc", "asc"], default="desc", help="by date (default: newest first)")
    en.add_argument(
        "--time",
        choices=["event", "written"],
        default="event",
        help="--from/--to meet an entry's date or a time it tells (event), or its date only (written)",
    )
    en.add_argument("--limit", type=between(1, 100), default=20, metavar="1..100")
    en.add_argument("--cursor", help="the `more: --cursor …` of the previous page")
    en.add_argument("--json", action="store_true", help="the API's response body")
    en.set_defaults(func=cmd_entries)
