"""A role change's splice (queries/search/visible_view.py, `_relist_behind`) under random histories: entries written,
re-levelled, re-dated and deleted by random authors at random levels, the member's role changed after each, and every
spliced view equal to the one a full listing makes, with no full listing run. The fixed transitions are in
tests/search/test_dense_matrix.py; this walks the ones nobody thought to write down."""

from __future__ import annotations

import random
from typing import Any

import pytest

from graph import generations
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import INTIMACY_LEVELS
from queries.search import visible_view
from tests.search.test_dense_matrix import DIM, WRITE, _splicing, _view_when_ready, world  # noqa: F401
from tests.search.view_equality import assert_same_view

STEPS = 5
MEMBER_ROLES = ("owner", "coauthor", "reader")
DELETE = "MATCH (e:Entry {id: $id}) OPTIONAL MATCH (c:Chunk)-[:OF]->(e) DETACH DELETE c, e"
LEVEL = "MATCH (e:Entry {id: $id}) SET e.intimacy = $level"
REDATE = "MATCH (e:Entry {id: $id}) SET e.occurred_start = date($day), e.occurred_end = date($day)"
ENTRIES = "MATCH (e:Entry {project_id: $p}) RETURN e.id AS id, e.intimacy AS level, e.author_id AS author ORDER BY id"


@pytest.mark.parametrize("seed", [11, 23, 37])
def test_a_spliced_view_is_a_full_listing_whatever_was_written_between_role_changes(
    graph: Graph,
    settings: Settings,
    world: dict[str, Any],  # noqa: F811 (the fixture imported above)
    seed: int,
) -> None:
    rng = random.Random(seed)
    behind, waited, member, viewer, params, key = _splicing(graph, settings, world)
    project, users = world["project"], world["users"]
    authors = [users["owner"], users["coauthor"], users["writer"], member]
    role = "reader"
    for step in range(STEPS):
        for n in range(rng.randint(1, 3)):
            _random_write(graph, world, rng, authors, f"{project}/r{seed}-{step}-{n}")
        role = rng.choice([r for r in MEMBER_ROLES if r != role])
        set_member(graph, project, member, role)
        before = dict(visible_view.counters)
        assert visible_view.view_for(graph, behind, viewer, params, key, DIM) is None  # Cypher meanwhile
        spliced = _view_when_ready(graph, behind, world, viewer)
        assert visible_view.counters["listings"] == before["listings"], (seed, step, role)
        visible_view.clear(graph)
        full = visible_view.view_for(graph, waited, viewer, params, key, DIM)
        assert full is not None
        assert_same_view(spliced, full)


def _random_write(graph: Graph, kept: dict[str, Any], rng: random.Random, authors: list[str], new_id: str) -> None:
    """One write as the write paths make it: the change, then the generation bump of every level it touched, naming
    the entry."""
    project = kept["project"]
    existing = graph.read(ENTRIES, {"p": project})
    kind = rng.choice(("write", "level", "redate", "delete")) if existing else "write"
    if kind == "write":
        row = {
            "id": new_id,
            "project": project,
            "intimacy": rng.choice(INTIMACY_LEVELS),
            "author": rng.choice(authors),
            "vectors": [[rng.gauss(0, 1) for _ in range(DIM)]],
            "mentions": ["Pep"] if rng.random() < 0.5 else [],
        }
        graph.write(WRITE, {"rows": [row], "prop": kept["prop"], "model": kept["embedder"].model_id})
        touched = [(new_id, row["intimacy"], row["author"])]
    else:
        target = rng.choice(existing)
        touched = [(target["id"], target["level"], target["author"])]
        if kind == "level":
            level = rng.choice([lv for lv in INTIMACY_LEVELS if lv != target["level"]])
            graph.write(LEVEL, {"id": target["id"], "level": level})
            touched.append((target["id"], level, target["author"]))
        elif kind == "redate":
            graph.write(
                REDATE,
                {"id": target["id"], "day": f"19{rng.randint(50, 99)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"},
            )
        else:
            graph.write(DELETE, {"id": target["id"]})
    generations.bump_levels(
        graph,
        [
            {"project_id": project, "intimacy": level, "author_id": author, "entry_id": entry, "entity_ids": []}
            for entry, level, author in touched
        ],
    )
