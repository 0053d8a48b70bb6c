"""A turn of a conversation found by a search carries the message it answers: the latest earlier turn by someone
else among the few the viewer may see just before it, read on the real Neo4j; a hidden turn is never shown and never
changes which one is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from queries.search.door import hybrid_search
from queries.search.replies import REACH, replies_to
from queries.search.request import Scope, SearchOptions, SearchResult

Ingest = Callable[..., IngestReport]
pytestmark = pytest.mark.neo4j


def message(project: str, n: int, author: str, text: str, intimacy: str = "circle") -> dict[str, Any]:
    return {
        "entry_id": f"{project}/m{n}",
        "project_id": project,
        "author": author,
        "occurred_at": f"2024-03-01T10:{n:02d}",
        "turn": n,
        "session": 1,
        "intimacy": intimacy,
        "text": text,
    }


@pytest.fixture()
def chat(graph: Graph, prefix: str, ingest: Ingest) -> dict[str, str]:
    project, ana, bob, eva = f"{prefix}chat", f"{prefix}ana", f"{prefix}bob", f"{prefix}eva"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, bob, "coauthor")
    set_member(graph, project, eva, "reader")
    rows = [
        message(project, 1, ana, "¿Al final te cogieron en la cooperativa de Gràcia?"),
        message(project, 2, bob, "uf, qué nervios"),
        message(project, 3, bob, "sí!! empiezo el lunes en la cooperativa"),
        message(project, 4, ana, "¡enhorabuena por la cooperativa!"),
    ]
    assert ingest(rows).written == 4
    return {"project": project, "ana": ana, "bob": bob, "eva": eva}


def found(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, user: str, project: str, query: str
) -> dict[str, SearchResult]:
    resp = hybrid_search(
        graph, embedder, settings, Viewer(user_id=user), query, Scope(project_id=project), SearchOptions(k=10)
    )
    return {r.entry_id: r for r in resp.results}


def test_a_reply_comes_with_the_question_it_answers(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, chat: dict[str, str]
) -> None:
    p = chat["project"]
    hits = found(graph, embedder, settings, chat["eva"], p, "cooperativa")
    third = hits[f"{p}/m3"].replies_to
    assert third is not None and third.entry_id == f"{p}/m1", "past the answerer's own burst, to the question"
    assert third.author_id == chat["ana"] and "cooperativa de Gràcia" in third.text
    fourth = hits[f"{p}/m4"].replies_to
    assert fourth is not None and fourth.entry_id == f"{p}/m3"
    assert hits[f"{p}/m1"].replies_to is None, "the opening message answers nothing"


def test_a_hidden_question_is_never_shown_nor_counted(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, chat: dict[str, str], ingest: Ingest
) -> None:
    p, ana, eva = chat["project"], chat["ana"], chat["eva"]
    before = found(graph, embedder, settings, eva, p, "cooperativa")
    ingest([message(p, 1, ana, "¿Al final te cogieron en la cooperativa de Gràcia?", intimacy="private")])
    hidden = found(graph, embedder, settings, eva, p, "cooperativa")
    assert f"{p}/m1" not in hidden
    assert hidden[f"{p}/m3"].replies_to is None, "nobody else spoke before, as far as the reader may know"
    assert hidden[f"{p}/m4"].replies_to == before[f"{p}/m4"].replies_to
    mine = found(graph, embedder, settings, ana, p, "cooperativa")[f"{p}/m3"].replies_to
    assert mine is not None and mine.entry_id == f"{p}/m1", "its author still sees her own question"


def test_a_hidden_turn_in_between_changes_nothing_a_reader_sees(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, chat: dict[str, str], ingest: Ingest
) -> None:
    p, ana, eva = chat["project"], chat["ana"], chat["eva"]
    before = found(graph, embedder, settings, eva, p, "cooperativa")
    secret = message(p, 2, ana, "(solo para mí) ojalá no se vaya de Barcelona", intimacy="private")
    ingest([dict(secret, entry_id=f"{p}/m2b", turn=2, occurred_at="2024-03-01T10:02:30")])
    after = found(graph, embedder, settings, eva, p, "cooperativa")
    assert {k: r.replies_to for k, r in after.items()} == {k: r.replies_to for k, r in before.items()}
    mine = found(graph, embedder, settings, ana, p, "cooperativa")[f"{p}/m3"].replies_to
    assert mine is not None and mine.entry_id == f"{p}/m2b", "the hidden turn does sit between, for its author"


def test_the_reach_counts_visible_turns_only() -> None:
    me, other = "bob", "ana"
    burst = [{"id": f"m{i}", "author_id": me, "text": "sí"} for i in range(REACH - 1)]
    question = {"id": "q", "author_id": other, "text": "¿vienes?   el   sábado"}
    hit = replies_to(me, [*burst, question])
    assert hit is not None and hit.entry_id == "q" and hit.text == "¿vienes? el sábado"
    assert replies_to(me, burst) is None
    assert replies_to(me, [{"id": "x", "author_id": None, "text": "sin autor"}]) is None
    long = replies_to(me, [{"id": "l", "author_id": other, "text": "palabra " * 100}])
    assert long is not None and long.text.endswith("…") and len(long.text) <= 280
