"""`memora entity add|list` (persons, places, things and their aliases) and `memora entity with|timeline|top` (the
analytics, counted over what `--as USER` may see)."""

from __future__ import annotations

import argparse

from api.commands.common import Subparsers, connect, err, out
from graph.settings import Settings


def cmd_entity(args: argparse.Namespace, settings: Settings) -> int:
    from graph import analytics
    from graph.entities import find_visible_entity, list_entities, upsert_entity
    from graph.members import role_of
    from graph.visibility import Viewer, visibility_params

    graph = connect(settings)
    if args.action in ("with", "timeline", "top"):
        if not args.as_user:
            err(f"entity {args.action} needs --as USER (counts cover what that user may see)")
            return 2
        if role_of(graph, args.project, args.as_user) is None:
            err("not a member of this project")
            return 4
        params = visibility_params(Viewer(user_id=args.as_user))
        if args.action == "top":
            out(analytics.importance(graph, params, args.project, args.kind))
            return 0
        entity = find_visible_entity(graph, args.project, params, args.name or "")
        if entity is None:
            err(f"no such person, place or thing: {args.name}")
            return 2
        if args.action == "with":
            out(analytics.co_occurrence(graph, params, args.project, entity.id))
        else:
            out(analytics.timeline(graph, params, args.project, entity.id))
        return 0
    if args.action == "add":
        try:
            e = upsert_entity(graph, args.project, args.kind or "person", args.name, args.alias or [],
                              audience=args.audience, author_id=args.as_user)
        except ValueError as exc:
            err(str(exc))
            return 2
        out({"id": e.id, "kind": e.kind, "name": e.name, "aliases": list(e.aliases)})
    else:
        out([{"id": e.id, "kind": e.kind, "name": e.name, "aliases": list(e.aliases)}
             for e in list_entities(graph, [args.project])])
    return 0


def add_entity(sub: Subparsers) -> None:
    ent = sub.add_parser("entity", help="manage persons, places and things with aliases")
    ent.add_argument("action", choices=["add", "list", "with", "timeline", "top"],
                     help="with: who appears with NAME; timeline: NAME's entries per year; top: most important")
    ent.add_argument("--project", required=True)
    ent.add_argument("--as", dest="as_user", help="with/timeline/top: count what this user may see; add: the "
                                                  "declaration's author")
    ent.add_argument("--kind", choices=["person", "place", "thing"])
    ent.add_argument("--name")
    ent.add_argument("--alias", action="append")
    ent.add_argument("--audience", choices=["private", "intimate", "circle", "public"], default="circle",
                     help="add: who may learn the name and aliases (private and intimate need --as)")
    ent.set_defaults(func=cmd_entity)
