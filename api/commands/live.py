"""`memora live --project P --as USER [--json] < transcript.txt`: the live interview context (queries/context/live.py)
of a
transcript read from stdin, as the API's `POST /v1/context/live` body."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from api.commands.common import Subparsers, connect, err, out
from graph.settings import Settings


def cmd_live(args: argparse.Namespace, settings: Settings) -> int:
    from api.models.live import LiveContextOut
    from graph.members import role_of
    from graph.visibility import Viewer
    from ingest.embedding_jobs import active_embedder
    from queries.context.live import live_context, shared_cache

    transcript = sys.stdin.read()
    if not transcript.strip():
        err("no transcript on stdin (pipe the running transcript in: memora live ... < transcript.txt)")
        return 2
    graph = connect(settings, migrate_schema=False)
    if role_of(graph, args.project, args.as_user) is None:
        err("not a member of this project")
        return 4
    cache = shared_cache(
        graph, settings.live_cache_size, settings.live_cache_ttl_seconds, settings.live_cache_check_seconds
    )
    ctx = live_context(
        graph, active_embedder(graph, settings), Viewer(user_id=args.as_user), args.project, transcript, cache
    )
    body = LiveContextOut.model_validate(asdict(ctx)).model_dump()
    if args.json:
        out(body)
        return 0
    for warning in body["warnings"]:
        print(f"warning: {warning}")
    print(f"related entries (window of ~{body['window_tokens']} tokens, {body['latency_ms']['total']} ms):")
    for i, e in enumerate(body["entries"], start=1):
        print(f"{i}. {e['entry_id']} ({e['occurred_on'] or 'undated'}, {e['author_id']}) {e['score']:.3f}")
        print(f"   {e['snippet_md']}")
    print("ask about:" if body["ask_about"] else "ask about: (nobody named here is little known)")
    for a in body["ask_about"]:
        print(f"  - {a['name']} ({a['kind']}): {a['entries']} entries, named {a['mentions']}x")
    return 0


def add_live(sub: Subparsers) -> None:
    lv = sub.add_parser("live", help="live interview context for a transcript on stdin")
    lv.add_argument("--project", required=True)
    lv.add_argument("--as", dest="as_user", required=True, help="the viewer's user id")
    lv.add_argument("--json", action="store_true", help="the API's body")
    lv.set_defaults(func=cmd_live)
