"""`memora entity similar` ("similar to X", as `--as USER` may see it) and `memora entity refresh` (rebuild the
entity vectors whose entries changed, now), dispatched from `memora entity`."""

from __future__ import annotations

import argparse

from api.commands.common import connect, err, show
from graph.settings import Settings

ACTIONS = ("similar", "refresh")


def cmd_entity_vectors(args: argparse.Namespace, settings: Settings) -> int:
    from graph.entity_vectors import refresh_all, refresh_project
    from graph.members import role_of
    from graph.visibility import Viewer
    from ingest.embedding_jobs import current_state
    from queries.entities.similar import find_target, similar

    graph = connect(settings)
    slug = current_state(graph, settings).active_slug
    if args.action == "refresh":
        stats = refresh_all(graph, slug, args.project, force=args.force)
        show(
            [
                {"project": s.project_id, "entities": s.targets, "rebuilt": s.rebuilt, "vectors": s.variants}
                for s in stats
            ],
            args.json,
        )
        return 0
    if not args.project or not args.as_user or not args.name:
        err("entity similar needs --project, --name and --as USER (vectors cover what that user may see)")
        return 2
    if role_of(graph, args.project, args.as_user) is None:
        err("not a member of this project")
        return 4
    refresh_project(graph, args.project, slug)  # what changed since the last refresh; nothing when nothing did
    viewer = Viewer(user_id=args.as_user)
    target = find_target(graph, viewer, args.project, args.name, slug)
    if target is None:
        err(f"no such person, place, thing or chapter: {args.name}")
        return 2
    found = similar(graph, viewer, args.project, target[0], slug, args.kind or target[2], args.limit)
    show([{"id": s.id, "name": s.name, "kind": s.kind, "score": s.score} for s in found], args.json)
    return 0
