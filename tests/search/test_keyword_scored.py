"""BM25 scored inside the keyword statement returns exactly what ranking every candidate row in Python returned:
the same entries, scores and order, ties at the cut included, for the index's candidates and for the kept view's
(`$among`), whatever the limit."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from graph.db import Graph
from graph.members import set_member
from graph.visibility import Viewer
from queries.search import channels as ch
from queries.search import keyword as kw
from queries.search.scope import SearchScope

VOCAB = "barca playa abuela berlín perro casa verano tarifa lluvia arroz puerto canción".split()


def rows_path(
    graph: Graph, stmt: str, scope: SearchScope, extra: dict[str, Any], query: str, limit: int
) -> list[tuple[str, float]]:
    """The ranking as it was: every candidate row read, BM25 in Python."""
    terms = kw.query_terms(query)
    params = {**scope.params(), **extra, "terms": terms, "chars": kw.TEXT_CHARS}
    rows = [dict(r) for r in graph.read(stmt, params)]
    return [(h.id, h.score) for h in kw._ranked(graph, ch.FULLTEXT_VISIBLE, scope, rows, terms, limit, None)]


@pytest.fixture
def corpus(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> tuple[str, SearchScope]:
    project, ana = f"{prefix}kw", f"{prefix}ana"
    set_member(graph, project, ana, "owner")
    rng = random.Random(11)
    texts = [" ".join(rng.choice(VOCAB) for _ in range(rng.randint(3, 30))) for _ in range(110)]
    texts += ["barca playa abuela"] * 25  # identical entries: ties wider than any cut below
    assert not ingest(
        [
            {"entry_id": f"{project}/e{i:03d}", "project_id": project, "author": ana, "intimacy": "circle", "text": t}
            for i, t in enumerate(texts)
        ]
    ).errors
    return project, SearchScope(Viewer(user_id=ana), (project,))


@pytest.mark.parametrize("limit", [1, 5, 30, 200])
def test_the_statement_ranks_the_index_candidates_as_python_did(
    graph: Graph, corpus: tuple[str, SearchScope], limit: int
) -> None:
    _, params = corpus
    for query in ("barca", "barca playa abuela", "perro verano tarifa lluvia", "canción", "arroz casa"):
        terms = kw.query_terms(query)
        extra = {"lucene": kw.to_lucene(" ".join(terms)), "pool": kw.RESCORED}
        expected = rows_path(graph, ch.FULLTEXT_IN_PROJECT, params, extra, query, limit)
        got = kw.run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, query, limit)
        assert [(h.id, h.score) for h in got] == expected, (query, limit)
        assert len(got) == min(limit, len(expected)) and expected


@pytest.mark.parametrize("limit", [3, 40])
def test_the_statement_ranks_the_kept_views_candidates_as_python_did(
    graph: Graph, corpus: tuple[str, SearchScope], limit: int
) -> None:
    project, params = corpus
    among = sorted(r["id"] for r in graph.read("MATCH (e:Entry {project_id: $p}) RETURN e.id AS id", {"p": project}))
    among = among[::2]  # a narrowed list, as a constrained question's
    for query in ("barca playa abuela", "tarifa", "lluvia puerto"):
        expected = rows_path(graph, ch.FULLTEXT_AMONG, params, {"among": among}, query, limit)
        got = kw.run_keyword_among(graph, ch.FULLTEXT_AMONG, ch.FULLTEXT_VISIBLE, params, query, limit, among)
        assert [(h.id, h.score) for h in got] == expected, (query, limit)
        assert expected and all(h.id in set(among) for h in got)


def test_a_candidate_without_terms_sends_the_ranking_back_to_python(
    graph: Graph, corpus: tuple[str, SearchScope]
) -> None:
    """An entry written before `ft_terms` existed is counted from its text: the statement says so instead of
    scoring it as empty, and the rows path ranks it."""
    project, params = corpus
    before = kw.run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, "barca playa", 10)
    graph.write("MATCH (e:Entry {project_id: $p}) REMOVE e.ft_terms", {"p": project})
    terms = kw.query_terms("barca playa")
    row = graph.read(
        kw.scored(ch.FULLTEXT_IN_PROJECT),
        {
            **params.params(),
            "lucene": kw.to_lucene(" ".join(terms)),
            "pool": kw.RESCORED,
            "terms": terms,
            "visible": 1,
            "limit": 10,
            "k1": kw.K1,
            "b": kw.B,
        },
    )[0]
    assert row["legacy"] > 0 and row["top"] == []
    after = kw.run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, "barca playa", 10)
    assert [(h.id, h.score) for h in after] == [(h.id, h.score) for h in before]


def test_scored_refuses_a_statement_that_is_not_a_keyword_candidate_statement() -> None:
    with pytest.raises(ValueError, match="keyword candidate"):
        kw.scored(ch.STRUCTURED)
