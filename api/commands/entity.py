"""`memora entity add|list|remove|forget|rename|relink` (persons, places and things, their aliases, and re-linking
existing entries to them) and `memora entity with|timeline|top` (the analytics, counted over what `--as USER` may
see)."""

from __future__ import annotations

import argparse
from typing import Any

from api.commands import entity_vectors
from api.commands.common import Subparsers, between, connect, err, progress, relink_now, show
from api.commands.entity_analytics import ACTIONS as ANALYTICS
from api.commands.entity_analytics import add_analytics_arguments, run_analytics
from api.commands.entity_review import REVIEW_ACTIONS, cmd_review
from graph.settings import Settings


def cmd_entity(args: argparse.Namespace, settings: Settings) -> int:
    from graph.entities import list_entities, upsert_entity

    if args.action in entity_vectors.ACTIONS:
        return entity_vectors.cmd_entity_vectors(args, settings)
    if not args.project:
        err(f"entity {args.action} needs --project")
        return 2
    if args.kind == "period":
        err("--kind period is for entity similar only (chapters are not persons, places or things)")
        return 2
    if args.action in REVIEW_ACTIONS:
        return cmd_review(args, settings)
    graph = connect(settings)
    if args.action in ANALYTICS:
        return run_analytics(graph, args)
    if args.action in ("remove", "rename", "forget"):
        return _edit(graph, args, settings)
    if args.action == "add":
        if not args.kind or not args.name:
            err("entity add needs --kind person|place|thing and --name")
            return 2
        try:
            e = upsert_entity(
                graph,
                args.project,
                args.kind,
                args.name,
                args.alias or [],
                audience=args.audience,
                author_id=args.as_user,
            )
        except ValueError as exc:
            err(str(exc))
            return 2
        result: dict[str, Any] = {"id": e.id, "kind": e.kind, "name": e.name, "aliases": list(e.aliases)}
        show({**result, "relink": relink_now(graph, args.project, settings)}, args.json)
    elif args.action == "relink":
        show(relink_now(graph, args.project, settings), args.json)
    else:
        show(
            [
                {"id": e.id, "kind": e.kind, "name": e.name, "aliases": list(e.aliases)}
                for e in list_entities(graph, [args.project])
            ],
            args.json,
        )
    return 0


def _edit(graph: Any, args: argparse.Namespace, settings: Settings) -> int:
    """remove and rename act as `--as USER` would through the API: on the sources that user may see."""
    from graph.entity_edits import NameTaken, NotDeclared, delete_entity, find_for_edit, rename_entity
    from graph.members import role_of
    from graph.visibility import Viewer

    if not args.as_user or not args.kind or not args.name:
        err(f"entity {args.action} needs --as USER, --kind and --name (it changes what that user may see)")
        return 2
    if args.action == "rename" and args.to is None and args.alias is None:
        err("entity rename needs --to NEW_NAME, --alias (the new aliases) or both")
        return 2
    if role_of(graph, args.project, args.as_user) not in ("owner", "coauthor"):
        err("only the project's owner and coauthors can change its entities")
        return 4
    viewer = Viewer(user_id=args.as_user)
    entity = find_for_edit(graph, args.project, viewer, args.kind, args.name)
    if entity is None:
        err(f"no such {args.kind}: {args.name}")
        return 2
    if args.action == "forget":
        return _forget(graph, args, settings, entity)
    if args.action == "remove":
        delete_entity(graph, entity, viewer)
        show({"id": entity.id, "removed": True, "relink": relink_now(graph, args.project, settings)}, args.json)
        return 0
    try:
        e = rename_entity(graph, args.project, entity, viewer, args.to, args.alias)
    except NameTaken as exc:
        err(f"another {args.kind} is already called {exc}; remove one of them first")
        return 2
    except NotDeclared:
        err("this entity is known only from entries: declare it with `memora entity add` to give it aliases")
        return 2
    except ValueError as exc:
        err(str(exc))
        return 2
    show(
        {
            "id": e.id,
            "kind": e.kind,
            "name": e.name,
            "aliases": list(e.aliases),
            "relink": relink_now(graph, args.project, settings),
        },
        args.json,
    )
    return 0


def _forget(graph: Any, args: argparse.Namespace, settings: Settings, entity: Any) -> int:
    """Redact the entity's names from the entries `--as USER` may edit, then delete it (ingest/forget.py)."""
    from graph.members import role_of
    from graph.visibility import Viewer
    from ingest.embedding_jobs import active_embedder
    from ingest.forget import forget, plan_forget

    viewer = Viewer(user_id=args.as_user)
    plan = plan_forget(graph, entity, viewer, role_of(graph, args.project, args.as_user) == "owner")
    result: dict[str, Any] = {
        "dry_run": args.dry_run,
        "kind": entity.kind,
        "name": entity.name,
        "names": plan.names,
        "entries": [{"entry_id": r.entry_id, "occurrences": r.occurrences} for r in plan.entries],
        "declarations": plan.declarations,
        "not_editable": plan.not_editable,
    }
    if not args.dry_run:
        with progress(len(plan.records), "redacting") as bar:
            forget(graph, active_embedder(graph, settings), plan, viewer, embed=True, progress=bar.update)
        result["relink"] = relink_now(graph, args.project, settings)
    show(result, args.json)
    return 0


def add_entity(sub: Subparsers) -> None:
    ent = sub.add_parser("entity", help="manage persons, places and things with aliases")
    ent.add_argument(
        "action",
        choices=[
            "add",
            "list",
            "remove",
            "forget",
            "rename",
            "relink",
            "with",
            "timeline",
            "top",
            "changes",
            *REVIEW_ACTIONS,
            *entity_vectors.ACTIONS,
        ],
        help="remove/rename/forget: as --as USER may see it (forget also redacts its names from the entries "
        "that user may edit; --dry-run lists them); relink: re-link existing entries to the names; "
        "with: who appears with NAME; timeline: NAME's entries per year; top: most important; "
        "changes: who appeared or disappeared (--from/--to; --kind, --limit per list); "
        "candidates: names found at ingest that are not entities (confirm/reject one with --name); "
        "merge --into NAME --from NAME; unmerge --name FROM; "
        "similar: entities and chapters like NAME; refresh: rebuild changed entity vectors",
    )
    ent.add_argument("--project", required=False, help="required except for refresh (all projects without it)")
    ent.add_argument(
        "--as",
        dest="as_user",
        help="with/timeline/top: count what this user may see; add: the "
        "declaration's author; remove/rename: who makes the change",
    )
    ent.add_argument(
        "--kind",
        choices=["person", "place", "thing", "period"],
        help="add/remove/rename: the entity's kind (required); with/top: only companions of this kind; "
        "similar: the kind of the answers (NAME's own by default; period: chapters)",
    )
    ent.add_argument("--limit", type=between(1, 100), default=10, help="with/top: how many, 1..100 (10)")
    ent.add_argument("--json", action="store_true", help="print the API's JSON instead of text")
    ent.add_argument("--name")
    ent.add_argument("--to", help="rename: the new name; with/changes: until this date (YYYY, YYYY-MM or YYYY-MM-DD)")
    ent.add_argument("--into", help="merge: the entity kept")
    ent.add_argument("--alias", action="append", help="add: an alias (repeat); rename: the new aliases")
    ent.add_argument(
        "--audience",
        choices=["private", "intimate", "circle", "public"],
        default="circle",
        help="add: who may learn the name and aliases (private and intimate need --as)",
    )
    add_analytics_arguments(ent)
    ent.add_argument("--force", action="store_true", help="refresh: rebuild every entity vector, changed or not")
    ent.add_argument("--dry-run", action="store_true", help="forget: list what would change, change nothing")
    ent.set_defaults(func=cmd_entity)
