"""`memora entity candidates|confirm|reject|merge|unmerge`: reviewing the names recognition found at ingest, and
merging two entities (or undoing it). Writes act as `--as USER` would through the API, on what that user may see;
`candidates` without `--as` is the operator's view of every entry."""

from __future__ import annotations

import argparse
from typing import Any

from api.commands.common import connect, err, relink_now, show
from graph.settings import Settings

REVIEW_ACTIONS = ("candidates", "confirm", "reject", "merge", "unmerge")


def cmd_review(args: argparse.Namespace, settings: Settings) -> int:
    from graph.candidates import candidate_sources, confirm_candidate, list_candidates, reject_candidate
    from graph.entity_merge import MergeRefused, find_entity, merge_entities, unmerge
    from graph.members import role_of
    from graph.visibility import Viewer

    graph = connect(settings)
    viewer = Viewer(user_id=args.as_user) if args.as_user else None
    if args.action == "candidates":
        if args.as_user and role_of(graph, args.project, args.as_user) is None:
            err("not a member of this project")
            return 4
        show([c.as_dict() for c in list_candidates(graph, args.project, viewer, args.limit)], args.json)
        return 0
    if viewer is None:
        err(f"entity {args.action} needs --as USER (it changes what that user may see)")
        return 2
    if role_of(graph, args.project, args.as_user) not in ("owner", "coauthor"):
        err("only the project's owner and coauthors can change its entities")
        return 4
    result: dict[str, Any]
    if args.action in ("confirm", "reject"):
        if not args.name:
            err(f"entity {args.action} needs --name")
            return 2
        source = candidate_sources(graph, args.project, viewer, args.name, args.kind)
        if source is None:
            err(f"no candidate called {args.name}")
            return 2
        if args.action == "reject":
            reject_candidate(graph, args.project, source, args.as_user)
            show({"name": source.name, "kind": source.kind, "status": "rejected"}, args.json)
            return 0
        entity = confirm_candidate(graph, args.project, source, args.as_user)
        result = {"name": entity.name, "kind": entity.kind, "status": "confirmed", "id": entity.id}
    elif args.action == "merge":
        if not args.into or not args.from_:
            err("entity merge needs --into NAME and --from NAME")
            return 2
        into = find_entity(graph, args.project, viewer, args.into, args.kind)
        merged = find_entity(graph, args.project, viewer, args.from_, args.kind or (into.kind if into else None))
        if into is None or merged is None:
            err(f"no such person, place or thing: {args.into if into is None else args.from_}")
            return 2
        try:
            done = merge_entities(graph, args.project, into, merged, viewer, args.as_user)
        except MergeRefused as exc:
            err(str(exc))
            return 2
        result = {
            "id": into.id,
            "kind": into.kind,
            "name": into.name,
            "merged": merged.name,
            "aliases_added": done.aliases,
        }
    else:
        if not args.name:
            err("entity unmerge needs --name (the entity merged away)")
            return 2
        undone = unmerge(graph, args.project, args.name, args.kind, viewer)
        if undone is None:
            err(f"no merge of {args.name} to undo")
            return 2
        result = {"id": undone["id"], "kind": undone["kind"], "name": undone["name"], "merged": undone["from"]}
    show({**result, "relink": relink_now(graph, args.project, settings)}, args.json)
    return 0
