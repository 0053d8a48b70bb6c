"""A project's home, as a family album opens (the web's project page before a question): the project's name, what
is new and what happened on this day in past years, each read by one statement that applies the viewer's visibility
(`queries/album.py`). Paid as one expensive read, after which membership is checked as every member's read is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from api.actions.budgets import Budgets, Who
from api.actions.projects import memberships
from api.actions.read import BUDGET
from api.actions.roles import must_be_member
from api.services import Services
from graph.visibility import Viewer
from ingest.pipeline import WITNESS_AUTHOR_PREFIX
from queries.album import Shown, latest_entries, on_days, week_of

LATEST = 5
ON_THIS_DAY = 10


@dataclass(frozen=True)
class Home:
    """`week` is the week looked at when nothing the viewer may see fell on `today` itself (else None)."""

    name: str
    today: date
    latest: list[Shown]
    on_this_day: list[Shown]
    week: list[date] | None


def project_home(svc: Services, budgets: Budgets, who: Who, project_id: str, today: date) -> Home:
    """The home of `project_id` for a member: its name, the latest entries, and the day's (or, when the day has
    none, the week's) entries of past years."""
    budgets.spend(BUDGET, who.key)
    viewer = who.viewer
    must_be_member(svc, project_id, viewer)
    name = project_name(svc, viewer, project_id)
    latest = latest_entries(svc.graph, viewer, project_id, WITNESS_AUTHOR_PREFIX, LATEST)
    day = on_days(svc.graph, viewer, project_id, WITNESS_AUTHOR_PREFIX, [today], today.year, ON_THIS_DAY)
    if day:
        return Home(name, today, latest, day, None)
    week = week_of(today)
    in_week = on_days(svc.graph, viewer, project_id, WITNESS_AUTHOR_PREFIX, week, today.year, ON_THIS_DAY)
    return Home(name, today, latest, in_week, week)


def project_name(svc: Services, viewer: Viewer, project_id: str) -> str:
    """The project's name as its member sees it in their projects; its id when it has none."""
    return next((p.name for p in memberships(svc, viewer) if p.project_id == project_id and p.name), project_id)
