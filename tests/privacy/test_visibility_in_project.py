"""`can_see_in_project` (the viewer resolved once per statement) admits exactly the entries `CAN_SEE` admits, for
entries of one project, over every combination of viewer role, entry intimacy, entry author and witness grant."""

from __future__ import annotations

import itertools
import re
from typing import Any

from graph.db import Graph
from graph.entities import list_visible_entities, list_visible_entities_among
from graph.members import set_member
from graph.visibility import CAN_SEE, CAN_SEE_IN_PROJECT, INTIMACY_LEVELS, ROLES, VIEWER_IN_PROJECT, Viewer

SEEN_BY_CAN_SEE = f"""
MATCH (e:Entry) WHERE e.project_id = $project_id AND {CAN_SEE}
RETURN e.id AS id ORDER BY id
"""
SEEN_IN_PROJECT = f"""
{VIEWER_IN_PROJECT}
MATCH (e:Entry) WHERE e.project_id = $project_id AND {CAN_SEE_IN_PROJECT}
RETURN e.id AS id ORDER BY id
"""
CHAPTERS = """
UNWIND $rows AS row
MATCH (p:Project {id: row.project})
CREATE (c:Period {id: row.id, project_id: row.project, name: row.id, level: 'chapter'})
CREATE (c)-[:PART_OF]->(p)
WITH c, row
OPTIONAL MATCH (parent:Period {id: row.parent})
FOREACH (_ IN CASE WHEN parent IS NULL THEN [] ELSE [1] END | CREATE (c)-[:PART_OF]->(parent))
"""
ENTRIES = """
UNWIND $rows AS row
CREATE (e:Entry {id: row.id, project_id: $project_id, kind: 'diary', body: 'x', author_id: row.author})
SET e.intimacy = row.intimacy
WITH e, row
OPTIONAL MATCH (c:Period {id: row.chapter})
FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | CREATE (e)-[:IN_PERIOD]->(c))
"""
# Memberships no write path makes today, still read by both forms the same way: no role, and two edges at once.
ODD_MEMBERS = """
MATCH (p:Project {id: $project_id})
MERGE (n:User {id: $no_role}) CREATE (n)-[:MEMBER_OF]->(p)
MERGE (t:User {id: $two_roles}) CREATE (t)-[:MEMBER_OF {role: 'reader'}]->(p), (t)-[:MEMBER_OF {role: 'coauthor'}]->(p)
"""


def _world(graph: Graph, prefix: str) -> dict[str, Any]:
    """Every combination of intimacy, author and chapter in one project; every kind of viewer."""
    project, elsewhere = f"{prefix}fam", f"{prefix}other"
    users = {role: f"{prefix}{role}" for role in ROLES}
    outsider, no_role, two_roles = f"{prefix}outsider", f"{prefix}norole", f"{prefix}tworoles"
    for role, user in users.items():
        set_member(graph, project, user, role)
    set_member(graph, elsewhere, outsider, "owner")  # an owner, but of another project
    graph.write(ODD_MEMBERS, {"project_id": project, "no_role": no_role, "two_roles": two_roles})
    chapter, sub, sibling, foreign = (
        f"{project}/period/a",
        f"{project}/period/a1",
        f"{project}/period/b",
        f"{elsewhere}/period/z",
    )
    graph.write(
        CHAPTERS,
        {
            "rows": [
                {"id": chapter, "project": project, "parent": None},
                {"id": sub, "project": project, "parent": chapter},
                {"id": sibling, "project": project, "parent": None},
                {"id": foreign, "project": elsewhere, "parent": None},
            ]
        },
    )
    authors = [*users.values(), outsider, two_roles]
    combos = list(itertools.product([*INTIMACY_LEVELS, None, "secret"], authors, [chapter, sub, sibling, None]))
    graph.write(
        ENTRIES,
        {
            "project_id": project,
            "rows": [
                {"id": f"{project}/e{n:03d}", "intimacy": lvl, "author": who, "chapter": ch}
                for n, (lvl, who, ch) in enumerate(combos)
            ],
        },
    )

    viewers = [
        {"viewer_id": u, "witness_period_id": None}
        for u in [*users.values(), outsider, no_role, two_roles, f"{prefix}nobody"]
    ]
    viewers += [
        {"viewer_id": None, "witness_period_id": w} for w in (chapter, sub, sibling, foreign, f"{project}/period/none")
    ]
    return {
        "project": project,
        "users": users,
        "combos": combos,
        "viewers": viewers,
        "chapters": (chapter, sub, sibling, foreign),
        "odd": (outsider, no_role, two_roles),
    }


def test_can_see_in_project_admits_exactly_what_can_see_admits(graph: Graph, prefix: str) -> None:
    world = _world(graph, prefix)
    project, users, combos, viewers = world["project"], world["users"], world["combos"], world["viewers"]
    chapter, sub, _, foreign = world["chapters"]
    outsider, no_role, two_roles = world["odd"]
    seen: dict[str, set[str]] = {}
    for viewer in viewers:
        params = {"project_id": project, **viewer}
        expected = [r["id"] for r in graph.read(SEEN_BY_CAN_SEE, params)]
        assert [r["id"] for r in graph.read(SEEN_IN_PROJECT, params)] == expected, viewer
        seen[viewer["viewer_id"] or viewer["witness_period_id"]] = set(expected)

    # The combinations are not vacuous: every rule of the predicate decides some of them.
    by_id = {f"{project}/e{n:03d}": combo for n, combo in enumerate(combos)}
    assert {by_id[i][0] for i in seen[users["owner"]]} == {"private", "intimate", "circle", "public"}
    assert {by_id[i][0] for i in seen[users["reader"]]} == {"private", "intimate", "circle", "public"}
    assert all(by_id[i][1] == users["reader"] for i in seen[users["reader"]] if by_id[i][0] in ("private", "intimate"))
    assert len(seen[users["coauthor"]]) > len(seen[users["reader"]])
    assert seen[two_roles] > seen[no_role] and seen[no_role]
    assert not seen[outsider] and not seen[f"{prefix}nobody"]
    assert {by_id[i][0] for i in seen[chapter]} == {"circle", "public"}
    assert {by_id[i][2] for i in seen[chapter]} == {chapter, sub}
    assert {by_id[i][2] for i in seen[sub]} == {sub}
    assert not seen[foreign] and not seen[f"{project}/period/none"]


MENTIONS = """
UNWIND $rows AS row
MATCH (e:Entry {id: row.entry})
MERGE (x:Person {id: row.person}) ON CREATE SET x.project_id = $project_id, x.kind = 'person', x.name = row.person
CREATE (e)-[:MENTIONS {name: row.name, count: 1}]->(x)
"""


def test_entities_of_one_project_are_named_for_each_viewer_as_over_any_projects(graph: Graph, prefix: str) -> None:
    """An entity's name is the smallest among the mentions its viewer may see: the one-project listing (the viewer
    resolved once) names the same entities the same way as the listing over any projects, for every viewer."""
    world = _world(graph, prefix)
    project = world["project"]
    rows = [
        {"entry": f"{project}/e{n:03d}", "person": f"{project}/person/p{n % 7}", "name": f"Name {n:03d}"}
        for n in range(len(world["combos"]))
    ]
    graph.write(MENTIONS, {"project_id": project, "rows": rows})
    named = set()
    for params in world["viewers"]:
        viewer = Viewer(user_id=params["viewer_id"], witness_period_id=params["witness_period_id"])
        everywhere = list_visible_entities(graph, [project, f"{prefix}other"], viewer)
        assert [e for e in everywhere if e.project_id == project] == list_visible_entities(graph, [project], viewer)
        assert list_visible_entities_among(graph, [project], viewer, [rows[0]["person"], rows[3]["person"]]) == [
            e for e in everywhere if e.id in (rows[0]["person"], rows[3]["person"])
        ], viewer
        named.add(tuple(e.name for e in everywhere))
    assert len(named) > 3, "viewers see the entities named differently, or not at all"


def test_statements_with_the_in_project_predicate_resolve_the_viewer_and_never_bind_its_variables() -> None:
    import importlib
    import pkgutil

    import graph
    import queries
    from graph.visibility import can_see_in_project

    found = {}
    for package in (graph, queries):
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if isinstance(value, str) and "vis_roles" in value and not name.startswith(("CAN_SEE", "VIEWER", "__")):
                    found[f"{module.__name__}.{name}"] = value
    assert {
        "graph.analytics.CO_OCCURRENCE",
        "graph.analytics.ENTITY_COUNTS",
        "graph.analytics.IMPORTANCE",
        "graph.analytics.TIMELINE",
        "queries.entities.entity_questions.SUPPORT_NEWEST",
        "queries.search.channels.FULLTEXT_IN_PROJECT",
        "queries.search.channels.FULLTEXT_AMONG",
        "graph.entities.LIST_VISIBLE_ENTITIES_IN_PROJECT",
        "queries.search.channels.SCOPE_CHUNKS_IN_PROJECT",
        "queries.search.view_build.CHUNK_VECTORS",
        "queries.search.visible_view.VISIBLE_AMONG",
    } <= set(found)
    # A scope fragment (and its imports) holds the predicate for the statements that start with the prelude: it is
    # checked through them.
    fragment = found["queries.search.channels.ENTRY_SCOPE_IN_PROJECT"]
    found = {name: text for name, text in found.items() if text != fragment}
    assert fragment in found["queries.search.visible_view.VISIBLE_CHUNKS"]
    for name, text in found.items():
        assert text.count(VIEWER_IN_PROJECT) == 1, name  # the viewer is resolved once, by the one prelude
        outside = text.replace(VIEWER_IN_PROJECT, "")
        for var in ("e", "dn_e", "ce"):
            outside = outside.replace(can_see_in_project(var), "")
        assert not re.findall(r"\bvis_(?:role|chapter|m|p)\b", outside), name  # the predicate's own names
        assert "$project_id" in outside, name  # entries of one project only: the predicate's equivalence needs it
