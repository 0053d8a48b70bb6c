"""Expensive reads: what costs far more than one row (entity analytics, summaries, chapters, listings), one from
the caller's read budget, as one call of the API's read routes (`api.deps.ReadBudget`) costs. The web's timeline,
people, entity and chapter pages, the witness page's listing, and the MCP `entity_question` and `summary` tools and
resources read through here."""

from __future__ import annotations

import calendar
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from api.actions import entities
from api.actions.budgets import Budgets, Who
from api.actions.entries import entry_out, project_entries
from api.actions.roles import WRITERS, must_be_member
from api.models.core import EntityOut, EntryListOut, EntryOut, ImportanceOut
from api.models.entity_review import CandidateOut
from api.ratelimit import Budget
from api.services import Services
from graph.members import role_of
from graph.summaries import visible_periods
from graph.witnesses import Grant
from queries.entry_histogram import entry_histogram
from queries.listing import EntryFilters, list_entries

BUDGET: Budget = "read"
R = TypeVar("R")


def paid_read(budgets: Budgets, who: Who, look: Callable[[], R]) -> R:
    """One expensive read that assembles the API's read routes (a page, a tool): the cost of one of them, paid
    before `look` reads its input or the graph."""
    budgets.spend(BUDGET, who.key)
    return look()


@dataclass(frozen=True)
class TimelineAsked:
    """A project's timeline, and the entries of one year (or one month of it), a page of `limit` at a time."""

    project_id: str
    year: int | None = None
    month: int | None = None
    cursor: str | None = None
    limit: int = 50


@dataclass(frozen=True)
class Timeline:
    bars: list[Any]
    listing: EntryListOut | None
    declared: list[dict[str, Any]]


def timeline(svc: Services, budgets: Budgets, who: Who, asked: TimelineAsked) -> Timeline:
    """The visible entries counted by month, the chosen period's entries, and the declared chapters."""
    budgets.spend(BUDGET, who.key)
    a, viewer = asked, who.viewer
    must_be_member(svc, a.project_id, viewer)
    bars = entry_histogram(svc.graph, viewer, a.project_id)
    listing = None
    if a.year is not None:
        start = date(a.year, a.month or 1, 1)
        end = date(a.year, a.month or 12, calendar.monthrange(a.year, a.month or 12)[1])
        days = EntryFilters(date_from=start, date_to=end)
        listing = project_entries(svc, viewer, a.project_id, days, sort="asc", limit=a.limit, cursor=a.cursor)
    periods = visible_periods(svc.graph, a.project_id, viewer)
    return Timeline(bars, listing, [p for p in periods if not p["automatic"]])


@dataclass(frozen=True)
class People:
    important: list[ImportanceOut]
    known: list[EntityOut]
    candidates: list[CandidateOut]
    """For writers only: the names recognition found, to review."""
    role: str | None
    """The viewer's role, read once for the page's own parts."""


def people(svc: Services, budgets: Budgets, who: Who, project_id: str, most: int, review: int) -> People:
    """The entities the viewer knows, the `most` important first, and `review` candidates for a writer."""
    budgets.spend(BUDGET, who.key)
    viewer = who.viewer
    must_be_member(svc, project_id, viewer)
    important = entities.most_important(svc, viewer, project_id, limit=most)
    known = entities.known(svc, viewer, project_id)
    role = role_of(svc.graph, project_id, viewer.user_id or "")
    candidates = entities.candidates(svc, viewer, project_id, limit=review) if role in WRITERS else []
    return People(important, known, candidates, role)


def chapter_entries(svc: Services, budgets: Budgets, grant: Grant, limit: int) -> list[EntryOut]:
    """A witness link's chapter, oldest first: its predicate keeps to the chapter, so no filter is needed (and none
    could widen it)."""
    who = Who.witness(grant)
    budgets.spend(BUDGET, who.key)
    rows = list_entries(svc.graph, who.viewer, grant.project_id, EntryFilters(), sort="asc", limit=limit).rows
    return [entry_out(r) for r in rows]
