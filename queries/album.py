"""The two reads of a project's home page: what is new (the latest entries written that the viewer may see) and on
this day (the entries the viewer may see dated, to the day, on given month-days of past years). Each is one
statement with the visibility predicate inside, ordered and limited after it, so an entry hidden from the viewer
never takes a place in either list: adding or deleting one changes nothing the viewer's page shows.

A witness's account is shown under the name its link was given (the grant's `label`), read in the same statement
for a visible account only; without one, under no name (the page says "a witness")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from graph.db import Graph
from graph.visibility import CAN_SEE_IN_PROJECT, VIEWER_IN_PROJECT, Viewer, visibility_params

EXCERPT_CHARS = 300
_SHOWN = f"""
RETURN e.id AS entry_id, e.title AS title, left(coalesce(e.body, ''), {EXCERPT_CHARS}) AS text,
       e.author_id AS author_id, e.kind = 'witness' AS by_witness, e.occurred_on AS occurred_on,
       toString(e.occurred_start) AS start, toString(e.occurred_end) AS end,
       CASE WHEN e.kind = 'witness' AND e.author_id STARTS WITH $witness_prefix
            THEN head(COLLECT {{ MATCH (g:WitnessGrant {{id: substring(e.author_id, size($witness_prefix)),
                                                         project_id: e.project_id}})
                                 RETURN g.label }}) END AS witness_name
"""
LATEST_ENTRIES = f"""{VIEWER_IN_PROJECT}
MATCH (e:Entry {{project_id: $project_id}})
WHERE {CAN_SEE_IN_PROJECT}
WITH e ORDER BY e.created_at DESC, e.id DESC LIMIT $limit
{_SHOWN}
ORDER BY e.created_at DESC, e.id DESC
"""
# A day's date only (start = end): an entry dated to a month, a season or a year has no day to fall on.
ON_THIS_DAY = f"""{VIEWER_IN_PROJECT}
MATCH (e:Entry {{project_id: $project_id}})
WHERE e.occurred_start IS NOT NULL AND e.occurred_start = e.occurred_end AND e.occurred_start.year < $year
  AND e.occurred_start.month * 100 + e.occurred_start.day IN $days
  AND {CAN_SEE_IN_PROJECT}
WITH e ORDER BY e.occurred_start DESC, e.id LIMIT $limit
{_SHOWN}
ORDER BY e.occurred_start DESC, e.id
"""


@dataclass(frozen=True)
class Shown:
    """One entry as the home page lists it: enough to name it and open it."""

    entry_id: str
    title: str | None
    text: str
    author_id: str | None
    by_witness: bool
    witness_name: str | None
    occurred_on: str | None
    start: str | None
    end: str | None


def _rows(graph: Graph, statement: str, params: dict[str, object], viewer: Viewer) -> list[Shown]:
    rows = graph.read(statement, {**params, **visibility_params(viewer)})
    return [Shown(**dict(r)) for r in rows]


def latest_entries(graph: Graph, viewer: Viewer, project_id: str, witness_prefix: str, limit: int = 5) -> list[Shown]:
    """The `limit` entries last written that the viewer may see, newest first (the caller checks membership).
    `witness_prefix` starts the author of a witness's account (ingest's), followed by its grant's id."""
    params = {"project_id": project_id, "limit": limit, "witness_prefix": witness_prefix}
    return _rows(graph, LATEST_ENTRIES, params, viewer)


def month_days(days: list[date]) -> list[int]:
    """Month-days as the statement compares them (`month * 100 + day`)."""
    return sorted({d.month * 100 + d.day for d in days})


def week_of(today: date) -> list[date]:
    """Monday to Sunday of the week `today` falls in."""
    monday = today - timedelta(days=today.weekday())
    return [monday + timedelta(days=n) for n in range(7)]


def on_days(
    graph: Graph, viewer: Viewer, project_id: str, witness_prefix: str, days: list[date], year: int, limit: int = 10
) -> list[Shown]:
    """The entries the viewer may see dated to the day on one of `days`' month-days in a year before `year`, the
    most recent first (the caller checks membership)."""
    params = {
        "project_id": project_id,
        "days": month_days(days),
        "year": year,
        "limit": limit,
        "witness_prefix": witness_prefix,
    }
    return _rows(graph, ON_THIS_DAY, params, viewer)
