"""Entity questions: who appears with whom, when someone appears, who matters most.

Every count is taken over entries the viewer may see (the `can_see_in_project` predicate inside the statement,
`CAN_SEE` with the viewer resolved once), so an aggregate never reveals that a hidden entry exists.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from graph import analytics_cache
from graph.clocks import told_within
from graph.db import Graph
from graph.entities import declared_name
from graph.visibility import CAN_SEE_IN_PROJECT, VIEWER_IN_PROJECT, Viewer, visibility_params

# An entry in the date range: its (vague) date range overlaps [$date_from, $date_to], like the entries listing.
IN_RANGE = """(($date_from IS NULL OR {v}.occurred_end >= $date_from)
  AND ($date_to IS NULL OR {v}.occurred_start <= $date_to))"""

MEASURES = ("jaccard", "pmi", "count")
CLOCKS = ("event", "written")

# When an entry's mention `m` of an entity happened, as [start, end] spans, by the clock `$time` asks for: under
# `event`, the times told in the sentences that name it (ingest/event_times.mention_times) where there are any, else
# the entry's date; under `written`, the entry's date. An undated entry that tells nothing has none.
MENTION_WHEN = """CASE WHEN $time = 'event' AND m.told_starts IS NOT NULL
  THEN [i IN range(0, size(m.told_starts) - 1) | [m.told_starts[i], m.told_ends[i]]]
  WHEN e.occurred_start IS NULL THEN [] ELSE [[e.occurred_start, e.occurred_end]] END"""
# A mention `{m}` in the date range by that clock (`{written_in}`: its entry's date overlaps the range): a told time
# lies within the range, as a question's date is met by one (a wide, vague time is not in a year it overlaps), else
# the entry's date overlaps it. Without a range every mention is in it.
MENTION_IN_RANGE = f"""CASE WHEN $date_from IS NULL AND $date_to IS NULL THEN true
  WHEN $time = 'event' AND {{m}}.told_starts IS NOT NULL THEN {told_within("{m}", "date_from", "date_to")}
  ELSE {{written_in}} END"""
# An entry in the range by either clock (PMI's N): its date overlaps it or, under `event`, a time it tells lies within.
ENTRY_IN_RANGE = f"""({{written_in}} OR ($time = 'event' AND {told_within("e", "date_from", "date_to")}))"""

# The entity found by its id through the unique index of its label (entries mention persons, places and things).
ENTITY_BY_ID = """CALL () {
  MATCH (x:Person {id: $entity_id}) RETURN x
  UNION MATCH (x:Place {id: $entity_id}) RETURN x
  UNION MATCH (x:Thing {id: $entity_id}) RETURN x
}"""

# Scores: `count` = shared entries; `jaccard` = shared / entries naming either; `pmi` = log2(N · shared / (n_x · n_y))
# with N the viewer's visible entries in the range. Every n is a count over visible entries in the range, and does not
# depend on the entity asked about: `ENTITY_COUNTS` takes them all in one pass over the visible entries (with each
# entity's name, the smallest name the viewer's entries, in the range or not, mention it by, as `display_name` reads
# it), kept per viewer by graph/analytics_cache.py; `CO_OCCURRENCE` then only reads the entries naming the entity.
# Both resolve the viewer once (`can_see_in_project`): `CAN_SEE` looked their membership up for every entry.
ENTITY_COUNTS = f"""
{VIEWER_IN_PROJECT}
MATCH (e:Entry) WHERE e.project_id = $project_id AND {CAN_SEE_IN_PROJECT}
WITH e, {IN_RANGE.format(v="e")} AS written_in
WITH collect([e, written_in]) AS visible,
     count(CASE WHEN {ENTRY_IN_RANGE.format(written_in="written_in")} THEN 1 END) AS total
UNWIND visible AS seen
WITH total, seen[0] AS e, seen[1] AS written_in
OPTIONAL MATCH (e)-[m:MENTIONS]->(y)
WITH total, y, min(m.name) AS name,
     count(DISTINCT CASE WHEN {MENTION_IN_RANGE.format(m="m", written_in="written_in")} THEN e END) AS entries
RETURN total, collect(CASE WHEN y IS NOT NULL THEN [y.id, entries, name] END) AS entities
"""

CO_OCCURRENCE = f"""
{VIEWER_IN_PROJECT}
{ENTITY_BY_ID}
MATCH (e:Entry)-[mx:MENTIONS]->(x)
WHERE e.project_id = $project_id AND {CAN_SEE_IN_PROJECT}
WITH e, mx, {IN_RANGE.format(v="e")} AS written_in
WHERE {MENTION_IN_RANGE.format(m="mx", written_in="written_in")}
WITH DISTINCT e, written_in
MATCH (e)-[m:MENTIONS]->(y) WHERE y.id <> $entity_id AND {MENTION_IN_RANGE.format(m="m", written_in="written_in")}
WITH y, e, CASE WHEN $time = 'event' THEN m.told_starts END AS told, m
WITH y, e, CASE WHEN told IS NULL THEN e.occurred_start ELSE told[0] END AS first_at,
     CASE WHEN told IS NULL THEN e.occurred_end
          ELSE reduce(hi = m.told_ends[0], d IN m.told_ends | CASE WHEN d > hi THEN d ELSE hi END) END AS last_at
WITH y, count(DISTINCT e) AS together, min(first_at) AS first, max(last_at) AS last
WITH y, together, first, last, $counts[y.id][0] AS n_y, $counts[y.id][1] AS mention_name,
     $counts[$entity_id][0] AS n_x, $total AS total
WHERE $kind IS NULL OR y.kind = $kind
WITH y, mention_name, together, first, last, n_y, CASE $measure
  WHEN 'count' THEN toFloat(together)
  WHEN 'jaccard' THEN round(toFloat(together) / (n_x + n_y - together), 6)
  ELSE round(log(toFloat(total) * together / (toFloat(n_x) * n_y)) / log(2.0), 6) END AS score
ORDER BY score DESC, together DESC, y.id
LIMIT $limit
RETURN y.id AS id, {declared_name("y", "mention_name")} AS name, y.kind AS kind, together, n_y AS entries, score,
       toString(first) AS first, toString(last) AS last
ORDER BY score DESC, together DESC, name
"""

TIMELINE = f"""
{VIEWER_IN_PROJECT}
{ENTITY_BY_ID}
MATCH (e:Entry)-[m:MENTIONS]->(x)
WHERE e.project_id = $project_id AND {CAN_SEE_IN_PROJECT}
UNWIND {MENTION_WHEN} AS span
WITH DISTINCT e, m, span[0].year AS year
RETURN year, count(e) AS entries, sum(m.count) AS mentions
ORDER BY year
"""

# Each visible entry's declared chapters are read once (not once per entity it names; an automatic chapter, a month,
# would count the dates twice with `years`); an entry without one still counts, as one row with a null chapter, and
# one in two chapters twice.
IMPORTANCE = f"""
{VIEWER_IN_PROJECT}
MATCH (e:Entry) WHERE e.project_id = $project_id AND {CAN_SEE_IN_PROJECT}
WITH e, COLLECT {{ MATCH (e)-[:IN_PERIOD]->(per:Period) WHERE per.automatic IS NULL RETURN per }} AS chapters
MATCH (e)-[m:MENTIONS]->(x) WHERE $kind IS NULL OR x.kind = $kind
UNWIND CASE WHEN chapters = [] THEN [null] ELSE chapters END AS per
WITH x, count(DISTINCT e) AS entries, sum(m.count) AS mentions, count(DISTINCT per) AS periods,
     count(DISTINCT e.occurred_start.year) AS years, min(m.name) AS mention_name
WITH x, mention_name, entries, mentions, periods, years, entries * (1 + periods + years) AS importance
ORDER BY importance DESC, x.id
LIMIT $limit
RETURN x.id AS id, {declared_name("x", "mention_name")} AS name, x.kind AS kind, entries, mentions, periods, years,
       importance
ORDER BY importance DESC, name
LIMIT $limit
"""


def check_clock(time: str) -> None:
    """A clock the statements know (`MENTION_WHEN`), or a ValueError naming them."""
    if time not in CLOCKS:
        raise ValueError(f"time must be one of {', '.join(CLOCKS)}")


def co_occurrence(
    graph: Graph,
    viewer: Viewer,
    project_id: str,
    entity_id: str,
    limit: int = 10,
    kind: str | None = None,
    measure: str = "jaccard",
    date_from: date | None = None,
    date_to: date | None = None,
    time: str = "event",
) -> list[dict[str, Any]]:
    """Companions of an entity (of one kind, when given), best `measure` first, over visible entries whose mentions
    of both lie in the range by the clock `time` (`MENTION_IN_RANGE`; any entry, dated or not, without one): "who was
    with Pep in 2008" counts "en 2008 Pep y Marta vivían en Berlín" written in 2020, not the "hoy" sentence beside
    it. Jaccard by default: raw counts favour whoever is everywhere, PMI favours whoever appears once
    (docs/entities.md, "Entity questions")."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}")
    check_clock(time)

    def compute() -> list[dict[str, Any]]:
        total, counts = entity_counts(graph, viewer, project_id, date_from, date_to, time)
        if entity_id not in counts:
            return []  # no visible entry in the range names it: no companion either
        return [
            dict(r)
            for r in graph.read(
                CO_OCCURRENCE,
                {
                    "project_id": project_id,
                    "entity_id": entity_id,
                    "limit": limit,
                    "kind": kind,
                    "measure": measure,
                    "date_from": date_from,
                    "date_to": date_to,
                    "total": total,
                    "counts": counts,
                    "time": time,
                    **visibility_params(viewer),
                },
            )
        ]

    return analytics_cache.cached(
        graph,
        viewer,
        project_id,
        "co_occurrence",
        {
            "entity": entity_id,
            "limit": limit,
            "kind": kind,
            "measure": measure,
            "from": date_from,
            "to": date_to,
            "time": time,
        },
        compute,
    )


def entity_counts(
    graph: Graph,
    viewer: Viewer,
    project_id: str,
    date_from: date | None = None,
    date_to: date | None = None,
    time: str = "event",
) -> tuple[int, dict[str, list[Any]]]:
    """How many visible entries are in the range (`ENTRY_IN_RANGE`), and per entity they name, `[entries naming it
    in the range (MENTION_IN_RANGE), name]` (the name over every visible entry); reused until a write the viewer may
    see (graph/analytics_cache.py)."""

    def compute() -> tuple[int, dict[str, list[Any]]]:
        params = {"project_id": project_id, "date_from": date_from, "date_to": date_to, "time": time}
        rows = graph.read(ENTITY_COUNTS, {**params, **visibility_params(viewer)})
        if not rows:
            return 0, {}
        return int(rows[0]["total"]), {i: [n, name] for i, n, name in rows[0]["entities"]}

    return analytics_cache.cached(
        graph, viewer, project_id, "entity_counts", {"from": date_from, "to": date_to, "time": time}, compute
    )


def timeline(
    graph: Graph, viewer: Viewer, project_id: str, entity_id: str, time: str = "event"
) -> list[dict[str, Any]]:
    """Entries per year; a year that is missing between two present ones is a gap ("when did Marta disappear?").
    By `time` (`MENTION_WHEN`): an entry telling of two years when it names the entity counts in both."""
    check_clock(time)
    params = {"project_id": project_id, "entity_id": entity_id, "time": time, **visibility_params(viewer)}
    return analytics_cache.cached(
        graph,
        viewer,
        project_id,
        "timeline",
        {"entity": entity_id, "time": time},
        lambda: [dict(r) for r in graph.read(TIMELINE, params)],
    )


def importance(
    graph: Graph, viewer: Viewer, project_id: str, kind: str | None = None, limit: int = 10
) -> list[dict[str, Any]]:
    """Mentions weighted by how many chapters and years they span: a person of every era outranks a burst."""
    return analytics_cache.cached(
        graph,
        viewer,
        project_id,
        "importance",
        {"kind": kind, "limit": limit},
        lambda: [
            dict(r)
            for r in graph.read(
                IMPORTANCE, {"project_id": project_id, "kind": kind, "limit": limit, **visibility_params(viewer)}
            )
        ],
    )
