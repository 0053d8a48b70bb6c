"""`memora member add|remove|leave|list|link|unlink`, `memora project create|set|delete`: who belongs to a project
(it always keeps an owner), which person of it a member is, a member leaving with their entries, creating and
deleting one, and what it is called and which hemisphere its seasons follow."""

from __future__ import annotations

import argparse
from typing import Any

from api.commands.common import Subparsers, connect, err, progress, relink_now, show
from graph.settings import Settings

LAST_OWNER = "a project keeps at least one owner: make another member owner first"


def cmd_member(args: argparse.Namespace, settings: Settings) -> int:
    from graph.member_people import is_linked
    from graph.members import LastOwner, NoSuchProject, change_member, members_of

    graph = connect(settings)
    if args.action == "list":
        members = members_of(graph, args.project)
        if not members:
            from graph.export import project_exists

            if not project_exists(graph, args.project):
                err(f"no such project: {args.project}")
                return 2
            # A file ingest without --owner creates a project nobody belongs to: say so, and how to repair it.
            err(
                f"note: {args.project} has no members, so nobody can manage it over HTTP; make one owner with "
                f"`memora member add --project {args.project} --user USER --role owner`"
            )
        show(members, args.json)
        return 0
    if args.action == "leave":
        return _leave(graph, args, settings)
    if args.action in ("link", "unlink"):
        return _person(graph, args, settings)
    if not args.user or (args.action == "add" and not args.role):
        err(f"member {args.action} needs --user" + (" and --role" if args.action == "add" else ""))
        return 2
    linked = args.action == "remove" and is_linked(graph, args.project, args.user)
    try:
        before = change_member(graph, args.project, args.user, args.role if args.action == "add" else None)
    except NoSuchProject:
        err(
            f"no such project: {args.project} (create it with `memora project create --project "
            f"{args.project} --owner USER`)"
        )
        return 2
    except LastOwner:
        err(f"{args.user} is the last owner of {args.project}: {LAST_OWNER}")
        return 2
    if args.action == "add":
        show({"project_id": args.project, "user_id": args.user, "role": args.role}, args.json)
    else:
        removed = {"project_id": args.project, "user_id": args.user, "removed": before is not None}
        show({**removed, "relink": relink_now(graph, args.project, settings)} if linked else removed, args.json)
    return 0


def _person(graph: Any, args: argparse.Namespace, settings: Settings) -> int:
    """`--user` is (link) or stops being (unlink) the person `--person` of the project, as an owner says it through
    the API (graph/member_people.py); the operator finds the person among every entity. The project is re-linked."""
    from graph import member_people
    from graph.members import role_of

    if not args.user or (args.action == "link" and not args.person):
        err(f"member {args.action} needs --user" + (" and --person" if args.action == "link" else ""))
        return 2
    out: dict[str, Any] = {"project_id": args.project, "user_id": args.user, "person_id": None, "person": None}
    if args.action == "unlink":
        if member_people.unlink(graph, args.project, args.user) is None:
            err(f"{args.user} is not linked to a person in {args.project}")
            return 2
        show({**out, "relink": relink_now(graph, args.project, settings)}, args.json)
        return 0
    if role_of(graph, args.project, args.user) is None:
        err(f"{args.user} is not a member of {args.project}")
        return 2
    found = member_people.find_person_as_operator(graph, args.project, args.person)
    if found is None or found[1] != "person":
        err(f"no person called {args.person} in {args.project}" if found is None else f"{args.person} is a {found[1]}")
        return 2
    try:
        linked = member_people.link(graph, args.project, args.user, found[0], None)
    except member_people.NotShared:
        err(f"{args.person} is known only from private or intimate sources: declare it for the circle first")
        return 2
    if linked is None:
        err(f"{args.user} is not a member of {args.project}, or {args.person} is gone")
        return 2
    out |= {"person_id": linked.id, "person": linked.name}
    show({**out, "relink": relink_now(graph, args.project, settings)}, args.json)
    return 0


def _leave(graph: Any, args: argparse.Namespace, settings: Settings) -> int:
    """`--user` leaves, as `POST /v1/projects/{p}/leave` would have them (ingest/departure.py)."""
    from graph.members import LastOwner
    from ingest.departure import NotMember, leave_project
    from ingest.embedding_jobs import active_embedder

    if not args.user:
        err("member leave needs --user")
        return 2
    try:
        with progress(None, "deleting entries") as bar:
            gone = leave_project(
                graph, active_embedder(graph, settings), args.project, args.user, args.delete_entries, bar.update
            )
    except NotMember:
        err(f"{args.user} is not a member of {args.project}")
        return 2
    except LastOwner:
        err(f"{args.user} is the last owner of {args.project}: {LAST_OWNER}, or delete the project")
        return 2
    show(
        {
            "project_id": args.project,
            "role": gone.role,
            "entries_deleted": gone.entries_deleted,
            "declarations_deleted": gone.declarations_deleted,
        },
        args.json,
    )
    return 0


def cmd_project(args: argparse.Namespace, settings: Settings) -> int:
    from graph.members import ProjectExists, create_project, update_project

    graph = connect(settings)
    if args.action == "delete":
        return _delete(graph, args)
    if args.action == "create":
        if not args.owner:
            err("project create needs --owner USER (the project's first owner)")
            return 2
        try:
            row = create_project(graph, args.project, args.name, args.hemisphere or "north", args.owner)
        except ProjectExists:
            err(f"project {args.project} already exists")
            return 2
        except ValueError as exc:
            err(str(exc))
            return 2
        show(row, args.json)
        return 0
    if not args.project:
        err("project set needs --project")
        return 2
    updated = update_project(graph, args.project, args.name, args.hemisphere)
    if updated is None:
        err(f"no such project: {args.project}")
        return 2
    show(updated, args.json)
    return 0


def _delete(graph: Any, args: argparse.Namespace) -> int:
    """The operator deletes a project with everything in it; the counts cover every author's records."""
    from graph.export import project_exists
    from graph.project_deletion import delete_project

    if not args.project:
        err("project delete needs --project")
        return 2
    if not project_exists(graph, args.project):
        err(f"no such project: {args.project}")
        return 2
    with progress(None, "deleting") as bar:
        removed = delete_project(graph, args.project, bar.update)
    show({"project_id": args.project, "removed": removed}, args.json)
    return 0


def add_member(sub: Subparsers) -> None:
    mem = sub.add_parser("member", help="manage the members of an existing project")
    mem.add_argument(
        "action",
        choices=["add", "remove", "leave", "list", "link", "unlink"],
        help="link: --user is the person --person of the project (their entries count them); unlink: no longer",
    )
    mem.add_argument("--project", required=True)
    mem.add_argument("--user")
    mem.add_argument("--person", help="link: the person's name, an alias or its id")
    mem.add_argument("--role", choices=["owner", "coauthor", "reader"])
    mem.add_argument(
        "--delete-entries",
        action="store_true",
        help="leave: also delete every entry --user wrote in the project and the names they declared",
    )
    mem.add_argument("--json", action="store_true", help="print the API's JSON instead of text")
    mem.set_defaults(func=cmd_member)


def add_project(sub: Subparsers) -> None:
    prj = sub.add_parser(
        "project",
        help="create a project; rename one or set its hemisphere (what 'summer' means); delete one and all in it",
    )
    prj.add_argument("action", choices=["create", "set", "delete"])
    prj.add_argument("--project", help="the project id (create: generated from --name when omitted)")
    prj.add_argument("--name")
    prj.add_argument("--hemisphere", choices=["north", "south"])
    prj.add_argument("--owner", help="create: the project's first owner")
    prj.add_argument("--json", action="store_true", help="print the API's JSON instead of text")
    prj.set_defaults(func=cmd_project)
