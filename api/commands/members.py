"""`memora member add|remove|list` and `memora project set`: who belongs to a project, and what the project is
called and which hemisphere its seasons follow."""

from __future__ import annotations

import argparse

from api.commands.common import Subparsers, connect, err, out
from graph.settings import Settings


def cmd_member(args: argparse.Namespace, settings: Settings) -> int:
    from graph.members import members_of, remove_member, set_member

    graph = connect(settings)
    if args.action == "add":
        if not args.user or not args.role:
            err("member add needs --user and --role")
            return 2
        role = set_member(graph, args.project, args.user, args.role)
        out({"project": args.project, "user": args.user, "role": role})
    elif args.action == "remove":
        out({"project": args.project, "user": args.user, "removed": remove_member(graph, args.project, args.user)})
    else:
        out(members_of(graph, args.project))
    return 0


def cmd_project(args: argparse.Namespace, settings: Settings) -> int:
    from graph.members import update_project

    graph = connect(settings)
    row = update_project(graph, args.project, args.name, args.hemisphere)
    if row is None:
        err(f"no such project: {args.project}")
        return 2
    out(row)
    return 0


def add_member(sub: Subparsers) -> None:
    mem = sub.add_parser("member", help="manage project membership")
    mem.add_argument("action", choices=["add", "remove", "list"])
    mem.add_argument("--project", required=True)
    mem.add_argument("--user")
    mem.add_argument("--role", choices=["owner", "coauthor", "reader"])
    mem.set_defaults(func=cmd_member)


def add_project(sub: Subparsers) -> None:
    prj = sub.add_parser("project", help="rename a project or set its hemisphere (what 'summer' means)")
    prj.add_argument("action", choices=["set"])
    prj.add_argument("--project", required=True)
    prj.add_argument("--name")
    prj.add_argument("--hemisphere", choices=["north", "south"])
    prj.set_defaults(func=cmd_project)
