"""`memora summary` (a project's or period's summary as one viewer), `memora summaries refresh` (rebuild what is
stale, missing or waiting for the model) and `memora chapter` (the chapter generator's context, or a draft)."""

from __future__ import annotations

import argparse
from typing import Any

from api.commands.common import Subparsers, between, connect, err, out
from graph.settings import Settings

NOT_MEMBER_EXIT = 4


def cmd_summary(args: argparse.Namespace, settings: Settings) -> int:
    from api.models.summaries import SummaryOut
    from graph.members import role_of
    from graph.periods import chapter_ids
    from graph.summaries import NotMember, visible_periods
    from graph.visibility import Viewer
    from ingest.embedding_jobs import active_embedder
    from ingest.summary_jobs import serving_summaries

    graph = connect(settings, migrate_schema=False)
    viewer = Viewer(user_id=args.as_user)
    if role_of(graph, args.project, args.as_user) is None:
        err("not a member of this project")
        return NOT_MEMBER_EXIT
    summaries = serving_summaries(graph, settings, active_embedder(graph, settings))
    period_id = None
    try:
        if args.period:
            periods = visible_periods(graph, args.project, viewer)
            named = [args.period, *chapter_ids(args.project, args.period)]
            found = [p for p in periods if p["id"] in named]
            if not found:
                err(f"no period {args.period!r} with entries {args.as_user} may see in {args.project}")
                return 2
            period_id = found[0]["id"]
        row = summaries.for_viewer(viewer, args.project, period_id)
    except NotMember as exc:
        err(str(exc))
        return NOT_MEMBER_EXIT
    if row is None:
        err("no summary for this viewer here")
        return 2
    body = SummaryOut.model_validate(row).model_dump()
    if args.json:
        out(body)
    else:
        print(
            f"{body['audience']} summary of {period_id or args.project} ({body['producer']}, "
            f"{body['entry_count']} entries, {body['words']} words, generated {body['generated_at']})"
        )
        print(body["text"] or "(no entries)")
    return 0


def cmd_refresh(args: argparse.Namespace, settings: Settings) -> int:
    from ingest.embedding_jobs import active_embedder
    from ingest.summary_jobs import summaries_for

    graph = connect(settings)
    summaries = summaries_for(graph, settings, active_embedder(graph, settings))
    report = summaries.refresh(args.project)
    if args.json:
        out(report.as_dict())
    else:
        print(f"summaries rebuilt: {report.built} ({report.abstractive} by the language model)")
        for line in report.fallbacks:
            print(f"extractive fallback: {line}")
    return 0


def cmd_chapter(args: argparse.Namespace, settings: Settings) -> int:
    from api.models.summaries import ChapterContextOut, DraftOut
    from graph.summaries import NotMember
    from graph.visibility import Viewer
    from inference.providers.llm import chat_client
    from ingest.embedding_jobs import active_embedder
    from ingest.summary_jobs import serving_summaries
    from queries.context.chapter import chapter_context, draft
    from queries.search.request import AccessDenied

    graph = connect(settings, migrate_schema=False)
    embedder = active_embedder(graph, settings)
    viewer = Viewer(user_id=args.as_user)
    try:
        ctx = chapter_context(
            graph,
            embedder,
            settings,
            serving_summaries(graph, settings, embedder),
            viewer,
            args.project,
            args.theme,
            args.budget,
        )
    except (NotMember, AccessDenied):
        err("not a member of this project")
        return NOT_MEMBER_EXIT
    body: dict[str, Any] = ChapterContextOut.model_validate(ctx.as_dict()).model_dump()
    if args.draft:
        llm = chat_client(settings)
        try:
            result = draft(ctx, args.theme, llm)
        finally:
            if llm is not None:
                llm.close()
        body = DraftOut(
            text=result.text,
            producer=result.producer,
            citations=result.citations,
            fallback_reason=result.fallback_reason,
            context=ChapterContextOut(**body),
        ).model_dump()
    if args.json:
        out(body)
    elif args.draft:
        print(body["text"])
        print(f"\n({body['producer']}; cites {', '.join(body['citations'].values()) or 'nothing'})")
    else:
        print_context(body)
    return 0


SHOWN_LINES = 5


def print_context(body: dict[str, Any], indent: str = "") -> None:
    """The human form of a chapter context (also what `memora demo` prints)."""
    lines = body["project"]["summary"].splitlines()
    print(f"{indent}project summary ({len(lines)} lines):" if lines else f"{indent}project summary: (none)")
    for line in lines[:SHOWN_LINES]:
        print(f"{indent}  {line[:160]}")
    if len(lines) > SHOWN_LINES:
        print(f"{indent}  …")
    for p in body["periods"]:
        print(f"{indent}period {p['name']} ({p['start']} – {p['end']}):")
        for event in p.get("events") or [{"text": p["summary"][:200], "citation": None}]:
            marker = f" [{event['citation']}]" if event.get("citation") else ""
            print(f"{indent}  - {event['text'][:160]}{marker}")
    for e in body["entries"]:
        print(
            f"{indent}[{e['citation']}] {e['occurred_on'] or 'undated'} {e['entry_id']} ({e['author_id']}): "
            f"{' '.join(e['text'].split())[:140]}"
        )
    print(f"{indent}{body['used_tokens']} of {body['budget_tokens']} tokens ({body['tokenizer']})")
    for w in body.get("warnings") or []:
        print(f"{indent}warning: {w}")


def add_summary(sub: Subparsers) -> None:
    p = sub.add_parser("summary", help="a project's (or period's) summary as one viewer sees it")
    p.add_argument("--project", required=True)
    p.add_argument("--period", help="a period id or name (default: the whole project)")
    p.add_argument("--as", dest="as_user", required=True, metavar="USER")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_summary)


def add_summaries(sub: Subparsers) -> None:
    p = sub.add_parser("summaries", help="maintain the period and project summaries")
    actions = p.add_subparsers(dest="action", required=True)
    r = actions.add_parser("refresh", help="rebuild stale, missing and model-pending summaries")
    r.add_argument("--project")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_refresh)


def add_chapter(sub: Subparsers) -> None:
    p = sub.add_parser("chapter", help="the chapter generator's context (or a --draft) for a theme")
    p.add_argument("--project", required=True)
    p.add_argument("--theme", required=True)
    p.add_argument("--budget", type=between(1, 100_000), default=4000, help="tokens (default 4000)")
    p.add_argument("--as", dest="as_user", required=True, metavar="USER")
    p.add_argument("--draft", action="store_true", help="a draft citing entry ids (an outline without a model)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_chapter)
