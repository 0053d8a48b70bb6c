"""Statements sent through `Graph` are planned once whatever their parameter values (graph/plan_cache.py)."""

from __future__ import annotations

from typing import Any

import pytest

from graph.db import Graph
from graph.plan_cache import ARGS, MissingParameters, one_plan, rewritten
from graph.visibility import Viewer, visibility_params
from queries.search import ranker
from queries.search.query_constraints import SoftConstraints
from tests.plan_cache_count import cached_plans


def test_parameters_are_read_from_one_map_and_nothing_else_is_touched() -> None:
    statement = (
        "MATCH (e:Entry {id: $id}) // costs $5\n"
        'WHERE e.note = \'price in $dollars\' AND e.`$odd` = "a \\" $quoted" /* $comment */\n'
        "RETURN e LIMIT $limit"
    )
    text, names = rewritten(statement)
    assert names == {"id", "limit"}
    assert text == (
        f"MATCH (e:Entry {{id: ${ARGS}.id}}) // costs $5\n"
        'WHERE e.note = \'price in $dollars\' AND e.`$odd` = "a \\" $quoted" /* $comment */\n'
        f"RETURN e LIMIT ${ARGS}.limit"
    )


def test_a_missing_parameter_is_refused_not_read_as_null(graph: Graph) -> None:
    with pytest.raises(MissingParameters, match="top_id"):
        graph.read("RETURN $a AS a, $top_id AS t", {"a": 1})
    assert one_plan("RETURN $a AS a", {"a": [1, 2]}) == (f"RETURN ${ARGS}.a AS a", {ARGS: {"a": [1, 2]}})
    with pytest.raises(ValueError, match="cannot name"):
        one_plan(f"RETURN ${ARGS} AS a", {ARGS: 1})


def _shapes(prefix: str) -> list[dict[str, Any]]:
    """Calls of the ranker's facts statement as real searches make them: one candidate or many, one query word or
    several, a keyword top hit or none, named people or none, viewers whose ids differ in length."""
    shapes = []
    for n, (ids, query, top_id, entity_ids, viewer) in enumerate(
        [
            ([f"{prefix}a"], "café", None, [], "u"),
            ([f"{prefix}{i}" for i in range(12)], "el café de Berlín con la abuela", f"{prefix}a", [], "u" * 40),
            ([f"{prefix}a", f"{prefix}b"], "tren", None, [f"{prefix}pilar"], "u" * 200),
            ([f"{prefix}{i}" for i in range(150)], "abuela Pilar y el tren de noche en Berlín", None, ["x", "y"], "uu"),
        ]
    ):
        soft = SoftConstraints(entity_ids=tuple(entity_ids))
        params = {**ranker.facts_params(query, soft, top_id), **visibility_params(Viewer(user_id=f"{viewer}{n}"))}
        shapes.append({"ids": ids, **params})
    return shapes


@pytest.mark.serial  # counts the server's whole plan cache: no other test may run statements meanwhile
def test_a_search_statement_is_planned_once_whatever_its_parameters(graph: Graph, prefix: str) -> None:
    shapes = _shapes(prefix)
    cached_plans(graph)
    with graph.session() as session:  # the driver as is: one plan per combination of parameter types and sizes
        for params in shapes:
            session.run(ranker.CANDIDATE_FACTS, params).consume()
    assert cached_plans(graph) == len(shapes)
    for params in shapes:
        assert graph.read(ranker.CANDIDATE_FACTS, params) == []
    assert cached_plans(graph) == 1
