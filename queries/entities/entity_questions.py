"""Entity questions answered as answers: "¿con quién aparece Pep?", "when did Marta disappear?", "quels lieux
ressemblent à Berlin ?", "who matters most in my life?".

`classify` (queries/entities/entity_question_words.py) recognises the question; the entity it names is looked for only
among
what the viewer may know of (the search's visible lexicon, and chapters with an entry they may see), so a hidden name
reads exactly like an unknown one; the answer comes from graph/analytics.py or queries/entities/similar.py, every count
and
vector over the viewer's entries; the supporting entries are visible entries that mention the answer, best first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from graph import analytics, analytics_cache
from graph.db import Graph
from graph.textnorm import fold
from graph.visibility import CAN_SEE_IN_PROJECT, VIEWER_IN_PROJECT, Viewer, visibility_params
from queries.entities.entity_question_words import QUESTION_CHARS, Intent
from queries.entities.similar import similar, visible_names
from queries.search import kept_lexicons

ITEMS = 10
BOOST = 3

_SUPPORT = f"""
{VIEWER_IN_PROJECT}
CALL () {{
  MATCH (a:Person) WHERE a.id IN $anchor_ids RETURN a
  UNION MATCH (a:Place) WHERE a.id IN $anchor_ids RETURN a
  UNION MATCH (a:Thing) WHERE a.id IN $anchor_ids RETURN a
  UNION MATCH (a:Period) WHERE a.id IN $anchor_ids RETURN a
}}
MATCH (e:Entry)-[:MENTIONS|IN_PERIOD]->(a)
WHERE e.project_id = $project_id AND {CAN_SEE_IN_PROJECT}
WITH DISTINCT e
WITH e, COUNT {{ MATCH (e)-[:MENTIONS|IN_PERIOD]->(b) WHERE b.id IN $boost_ids }} AS boost
ORDER BY boost DESC, {{order}}, e.id
LIMIT $k
RETURN e.id AS id, boost
"""
SUPPORT_NEWEST = _SUPPORT.replace("{order}", "coalesce(e.occurred_start, date('0001-01-01')) DESC")
SUPPORT_OLDEST = _SUPPORT.replace("{order}", "e.occurred_start")


@dataclass(frozen=True)
class Target:
    id: str
    name: str
    kind: str


@dataclass
class Answered:
    """The answer (`{kind, entity, items}`) and its supporting entries (id, how many answer items it names)."""

    answer: dict[str, Any]
    project_id: str
    support: list[tuple[str, int]]


def answer_question(
    graph: Graph, viewer: Viewer, projects: list[str], question: str, intent: Intent, model: str, k: int = 10
) -> Answered | None:
    """The answer to `question`, an entity question of `intent` (`classify`'s reading of it), over what the viewer
    may see; None for one that names nothing the viewer may know of (hidden and unknown alike), and for "what matters
    most" when the viewer may know of nothing to rank."""
    if not intent.needs_entity:
        if len(projects) != 1:
            return None
        return _importance(graph, viewer, projects[0], intent, k)
    for project in projects:
        target = _target(graph, viewer, project, question, model, intent)
        if target is not None:
            return _answer(graph, viewer, project, intent, target, model, k)
    return None


_Named = tuple[int, int, bool, Target]  # where in the question, minus its length, not preferred, what


def _target(graph: Graph, viewer: Viewer, project: str, question: str, model: str, intent: Intent) -> Target | None:
    """The first name in the question of an entity (or, for a similarity question, a chapter) the viewer may know:
    earliest, then longest; for the same words a chapter when the question asks about periods, else the entity
    ("otra época como la de Berlín": the chapter; "lugares parecidos a Berlín": the place)."""
    folded = fold(question[:QUESTION_CHARS])
    found: list[_Named] = []
    for named in visible_names(graph, viewer, project, model, _grams(folded)):
        if named.kind == "period" and intent.kind != "similar":
            continue
        at = _position(folded, list(named.keys))
        if at is not None:
            prefer = (named.kind == "period") == (intent.wants == "period")
            found.append((at[0], -at[1], not prefer, Target(named.id, named.name, named.kind)))
    if not found and intent.kind != "similar":
        found = _named_since_refresh(graph, viewer, project, folded)
    return min(found, key=lambda f: (f[0], f[1], f[2], f[3].id))[3] if found else None


def _named_since_refresh(graph: Graph, viewer: Viewer, project: str, folded: str) -> list[_Named]:
    """The viewer's visible entities as of now (the lexicon the search itself reads, kept per generation), for a name
    written since the last refresh of the entity vectors: co-occurrence, timelines and importance are counted live,
    only similarity needs the vectors."""
    found = []
    for entity in kept_lexicons.lexicon(graph, project, viewer).entities():
        at = _position(folded, entity.answers_to())
        if at is not None:
            found.append((at[0], -at[1], False, Target(entity.id, entity.name, entity.kind)))
    return found


def _grams(folded: str, longest: int = 6) -> list[str]:
    """Every run of up to `longest` consecutive words of the question, as written between them ("jean-luc")."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"\w+", folded)]
    return list(
        dict.fromkeys(
            folded[spans[i][0] : spans[j][1]] for i in range(len(spans)) for j in range(i, min(i + longest, len(spans)))
        )
    )


def _position(folded: str, keys: list[str]) -> tuple[int, int] | None:
    """Where the earliest whole-word occurrence of one of `keys` starts, and its length."""
    best: tuple[int, int] | None = None
    for key in keys:
        if len(key) < 3:
            continue
        m = re.search(rf"(?<!\w){re.escape(key)}(?!\w)", folded)
        if m and (best is None or (m.start(), -len(key)) < (best[0], -best[1])):
            best = (m.start(), len(key))
    return best


def _answer(graph: Graph, viewer: Viewer, project: str, intent: Intent, target: Target, model: str, k: int) -> Answered:
    entity = {"id": target.id, "name": target.name}
    items: list[dict[str, Any]]
    if intent.kind == "similar":
        found = similar(graph, viewer, project, target.id, model, intent.wants or target.kind, ITEMS)
        items = [{"id": s.id, "name": s.name, "kind": s.kind, "score": s.score, "entries": s.entries} for s in found]
        anchors, boost = [i["id"] for i in items[:BOOST]], [target.id]
    elif intent.kind == "cooccurrence" and target.kind != "period":
        rows = analytics.co_occurrence(graph, viewer, project, target.id, ITEMS, intent.wants)
        items = [
            {
                "id": r["id"],
                "name": r["name"],
                "kind": r["kind"],
                "score": float(r["together"]),
                "together": r["together"],
                "first": r["first"],
                "last": r["last"],
            }
            for r in rows
        ]
        anchors, boost = [target.id], [i["id"] for i in items[:BOOST]]
    elif target.kind != "period":  # timeline
        years = analytics.timeline(graph, viewer, project, target.id)
        years.sort(key=lambda y: y["year"], reverse=intent.disappeared)
        items = [
            {
                "id": str(y["year"]),
                "name": str(y["year"]),
                "kind": "year",
                "score": float(y["entries"]),
                "year": y["year"],
                "entries": y["entries"],
                "mentions": y["mentions"],
            }
            for y in years
        ]
        anchors, boost = [target.id], []
    else:
        items, anchors, boost = [], [], []
    newest = not (intent.kind == "timeline" and not intent.disappeared)
    return Answered(
        {"kind": intent.kind, "entity": entity, "items": items},
        project,
        _support(graph, viewer, project, anchors, boost, newest, k),
    )


def _importance(graph: Graph, viewer: Viewer, project: str, intent: Intent, k: int) -> Answered | None:
    """None when the viewer may know of no entity to rank: the question is then searched like any other."""
    rows = analytics.importance(graph, viewer, project, intent.wants, ITEMS)
    if not rows:
        return None
    items = [
        {
            "id": r["id"],
            "name": r["name"],
            "kind": r["kind"],
            "score": float(r["importance"]),
            "entries": r["entries"],
            "mentions": r["mentions"],
            "periods": r["periods"],
            "years": r["years"],
        }
        for r in rows
    ]
    return Answered(
        {"kind": "importance", "entity": None, "items": items},
        project,
        _support(graph, viewer, project, [i["id"] for i in items[:1]], [i["id"] for i in items[1:BOOST]], True, k),
    )


def _support(
    graph: Graph, viewer: Viewer, project: str, anchors: list[str], boost: list[str], newest: bool, k: int
) -> list[tuple[str, int]]:
    """Visible entries naming an anchor, those naming more of `boost` first, then newest (or oldest) first."""
    if not anchors:
        return []

    def compute() -> list[tuple[str, int]]:
        rows = graph.read(
            SUPPORT_NEWEST if newest else SUPPORT_OLDEST,
            {"anchor_ids": anchors, "boost_ids": boost, "project_id": project, "k": k, **visibility_params(viewer)},
        )
        return [(r["id"], int(r["boost"])) for r in rows]

    return analytics_cache.cached(
        graph, viewer, project, "support", {"anchors": anchors, "boost": boost, "newest": newest, "k": k}, compute
    )
