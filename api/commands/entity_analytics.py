"""`memora entity with|timeline|top|changes`: the analytics of `/v1/projects/{p}/analytics/*`, counted over what
`--as USER` may see, with the API's JSON keys under --json; `timeline --plot FILE` draws the picture."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from api.commands.common import err, show

ACTIONS = ("with", "timeline", "top", "changes")


def run_analytics(graph: Any, args: argparse.Namespace) -> int:
    from api.date_range import BadRange, date_range
    from graph import analytics, timelines
    from graph.entities import find_visible_entity
    from graph.members import role_of
    from graph.visibility import Viewer

    if not args.as_user:
        err(f"entity {args.action} needs --as USER (counts cover what that user may see)")
        return 2
    if role_of(graph, args.project, args.as_user) is None:
        err("not a member of this project")
        return 4
    try:
        start, end = date_range(args.from_, args.to)
    except BadRange as exc:
        err(f"--{exc}")
        return 2
    viewer = Viewer(user_id=args.as_user)
    if args.action == "top":
        show(analytics.importance(graph, viewer, args.project, args.kind, args.limit), args.json)
        return 0
    if args.action == "changes":
        found = timelines.changes(graph, viewer, args.project, start, end, args.kind, args.factor, args.limit)
        show(
            {
                "from": start.isoformat() if start else None,
                "to": end.isoformat() if end else None,
                "story_end": found.story_end.isoformat() if found.story_end else None,
                "factor": args.factor,
                "appeared": found.appeared,
                "disappeared": found.disappeared,
            },
            args.json,
        )
        return 0
    entity = find_visible_entity(graph, args.project, viewer, args.name or "")
    if entity is None:
        err(f"no such person, place or thing: {args.name}")
        return 2
    ref = {"id": entity.id, "name": entity.name, "kind": entity.kind}
    if args.action == "with":
        show(
            {
                "entity": ref,
                "measure": args.measure,
                "with": analytics.co_occurrence(
                    graph, viewer, args.project, entity.id, args.limit, args.kind, args.measure, start, end, args.time
                ),
            },
            args.json,
        )
        return 0
    years = analytics.timeline(graph, viewer, args.project, entity.id, args.time)
    result: dict[str, Any] = {"entity": ref, "years": years}
    if args.resolution == "month":
        result["months"], result["vaguer"] = timelines.timeline_months(
            graph, viewer, args.project, entity.id, args.time
        )
    if args.plot:
        return _plot(entity.name, result, args.resolution, Path(args.plot), args.json)
    show(result, args.json)
    return 0


def _plot(name: str, timeline: dict[str, Any], resolution: str, path: Path, as_json: bool) -> int:
    """PNG unless the file name ends in .svg; the timeline is printed too, and where the picture went."""
    from api.timeline_plot import PlotUnavailable, draw_timeline

    try:
        picture = draw_timeline(
            name,
            timeline["years" if resolution == "year" else "months"],
            resolution,
            "svg" if path.suffix.lower() == ".svg" else "png",
        )
    except PlotUnavailable as exc:
        err(str(exc))
        return 3
    try:
        path.write_bytes(picture)
    except OSError as exc:
        err(f"cannot write {path}: {exc.strerror or exc}")
        return 2
    show({**timeline, "plot": str(path)}, as_json)
    return 0


def add_analytics_arguments(ent: argparse.ArgumentParser) -> None:
    """The options only the analytics actions read (`--to` is shared with rename: there a name, here a date;
    `--from` with merge: there a name, here a date)."""
    ent.add_argument(
        "--measure",
        choices=["jaccard", "pmi", "count"],
        default="jaccard",
        help="with: rank companions by jaccard (default), pmi or count (docs/entities.md)",
    )
    ent.add_argument(
        "--from",
        dest="from_",
        help="with/changes: from this date (YYYY, YYYY-MM or YYYY-MM-DD); merge: the entity merged into --into",
    )
    ent.add_argument("--resolution", choices=["year", "month"], default="year", help="timeline: per year or month")
    ent.add_argument(
        "--time",
        choices=["event", "written"],
        default="event",
        help="timeline and with --from/--to: mentions placed by the times told where the entity is named (event) "
        "or by entry dates",
    )
    ent.add_argument(
        "--plot",
        metavar="FILE",
        help="timeline: also draw it to FILE (.png, or .svg); needs the 'plot' extra (matplotlib)",
    )
    ent.add_argument(
        "--factor", type=float, default=4.0, help="changes: how many mean gaps of silence make a disappearance (4)"
    )
