"""When someone is in the story: an entity's visible entries per month, and who appeared or disappeared in a period.

Every figure is an aggregate over entries the viewer may see (`can_see_in_project` inside the statement: `CAN_SEE`
with the viewer resolved once); the Python code only classifies those aggregates, so an entry hidden from the viewer
moves none of them. Dates are start dates ("2008" starts on 2008-01-01), as the year timeline uses: the months of a
timeline place a mention by the clock asked for (`MENTION_WHEN`: the times told where the entity is named, or the
entry's date); who appeared or disappeared is read from entry dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from graph.analytics import ENTITY_BY_ID, IN_RANGE, MENTION_WHEN, check_clock
from graph.db import Graph
from graph.entities import declared_name
from graph.visibility import CAN_SEE_IN_PROJECT, VIEWER_IN_PROJECT, Viewer, visibility_params

# A month row counts the entries whose time (`MENTION_WHEN`: told or written) lies within that month (a day or the
# month itself); a vaguer time (a year, a season, a longer range) cannot be placed on one month and counts in `vaguer`
# (it stays in `years`).
TIMELINE_MONTHS = f"""
{VIEWER_IN_PROJECT}
{ENTITY_BY_ID}
MATCH (e:Entry)-[m:MENTIONS]->(x)
WHERE e.project_id = $project_id AND {CAN_SEE_IN_PROJECT}
UNWIND {MENTION_WHEN} AS span
WITH e, m, span, (span[0].year = span[1].year AND span[0].month = span[1].month) AS placed
WITH DISTINCT e, m, CASE WHEN placed THEN span[0].year END AS year, CASE WHEN placed THEN span[0].month END AS month
RETURN year, month, count(e) AS entries, sum(m.count) AS mentions
ORDER BY year, month
"""

# One pass over the visible entries (each judged once): the story's end (the latest dated one) and, per entity they
# name, its dated entries (how many, first and last start dates, how many overlap the period) and the smallest name
# its mentions give (the viewer's name for it unless a declaration they may see names it: `declared_name`).
CHANGES = f"""
{VIEWER_IN_PROJECT}
MATCH (e:Entry) WHERE e.project_id = $project_id AND {CAN_SEE_IN_PROJECT}
WITH collect(e) AS visible, max(e.occurred_start) AS story_end
UNWIND visible AS e
MATCH (e)-[m:MENTIONS]->(x) WHERE $kind IS NULL OR x.kind = $kind
WITH story_end, x, min(m.name) AS mention_name, min(e.occurred_start) AS first, max(e.occurred_start) AS last,
     count(DISTINCT CASE WHEN e.occurred_start IS NOT NULL THEN e END) AS entries,
     count(DISTINCT CASE WHEN e.occurred_start IS NOT NULL AND {IN_RANGE.format(v="e")} THEN e END) AS in_period
WHERE entries > 0
WITH story_end, x, mention_name, entries, first, last, in_period,
     ($date_from IS NULL OR first >= $date_from) AND ($date_to IS NULL OR first <= $date_to) AS appeared,
     entries >= $min_entries AND ($date_from IS NULL OR last >= $date_from) AND ($date_to IS NULL OR last <= $date_to)
       AND duration.inDays(last, story_end).days >= $factor * $min_gap_days AS may_have_gone
WHERE appeared OR may_have_gone
RETURN x.id AS id, {declared_name("x", "mention_name")} AS name, x.kind AS kind, entries, in_period, first, last,
       story_end, appeared
"""

MIN_ENTRIES = 3
"""Density needs at least two gaps: fewer visible dated entries never make a disappearance."""
MIN_GAP_DAYS = 30
"""The mean gap counts as at least a month, so three mentions in one week do not make every later week a silence."""
DEFAULT_FACTOR = 4.0


def timeline_months(
    graph: Graph, viewer: Viewer, project_id: str, entity_id: str, time: str = "event"
) -> tuple[list[dict[str, Any]], int]:
    """Visible entries per month (`YYYY-MM`, months without any left out, like years) and how many dated entries
    were too vague to place on a month, by `time` (`event` or `written`)."""
    check_clock(time)
    params = {"project_id": project_id, "entity_id": entity_id, "time": time, **visibility_params(viewer)}
    rows = graph.read(TIMELINE_MONTHS, params)
    months = [
        {"month": f"{r['year']:04d}-{r['month']:02d}", "entries": r["entries"], "mentions": r["mentions"]}
        for r in rows
        if r["year"] is not None
    ]
    return months, sum(r["entries"] for r in rows if r["year"] is None)


@dataclass(frozen=True)
class Changes:
    story_end: date | None
    appeared: list[dict[str, Any]]
    disappeared: list[dict[str, Any]]


def changes(
    graph: Graph,
    viewer: Viewer,
    project_id: str,
    date_from: date | None = None,
    date_to: date | None = None,
    kind: str | None = None,
    factor: float = DEFAULT_FACTOR,
    limit: int = 10,
) -> Changes:
    """Who came into the story in [from, to] (first visible mention in it) and who left it (last visible mention in
    it, then a silence of at least `factor` times their usual gap until the story's end; docs/entities.md, "Entity
    questions"). Each list: most entries first, at most `limit`."""
    rows = graph.read(
        CHANGES,
        {
            "project_id": project_id,
            "date_from": date_from,
            "date_to": date_to,
            "kind": kind,
            "factor": factor,
            "min_entries": MIN_ENTRIES,
            "min_gap_days": MIN_GAP_DAYS,
            **visibility_params(viewer),
        },
    )
    story_end = rows[0]["story_end"].to_native() if rows else None
    appeared, gone = [], []
    for r in rows:
        first, last = r["first"].to_native(), r["last"].to_native()
        ref = {
            "id": r["id"],
            "name": r["name"],
            "kind": r["kind"],
            "first": first.isoformat(),
            "last": last.isoformat(),
        }
        if r["appeared"]:
            appeared.append({**ref, "entries": r["in_period"]})
        gap = (last - first).days / (r["entries"] - 1) if r["entries"] > 1 else 0.0
        silence = (story_end - last).days if story_end else 0
        if r["entries"] >= MIN_ENTRIES and silence >= factor * max(gap, MIN_GAP_DAYS) and _in(last, date_from, date_to):
            gone.append({**ref, "entries": r["entries"], "mean_gap_days": round(gap, 1), "silent_days": silence})
    appeared.sort(key=lambda a: (-a["entries"], a["first"], a["name"], a["id"]))
    gone.sort(key=lambda g: (-g["entries"], g["last"], g["name"], g["id"]))
    return Changes(story_end, appeared[:limit], gone[:limit])


def _in(day: date, start: date | None, end: date | None) -> bool:
    return (start is None or day >= start) and (end is None or day <= end)
