"""The candidate facts' statement counts a text's question marks, sentence ends and words exactly as the trainer's
pure function does (bench/train_ranker.py reads cached facts, search reads the statement's): on the real Neo4j."""

from __future__ import annotations

import pytest

from graph.db import Graph
from queries.search import ranker_features as rf
from queries.search.ranker import SHAPE

TEXTS = [
    ("", "¿Vienes el sábado???"),
    ("Título", "Sí!! Voy. ¿A qué hora?"),
    (None, "ok"),
    (None, "Wait... what?! No way.... really??"),
    (None, "  espacios   dobles y\nsaltos de línea  "),
    (None, ""),
    ("Solo título", ""),
]


@pytest.mark.neo4j
@pytest.mark.parametrize(("title", "body"), TEXTS)
def test_the_statement_counts_as_the_trainer_does(graph: Graph, title: str | None, body: str) -> None:
    statement = f"WITH {{title: $title, body: $body}} AS e RETURN {SHAPE} AS marks"
    [row] = graph.read(statement, {"title": title, "body": body})
    assert tuple(row["marks"]) == rf.marks((title or "") + " " + body)


def test_a_message_that_only_asks_is_told_from_one_that_tells() -> None:
    asks = rf.shape(*rf.marks(" ¿Y tú? ¿Qué tal el viaje?"))
    tells = rf.shape(*rf.marks(" Fuimos a Cádiz en agosto. Hizo un calor terrible, pero la playa era preciosa."))
    assert asks["asks"] == 1.0 and tells["asks"] == 0.0
    assert asks["brief"] > tells["brief"] > 0.0
