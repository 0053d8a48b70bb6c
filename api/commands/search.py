"""`memora search` (the API's search, as a user; `--json` prints exactly the API's body) and `memora understand`
(how a query is parsed, without searching). User mistakes (a bad date, an unknown channel) are argparse errors:
a clear message and exit 2, never a traceback."""

from __future__ import annotations

import argparse
from datetime import date
from typing import Any

from api.commands.common import Subparsers, connect, err, out
from graph.settings import Settings


def iso_date(text: str) -> date:
    """An argparse type: a calendar date written YYYY-MM-DD."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (use YYYY-MM-DD, a real calendar day)") from None


def channel_list(text: str) -> tuple[str, ...]:
    """An argparse type: comma-separated channels, each one the search asks for by name
    (queries/search/channel_set.py, read only when the option is given)."""
    from queries.search.channel_set import askable

    names = tuple(c.strip() for c in text.split(",") if c.strip())
    choices = askable()
    unknown = [c for c in names if c not in choices]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown channel(s) {', '.join(map(repr, unknown)) or '(none given)'}; choose from {', '.join(choices)}"
        )
    return names


def result_count(text: str) -> int:
    """An argparse type: how many results, 1..100 (the API's bounds)."""
    try:
        k = int(text)
    except ValueError:
        k = 0
    if not 1 <= k <= 100:
        raise argparse.ArgumentTypeError(f"--k must be a whole number from 1 to 100, not {text!r}")
    return k


def cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    from api.actions import search as searching
    from api.actions.budgets import Budgets, Who
    from api.services import Services
    from graph.visibility import Viewer
    from ingest.embedding_jobs import active_embedder
    from queries.search.request import AccessDenied, Filters, Scope, SearchOptions

    if args.date_from and args.date_to and args.date_to < args.date_from:
        err("--to is before --from")
        return 2
    graph = connect(settings, migrate_schema=False)
    filters = Filters(
        date_from=args.date_from,
        date_to=args.date_to,
        persons=args.person or None,
        places=args.place or None,
        author_ids=args.author or None,
        intimacy_max=args.intimacy_max,
    )
    options = SearchOptions(
        k=args.k,
        explain=args.explain,
        filters=filters,
        diversify=not args.no_diversify,
        channels=args.channels or None,
        now=args.now,
        rerank=args.rerank,
    )
    svc = Services(settings, graph=graph, embedder=active_embedder(graph, settings))
    asked = searching.Asked(args.text, Scope(project_id=args.project, multi_project=args.project is None), options)
    try:
        # whoever can run the CLI can read the graph anyway: no budget, and no search log
        resp = searching.search(
            svc, Budgets.unlimited(), Who.user(Viewer(user_id=args.as_user)), asked, telemetry=False
        )
    except AccessDenied as exc:
        err(str(exc))
        return 4
    body = resp.model_dump()
    if args.json:
        out(body)
    else:
        _print_search(body)
    return 0


def _print_search(body: dict[str, Any]) -> None:
    """The human form of the API's body: the header's latency is the body's `latency_ms.total`, as written there."""
    print(
        f"{len(body['results'])} of {body['total_candidates']} candidates (source: {body['source']}, "
        f"{body['latency_ms']['total']} ms)"
    )
    for warning in body["warnings"]:
        print(f"warning: {warning}")
    if body["results"] and not body.get("matched", True):
        latest = body["source"] == "recency"
        print(
            "nothing matched well: "
            + ("the latest entries" if latest else "the closest entries, for what they are worth")
        )
    if body.get("answer"):  # an entity question (queries/entities/entity_questions.py)
        answer = body["answer"]
        about = f" {answer['entity']['name']}" if answer["entity"] else ""
        items = ", ".join(f"{a['name']} ({a['score']:g})" for a in answer["items"])
        print(f"answer ({answer['kind']}{about}): {items}")
    for i, r in enumerate(body["results"], start=1):
        print(
            f"{i:2d}. [{r['intimacy_level']}] {r['entry_id']} ({r['occurred_on'] or 'undated'}, {r['author_id']}) "
            f"{r['score']:.4f}" + (f" relevance {r['relevance']:.2f}" if r.get("relevance") is not None else "")
        )
        reply = r.get("replies_to")
        if reply:
            print(f"    ↳ answering {reply['author_id']}: {reply['text']}")
        print(f"    {r['snippet_md']}")
    explained = body.get("query_understanding")
    if explained:
        print()
        _print_understanding(explained)
        for key in ("relaxed", "weights", "channels"):
            if key in explained:
                print(f"{key:>10}: {_plain(explained[key])}")


def cmd_understand(args: argparse.Namespace, settings: Settings) -> int:
    from graph.entities import list_entities
    from graph.export import project_exists
    from graph.members import project_hemisphere
    from queries.search.understanding import KnownEntity, to_json, understand

    known: list[KnownEntity] = []
    hemisphere = args.hemisphere
    if args.project:
        graph = connect(settings, migrate_schema=False)
        if not project_exists(graph, args.project):
            err(f"no such project: {args.project}")
            return 2
        known = [KnownEntity(e.id, e.kind, e.name, e.aliases) for e in list_entities(graph, [args.project])]
        hemisphere = hemisphere or project_hemisphere(graph, [args.project])
    result = to_json(understand(args.text, known, args.now or date.today(), args.locale, hemisphere or "north"))
    if args.json:
        out(result)
    else:
        _print_understanding(result)
    return 0


def _print_understanding(u: dict[str, Any]) -> None:
    """One line per finding, in words: what the query names and what is left to embed."""
    if u.get("understanding") == "off":
        print("understanding: off")
        return
    t = u.get("temporal")
    when = "—"
    if t:
        when = f"{t['start']} … {t['end']} ({t['precision']}, from {t['text']!r})"
        if t.get("recurring"):
            when = f"any year's {t['text']!r} (latest: {t['start']} … {t['end']}, {t['precision']})"
    rows = [
        ("date", when),
        ("persons", _names(u.get("persons"))),
        ("places", _names(u.get("places"))),
        ("things", _names(u.get("things"))),
        ("author", _names([u["author"]] if u.get("author") else [])),
        ("tags", ", ".join(f"#{tag}" for tag in u.get("tags") or []) or "—"),
        ("to embed", repr(u.get("cleaned_text", ""))),
        ("language", u.get("language")),
        ("intent", u.get("intent")),
        ("emotion", u.get("emotion")),
        ("layer", u.get("layer")),
    ]
    for key, value in rows:
        print(f"{key:>10}: {value}")


def _names(matches: list[dict[str, Any]] | None) -> str:
    return ", ".join(m["name"] + (" (ambiguous)" if m.get("ambiguous") else "") for m in matches or []) or "—"


def _plain(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "—"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "—"
    return str(value)


def add_search(sub: Subparsers) -> None:
    se = sub.add_parser("search", help="search as a user (same search as the API)")
    se.add_argument("text")
    se.add_argument("--project")
    se.add_argument("--as", dest="as_user", required=True, help="the viewer's user id")
    se.add_argument("--k", type=result_count, default=10, help="results, 1..100 (default 10)")
    se.add_argument(
        "--channels",
        type=channel_list,
        help="comma-separated channels, e.g. dense,fulltext (default: the search's own)",
    )
    se.add_argument("--from", dest="date_from", type=iso_date, help="YYYY-MM-DD")
    se.add_argument("--to", dest="date_to", type=iso_date, help="YYYY-MM-DD")
    se.add_argument("--now", type=iso_date, help="YYYY-MM-DD: the day relative dates count from (default: today)")
    se.add_argument("--person", action="append")
    se.add_argument("--place", action="append")
    se.add_argument("--author", action="append")
    se.add_argument("--intimacy-max", choices=["public", "circle", "intimate", "private"])
    se.add_argument("--explain", action="store_true")
    se.add_argument("--no-diversify", action="store_true", help="keep near-identical entries (no MMR)")
    se.add_argument(
        "--rerank",
        choices=["none", "fast", "premium"],
        default="none",
        help="second stage: fast (cross-encoder, MEMORA_RERANKER) or premium (MEMORA_LLM_*)",
    )
    se.add_argument("--json", action="store_true")
    se.set_defaults(func=cmd_search)


def add_understand(sub: Subparsers) -> None:
    und = sub.add_parser("understand", help="show how a query is parsed (dates, people, places, intent)")
    und.add_argument("text")
    und.add_argument("--project", help="match against this project's entities and aliases, in its hemisphere")
    und.add_argument("--now", type=iso_date, help="YYYY-MM-DD (default: today)")
    und.add_argument("--locale", choices=["es", "en", "fr"])
    und.add_argument(
        "--hemisphere", choices=["north", "south"], help="what the seasons mean (default: the project's, else north)"
    )
    und.add_argument("--json", action="store_true", help="the structured result (the API's query_understanding)")
    und.set_defaults(func=cmd_understand)
