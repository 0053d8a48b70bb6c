"""Summary nodes: one per (scope, audience), where a scope is a project (level 2) or one of its periods (level 1).

An audience is `base` ('circle': circle and public entries; 'inner': those and every intimate entry) plus, optionally,
one `owner` whose own entries outside the base join it. `ADMITS` is the audience as a predicate over an entry `e`
and a summary `s`; a variant is built only from the entries its audience admits, and it is served only through
`SERVE`, which also checks with `CAN_SEE` that the viewer may see every entry that fed it. So a reader never gets a
variant with an intimate fact, even after a role change nobody told the summaries about.

Staleness is per variant: a write marks stale only the variants that admitted the entry before or admit it after
(`MARK_STALE`), so a change to an entry hidden from a viewer never changes what that viewer is served.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from neo4j import ManagedTransaction

from graph.db import Graph
from graph.entities import declared_name
from graph.ids import sha256
from graph.members import role_of
from graph.periods import PERIOD_NAME
from graph.visibility import CAN_SEE, Viewer, can_see, mention_seen, visibility_params

EXTRACTIVE = "extractive"
"""The producer of a summary built without a model."""

FORM = 6
"""The form summaries are built in (6: a list of events citing their entries, with each line's rank and date, so a
reader short of room keeps the most telling lines; the lines are pieces of sentences cut at their clause breaks,
chosen for acts narrated by who lived them, dated and ordered by when they happened, with the day they were told
where that is apart, said in the entry's language). A variant stored in another form is built again when asked for
or refreshed, as a stale one is, so an upgrade never serves the old form."""

AUDIENCE_BASES = ("circle", "inner")

ADMITS = """(e.intimacy IN ['circle', 'public'] OR (s.base = 'inner' AND e.intimacy = 'intimate')
     OR (s.owner IS NOT NULL AND e.author_id = s.owner))"""
_ADMITS_PARAMS = ADMITS.replace("s.base", "$base").replace("s.owner", "$owner")
IN_PERIOD = "EXISTS { MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: %s}) }"

# Run in the write's own transaction, before (old state: what fed each variant) and after (new state) the write.
MARK_STALE = f"""
UNWIND $ids AS id
MATCH (e:Entry {{id: id}})
CALL {{
  WITH e
  MATCH (s:Summary)-[:FED_BY]->(e)
  RETURN s
  UNION
  WITH e
  MATCH (s:Summary {{project_id: e.project_id}})
  WHERE (s.scope = 'project' OR {IN_PERIOD % "s.period_id"}) AND {ADMITS}
  RETURN s
}}
WITH DISTINCT s
SET s.stale = true, s.dirty = coalesce(s.dirty, 0) + 1
"""

# The entries of a scope: a period's (and its sub-periods') are read from the period, so a period's statements cost
# its own entries, not the whole project's.
_IN_PROJECT = "MATCH (e:Entry {project_id: $project_id})"
_IN_PERIOD_OF = """MATCH (:Period {{id: {period}}})<-[:PART_OF*0..5]-(:Period)<-[:IN_PERIOD]-(scoped:Entry)
WHERE scoped.project_id = $project_id
WITH DISTINCT scoped AS e"""
_IN_PERIOD_SCOPE = _IN_PERIOD_OF.format(period="$period_id")

_SCOPE_ENTRIES = f"""
{{scope}}
WITH e WHERE {_ADMITS_PARAMS}
OPTIONAL MATCH (e)-[m:MENTIONS]->(x)
WITH e, collect(DISTINCT {{{{kind: x.kind, name: m.name}}}}) AS xs
RETURN e.id AS id, e.body AS text, e.title AS title, coalesce(e.occurred_on, toString(e.occurred_start)) AS occurred_on,
       e.author_id AS author_id, coalesce(e.tags, []) AS tags,
       [x IN xs WHERE x.kind = 'person' | x.name] AS persons, [x IN xs WHERE x.kind = 'place' | x.name] AS places,
       COLLECT {{{{ MATCH (e)-[:IN_PERIOD]->(per:Period) RETURN per.id }}}}[0] AS period_id
ORDER BY e.occurred_start, e.occurred_at, e.thread_pos, e.id
"""
SCOPE_ENTRIES = _SCOPE_ENTRIES.format(scope=_IN_PROJECT)
PERIOD_SCOPE_ENTRIES = _SCOPE_ENTRIES.format(scope=_IN_PERIOD_SCOPE)

# Does the viewer have entries of their own in the scope that the base audience does not admit?
_HAS_OWN = f"""
{{scope}}
WITH e WHERE e.author_id = $owner AND NOT {_ADMITS_PARAMS.replace("$owner", "null")}
RETURN count(e) > 0 AS own
"""
HAS_OWN = _HAS_OWN.format(scope=_IN_PROJECT)
PERIOD_HAS_OWN = _HAS_OWN.format(scope=_IN_PERIOD_SCOPE)
# The same question for many periods in one read (a chapter's theme is matched against every period's summary).
PERIODS_HAS_OWN = f"""
UNWIND $period_ids AS period_id
CALL (period_id) {{{_HAS_OWN.format(scope=_IN_PERIOD_OF.format(period="period_id"))}}}
RETURN period_id, own
"""

# Stale again at once when a write marked it while it was being built (`dirty` moved) or an entry it read is gone.
UPSERT = """
MERGE (s:Summary {id: $id})
WITH s, coalesce(s.dirty, 0) AS dirty_now
SET s += $props, s.generated_at = datetime()
WITH s, dirty_now
OPTIONAL MATCH (s)-[old:FED_BY|SUMMARISES]->()
DELETE old
WITH DISTINCT s, dirty_now
CALL {
  WITH s
  OPTIONAL MATCH (per:Period {id: $period_id})
  OPTIONAL MATCH (p:Project {id: $project_id})
  WITH s, CASE WHEN $period_id IS NULL THEN p ELSE per END AS target
  FOREACH (_ IN CASE WHEN target IS NULL THEN [] ELSE [1] END | MERGE (s)-[:SUMMARISES]->(target))
}
CALL {
  WITH s
  UNWIND $entry_ids AS eid
  MATCH (e:Entry {id: eid})
  MERGE (s)-[:FED_BY]->(e)
  RETURN count(*) AS fed
}
SET s.stale = dirty_now <> $dirty OR fed < size($entry_ids)
RETURN s.stale AS stale
"""

DIRTY = "OPTIONAL MATCH (s:Summary {id: $id}) RETURN coalesce(s.dirty, 0) AS dirty"

SET_VECTOR = """
MATCH (s:Summary {id: $id})
SET s.embedding = $vector, s.embedding_model = $model
"""

# The variant, only when the viewer may see every entry that fed it (the predicate, not a filter afterwards).
_SERVED = f"""
WHERE NOT EXISTS {{ MATCH (s)-[:FED_BY]->(e:Entry) WHERE NOT {CAN_SEE} }}
RETURN s {{.id, .scope, .level, .period_id, .audience, .text, .producer, .fallback_reason, .stale, .entry_count,
          .words, cites: coalesce(s.cites, []), ranks: coalesce(s.ranks, []), dates: coalesce(s.dates, []),
          form: coalesce(s.form, 1), generated_at: toString(s.generated_at)}}
       AS summary
"""
SERVE = "MATCH (s:Summary {id: $id})" + _SERVED
SERVE_MANY = "UNWIND $ids AS id MATCH (s:Summary {id: id})" + _SERVED

# Periods of the project with at least one entry the viewer may see (a chapter made only of hidden entries has a
# name that is itself a hidden fact), with the span of the visible ones and the smallest spelling they give it
# (graph/periods.py): a hidden entry's spelling never shows, whoever wrote first. The people and places it names are
# read from those same visible entries.
VISIBLE_PERIODS = f"""
MATCH (per:Period {{project_id: $project_id}})
CALL {{
  WITH per
  MATCH (e:Entry)-[:IN_PERIOD]->(p:Period)-[:PART_OF*0..5]->(per)
  WHERE {CAN_SEE}
  RETURN count(DISTINCT e) AS n, toString(min(e.occurred_start)) AS start,
         toString(max(coalesce(e.occurred_end, e.occurred_start))) AS end,
         min(CASE WHEN p = per THEN {PERIOD_NAME} END) AS name, collect(DISTINCT e) AS seen
}}
WITH per, n, start, end, name, seen WHERE n > 0
CALL {{
  WITH seen
  UNWIND seen AS e
  MATCH (e)-[m:MENTIONS]->(x) WHERE x.kind IN ['person', 'place'] AND {mention_seen("m")}
  WITH x, count(DISTINCT e) AS told, min(m.name) AS mention_name
  ORDER BY told DESC, mention_name
  WITH x, {declared_name("x", "mention_name")} AS shown
  RETURN collect(CASE WHEN x.kind = 'person' THEN shown END)[..$most] AS people,
         collect(CASE WHEN x.kind = 'place' THEN shown END)[..$most] AS places
}}
RETURN per.id AS id, coalesce(name, per.id) AS name, start, end, n AS entries, per.automatic IS NOT NULL AS automatic,
       people, places
ORDER BY start, name
"""
MAIN_NAMES = 3
"""People and places a period listing names: those the most of the viewer's visible entries in it mention."""

PERIOD_SCORES = """
UNWIND $ids AS sid
MATCH (s:Summary {id: sid})
WHERE s.embedding IS NOT NULL AND s.embedding_model = $model AND size(s.embedding) = size($vector)
RETURN s.id AS id, vector.similarity.cosine(s.embedding, $vector) AS score
"""

VISIBLE_TEXTS = f"""
UNWIND $ids AS id
MATCH (e:Entry {{id: id}})
WHERE {can_see("e")}
RETURN e.id AS id, e.body AS text, coalesce(e.occurred_on, toString(e.occurred_start)) AS occurred_on,
       e.author_id AS author_id, e.title AS title
"""

STALE_SUMMARIES = """
MATCH (s:Summary)
WHERE (s.stale = true OR s.pending_llm = true OR coalesce(s.form, 1) <> $form)
  AND ($project_id IS NULL OR s.project_id = $project_id)
RETURN s.id AS id, s.project_id AS project_id, s.period_id AS period_id, s.base AS base, s.owner AS owner
ORDER BY s.project_id, s.level DESC, s.id
LIMIT $limit
"""

# The variants every reader and writer needs: per scope, both bases, and per author with entries outside a base.
SCOPES = """
MATCH (p:Project {id: $project_id})
OPTIONAL MATCH (per:Period {project_id: $project_id})
WHERE EXISTS { MATCH (:Entry)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(per) }
RETURN collect(per.id) AS periods
"""

# Who wrote the scope's entries, at which levels (a null author included): which variants the scope needs.
_SCOPE_AUTHORS = """
{scope}
RETURN e.author_id AS author_id, collect(DISTINCT e.intimacy) AS levels
"""
SCOPE_AUTHORS = _SCOPE_AUTHORS.format(scope=_IN_PROJECT)
PERIOD_SCOPE_AUTHORS = _SCOPE_AUTHORS.format(scope=_IN_PERIOD_SCOPE)

DELETE_ORPHANS = """
MATCH (s:Summary {project_id: $project_id})
WHERE s.scope = 'period'
  AND NOT EXISTS { MATCH (:Entry)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: s.period_id}) }
DETACH DELETE s
"""


def summary_id(project_id: str, period_id: str | None, base: str, owner: str | None) -> str:
    return f"{project_id}/summary/{sha256(period_id or '', base, owner or '')[:20]}"


def audience_key(base: str, owner: str | None) -> str:
    return base if owner is None else f"{base}+own:{owner}"


def mark_stale(tx: ManagedTransaction, entry_ids: list[str]) -> None:
    """The cheap part of the write path: flag the variants this entry fed or now belongs to (no rebuild)."""
    if entry_ids:
        tx.run(MARK_STALE, ids=entry_ids).consume()


def scope_entries(
    graph: Graph, project_id: str, period_id: str | None, base: str, owner: str | None
) -> list[dict[str, Any]]:
    params = {"project_id": project_id, "period_id": period_id, "base": base, "owner": owner}
    return [dict(r) for r in graph.read(PERIOD_SCOPE_ENTRIES if period_id else SCOPE_ENTRIES, params)]


def has_own(graph: Graph, project_id: str, period_id: str | None, base: str, user_id: str) -> bool:
    params = {"project_id": project_id, "period_id": period_id, "base": base, "owner": user_id}
    rows = graph.read(PERIOD_HAS_OWN if period_id else HAS_OWN, params)
    return bool(rows[0]["own"])


def dirty(graph: Graph, sid: str) -> int:
    """How many writes have marked this variant; read before its entries, compared when it is stored."""
    return int(graph.read(DIRTY, {"id": sid})[0]["dirty"])


def store(
    graph: Graph,
    sid: str,
    project_id: str,
    period_id: str | None,
    props: dict[str, Any],
    entry_ids: list[str],
    dirty_before: int,
) -> bool:
    """Write the variant and its links; True when it is fresh (no write marked it while it was built)."""
    rows = graph.write(
        UPSERT,
        {
            "id": sid,
            "project_id": project_id,
            "period_id": period_id,
            "props": props,
            "entry_ids": entry_ids,
            "dirty": dirty_before,
        },
    )
    return not rows[0]["stale"]


def set_vector(graph: Graph, sid: str, vector: list[float], model: str) -> None:
    graph.write(SET_VECTOR, {"id": sid, "vector": vector, "model": model})


def serve(graph: Graph, sid: str, viewer: Viewer) -> dict[str, Any] | None:
    """The stored variant if it exists and the viewer may see all it was built from; else None."""
    rows = graph.read(SERVE, {"id": sid, **visibility_params(viewer)})
    return dict(rows[0]["summary"]) if rows else None


def serve_many(graph: Graph, sids: list[str], viewer: Viewer) -> dict[str, dict[str, Any]]:
    """`serve` of many variants in one read, by id (a variant the viewer may not see, or missing, is absent)."""
    rows = graph.read(SERVE_MANY, {"ids": sids, **visibility_params(viewer)}) if sids else []
    return {r["summary"]["id"]: dict(r["summary"]) for r in rows}


def visible_periods(graph: Graph, project_id: str, viewer: Viewer) -> list[dict[str, Any]]:
    params = {"project_id": project_id, "most": MAIN_NAMES, **visibility_params(viewer)}
    return [dict(r) for r in graph.read(VISIBLE_PERIODS, params)]


def period_scores(graph: Graph, summary_ids: list[str], vector: list[float], model: str) -> dict[str, float]:
    rows = graph.read(PERIOD_SCORES, {"ids": summary_ids, "vector": vector, "model": model})
    return {r["id"]: float(r["score"]) for r in rows}


def visible_texts(graph: Graph, ids: list[str], viewer: Viewer) -> dict[str, dict[str, Any]]:
    return {r["id"]: dict(r) for r in graph.read(VISIBLE_TEXTS, {"ids": ids, **visibility_params(viewer)})}


def stale_summaries(graph: Graph, project_id: str | None, limit: int = 200) -> list[dict[str, Any]]:
    return [dict(r) for r in graph.read(STALE_SUMMARIES, {"project_id": project_id, "limit": limit, "form": FORM})]


def project_scopes(graph: Graph, project_id: str) -> list[str | None]:
    """None (the project itself) and every period of it that has entries."""
    rows = graph.read(SCOPES, {"project_id": project_id})
    return [None, *(rows[0]["periods"] if rows else [])]


def scope_authors(graph: Graph, project_id: str, period_id: str | None) -> dict[str | None, set[str]]:
    """The intimacy levels each author (None: entries without one) wrote in the scope."""
    statement = PERIOD_SCOPE_AUTHORS if period_id else SCOPE_AUTHORS
    rows = graph.read(statement, {"project_id": project_id, "period_id": period_id})
    return {r["author_id"]: set(r["levels"]) for r in rows}


def delete_orphans(graph: Graph, project_id: str) -> None:
    graph.write(DELETE_ORPHANS, {"project_id": project_id})


IN_WITNESS_CHAPTER = """
RETURN EXISTS { MATCH (:Period {id: $period_id})-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) } AS inside
"""


class NotMember(PermissionError):
    """The viewer is not a member of the project (same answer whether or not it exists)."""


@dataclass(frozen=True)
class Audience:
    base: str
    owner: str | None = None

    @property
    def key(self) -> str:
        return audience_key(self.base, self.owner)


def audience_for(graph: Graph, viewer: Viewer, project_id: str, period_id: str | None) -> Audience | None:
    """The variant this viewer is served for the scope; None for a witness outside their chapter."""
    if viewer.witness_period_id is not None:
        if period_id is None:
            return None
        rows = graph.read(IN_WITNESS_CHAPTER, {"period_id": period_id, "witness_period_id": viewer.witness_period_id})
        return Audience("circle") if rows[0]["inside"] else None
    base = _base_of(graph, viewer, project_id)
    own = has_own(graph, project_id, period_id, base, viewer.user_id or "")
    return Audience(base, viewer.user_id if own else None)


def audiences_for(graph: Graph, viewer: Viewer, project_id: str, period_ids: list[str]) -> dict[str, Audience | None]:
    """`audience_for` of many periods: the role read once, the viewer's own entries in one read."""
    if viewer.witness_period_id is not None:
        return {p: audience_for(graph, viewer, project_id, p) for p in period_ids}
    base = _base_of(graph, viewer, project_id)
    params = {"project_id": project_id, "period_ids": period_ids, "base": base, "owner": viewer.user_id or ""}
    own = {r["period_id"] for r in graph.read(PERIODS_HAS_OWN, params) if r["own"]} if period_ids else set()
    return {p: Audience(base, viewer.user_id if p in own else None) for p in period_ids}


def _base_of(graph: Graph, viewer: Viewer, project_id: str) -> str:
    """The base variant a member reads: the inner circle's for an owner or coauthor (NotMember for anyone else)."""
    role = role_of(graph, project_id, viewer.user_id or "")
    if role is None:
        raise NotMember("not a member of this project")
    return "inner" if role in ("owner", "coauthor") else "circle"
