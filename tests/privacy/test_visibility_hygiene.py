"""Every read statement embeds the one predicate, and none can capture its variable."""

from __future__ import annotations

import importlib
import pkgutil

import graph
import queries
from graph.visibility import CAN_SEE, CAN_SEE_DECLARATION, can_see, can_see_declaration

PREDICATES = (
    CAN_SEE,
    CAN_SEE_DECLARATION,
    can_see("dn_e"),
    can_see("ce"),
    can_see("s"),
    can_see("q"),
    can_see_declaration("cd"),
)


def _statements() -> dict[str, str]:
    found: dict[str, str] = {}
    for package in (graph, queries):
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if isinstance(value, str) and "vis_membership" in value and not name.startswith(("CAN_SEE", "__")):
                    found[f"{module.__name__}.{name}"] = value
    return found


def test_statements_with_the_predicate_never_bind_its_variable() -> None:
    statements = _statements()
    assert {
        "queries.search.channels.FULLTEXT",
        "queries.search.channels.DENSE_EXACT",
        "graph.entries.GET_ENTRY",
        "graph.analytics.CO_OCCURRENCE",
        "graph.entities.LIST_VISIBLE_ENTITIES",
    } <= set(statements)
    for name, text in statements.items():
        outside = text
        for predicate in PREDICATES:
            outside = outside.replace(predicate, "")
        assert "vis_membership" not in outside, name
