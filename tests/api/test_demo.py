"""`memora demo` prints the same answers on every run, whatever else the database holds: its searches are scoped to
its project and ties break by id, so another project whose entries say the same things (with the demo's own users
as members) changes nothing in its output."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from api.demo import CHAPTER_VIEWERS, MEMBERS, run_demo
from graph.db import Graph
from graph.entries import get_visible_entry
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]


def test_the_demo_answers_the_same_whatever_else_the_database_holds(
    graph: Graph, settings: Settings, prefix: str, ingest: Callable[..., Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_demo(graph, settings) == 0
    first = capsys.readouterr().out
    other = f"{prefix}family"
    for user in MEMBERS:
        set_member(graph, other, user, "owner")
    ingest(
        [
            {"entry_id": f"{other}/e{i}", "project_id": other, "author": "ana", "intimacy": "circle", "text": text}
            for i, text in enumerate(
                [
                    "Paracetamol para el dolor de cabeza, medicina de la farmacia.",
                    "Lloramos en Berlín, en la estación, el invierno de 2009.",
                    "Papá dijo que el piso era demasiado caro.",
                    "Playa y viento con Marta en el verano de 2008.",
                ]
            )
        ]
    )
    assert run_demo(graph, settings) == 0
    second = capsys.readouterr().out
    body = [line for line in first.splitlines() if not line.startswith("demo diary:")]
    assert body == [line for line in second.splitlines() if not line.startswith("demo diary:")]
    assert any(line.lstrip().startswith("1. [") for line in body), "the demo printed results"
    assert other not in second


def test_the_demo_ends_with_a_chapter_context_as_two_viewers_each_of_what_they_may_see(
    graph: Graph, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_demo(graph, settings) == 0
    tail = capsys.readouterr().out.split("» chapter context for ")
    assert len(tail) == 3, "two chapter contexts, last"
    sections = {part.split(" as ", 1)[1].split(" ", 1)[0]: part for part in tail[1:]}
    assert set(sections) == set(CHAPTER_VIEWERS) and sections["ana"] != sections["lola"]
    for user, text in sections.items():
        cited = re.findall(r"^\s+\[E\d+\] \S+ (\S+) ", text, flags=re.MULTILINE)
        assert cited, f"{user}'s context cites entries"
        for entry_id in cited:
            assert get_visible_entry(graph, Viewer(user_id=user), entry_id) is not None
        used, budget = map(int, re.findall(r"^\s+(\d+) of (\d+) tokens", text, flags=re.MULTILINE)[0])
        assert used <= budget
