"""The keyword channel of a constrained question from the kept view (queries/search/keyword_view.py): for every
role it ranks exactly the candidates the index path ranks (entries counted in Python included), the id list it
passes cannot widen what a viewer sees, and more than `RESCORED` meeting entries send the question to the index."""

from __future__ import annotations

from datetime import date
from typing import Any

import numpy as np
import pytest

from bench.hash_embedder import HashEmbedder
from graph import generations
from graph.db import Graph
from graph.keyword_terms import fill_terms
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import channels as ch
from queries.search import keyword, keyword_view, visible_view
from queries.search.channel import ChannelAsk
from queries.search.keyword import run_keyword, run_keyword_among
from queries.search.keyword_channel import KeywordChannel
from queries.search.request import SearchOptions
from queries.search.run import SearchRun
from queries.search.scope import SearchScope
from tests.search.scopes import scope_of

WRITE = """
UNWIND $rows AS row
MERGE (p:Project {id: row.project})
CREATE (e:Entry {id: row.id, project_id: row.project, intimacy: row.intimacy, author_id: row.author,
                 kind: 'diary', title: row.title, body: row.body, created_at: datetime(),
                 occurred_start: row.start, occurred_end: row.end})
WITH e, row
UNWIND row.mentions AS name
MERGE (x:Person {id: row.project + '/person/' + name})
ON CREATE SET x.project_id = row.project, x.kind = 'person', x.name = name
MERGE (e)-[m:MENTIONS]->(x)
SET m.count = 1
"""
ROLES = ("owner", "coauthor", "reader", "writer")  # writer: a reader who wrote private and intimate entries
WORDS = (
    "playa",
    "verano",
    "mercado",
    "lluvia",
    "abuela",
    "tren",
    "piso",
    "cena",
    "cumpleaños",
    "hospital",
    "jardín",
    "carta",
)
QUESTIONS = ("Pep en la playa", "la lluvia y el tren", "cumpleanos de la abuela", "mercado", "carta del hospital")


@pytest.fixture()
def world(graph: Graph, prefix: str) -> dict[str, Any]:
    rng = np.random.default_rng(11)
    project = f"{prefix}kw"
    users = {r: f"{prefix}{r}" for r in ROLES}
    for role in ROLES:
        set_member(graph, project, users[role], "reader" if role == "writer" else role)
    rows = []
    for n in range(60):
        body = " ".join(rng.choice(WORDS, size=int(rng.integers(3, 12))).tolist())
        mentions = [name for k, name in enumerate(("Pep", "Marta", "Lola")) if n % (k + 2) == 0]
        year = 2000 + n % 7
        dated = {"start": date(year, 1 + n % 12, 1), "end": date(year, 1 + n % 12, 28)} if n % 5 else {}
        rows.append(
            {
                "id": f"{project}/e{n:02d}",
                "project": project,
                "title": f"día {n}",
                "body": f"{body} {' '.join(mentions)}",
                "mentions": mentions,
                "intimacy": ("private", "intimate", "circle", "public")[n % 4],
                "author": users[("owner", "coauthor", "writer")[n % 3]],
                "start": None,
                "end": None,
                **dated,
            }
        )
    graph.write(WRITE, {"rows": rows})
    generations.bump_levels(
        graph, [{"project_id": r["project"], "intimacy": r["intimacy"], "author_id": r["author"]} for r in rows]
    )
    fill_terms(graph)
    # Entries written before `ft_terms` existed: their words are counted in Python, on both paths.
    graph.write(
        "MATCH (e:Entry) WHERE e.id IN $ids SET e.ft_terms = null, e.ft_len = null",
        {"ids": [r["id"] for r in rows[::7]]},
    )
    visible_view.clear(graph)
    embedder = CheckedEmbedder(HashEmbedder())
    return {
        "project": project,
        "users": users,
        "embedder": embedder,
        "pep": f"{project}/person/Pep",
        "marta": f"{project}/person/Marta",
    }


def _keyword_as(
    graph: Graph, settings: Settings, viewer: Viewer, world: dict[str, Any], params: SearchScope, question: str
) -> list[Any]:
    """The door's keyword step for one question, as a search of `viewer` runs it."""
    run = SearchRun(graph, world["embedder"], settings, viewer, SearchOptions(), question)
    found = KeywordChannel().run(ChannelAsk.of_text(run, params, question, 50))
    assert found is not None
    return found.hits


def _params(world: dict[str, Any], role: str, **constraints: Any) -> SearchScope:
    return scope_of(world["project"], Viewer(user_id=world["users"][role]), **constraints)


def _cases(world: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"q_entity_ids": [world["pep"]]},
        {"q_entity_ids": [world["marta"], world["pep"]], "q_from": date(2003, 1, 1)},
        {"q_from": date(2001, 1, 1), "q_to": date(2002, 12, 31)},
        {"q_author_keys": [world["users"]["writer"].lower()]},
        {"q_entity_ids": [f"{world['project']}/person/Nadie"]},
    ]


@pytest.mark.parametrize("role", ROLES)
def test_a_constrained_question_ranks_the_same_candidates_from_the_view(
    graph: Graph, settings: Settings, world: dict[str, Any], role: str
) -> None:
    viewer = Viewer(user_id=world["users"][role])
    before = keyword_view.counters["among"]
    ranked = 0
    for constraints in _cases(world):
        params = _params(world, role, **constraints)
        for question in QUESTIONS:
            expected = run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, question, 50)
            got = _keyword_as(graph, settings, viewer, world, params, question)
            assert got == expected, (constraints, question)
            ranked += len(got)
    assert keyword_view.counters["among"] == before + len(_cases(world)) * len(QUESTIONS)  # the view answered
    assert ranked > 20, "the cases rank too little to compare"


@pytest.mark.parametrize("role", ROLES)
def test_a_question_without_constraints_asks_the_index_with_n_from_the_view(
    graph: Graph, settings: Settings, world: dict[str, Any], role: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Candidates from the index, BM25's N the view's size: the same ranking as the Cypher count gives, without
    the count (which would scan the project again after every write the viewer may see)."""
    viewer = Viewer(user_id=world["users"][role])
    params = _params(world, role)
    expected = [run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, q, 50) for q in QUESTIONS]
    before = keyword_view.counters["among"]

    def no_count(*_: Any) -> int:
        raise AssertionError("N was counted in Cypher")

    monkeypatch.setattr(keyword, "visible_count", no_count)
    got = [_keyword_as(graph, settings, viewer, world, params, q) for q in QUESTIONS]
    assert got == expected and sum(map(len, got)) > 5
    assert keyword_view.counters["among"] == before


@pytest.mark.parametrize("role", ("reader", "writer"))
def test_the_id_list_only_narrows(graph: Graph, world: dict[str, Any], role: str) -> None:
    """Handed every entry of the project, hidden ones included, the statement still returns only what the role may
    see and what meets the question: the same as the view's own list."""
    everything = [
        r["id"] for r in graph.read("MATCH (e:Entry {project_id: $p}) RETURN e.id AS id", {"p": world["project"]})
    ]
    for constraints in _cases(world):
        params = _params(world, role, **constraints)
        index = run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, "Pep playa mercado", 50)
        widened = run_keyword_among(
            graph, ch.FULLTEXT_AMONG, ch.FULLTEXT_VISIBLE, params, "Pep playa mercado", 50, everything
        )
        assert widened == index, constraints
    hidden = {
        r["id"]
        for r in graph.read(
            "MATCH (e:Entry {project_id: $p}) WHERE e.intimacy IN ['private', 'intimate'] AND e.author_id <> $u "
            "RETURN e.id AS id",
            {"p": world["project"], "u": world["users"][role]},
        )
    }
    assert hidden
    seen = run_keyword_among(
        graph, ch.FULLTEXT_AMONG, ch.FULLTEXT_VISIBLE, _params(world, role), " ".join(WORDS), 100, everything
    )
    assert seen and not {h.id for h in seen} & hidden


def test_more_meeting_entries_than_the_pool_ask_the_index(
    graph: Graph, settings: Settings, world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    viewer = Viewer(user_id=world["users"]["owner"])
    params = _params(world, "owner", q_entity_ids=[world["pep"]])
    monkeypatch.setattr(keyword_view, "RESCORED", 3)
    before = keyword_view.counters["among"]
    got = _keyword_as(graph, settings, viewer, world, params, "playa")
    assert keyword_view.counters["among"] == before
    assert got == run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, "playa", 50) and got
