"""The keyword channel counts query words in Cypher from `ft_terms`; entries written before it existed are counted
in Python until `memora migrate` fills them in, with the same scores either way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.db import Graph
from graph.keyword_terms import fill_terms
from graph.textnorm import term_string, words
from graph.visibility import Viewer
from queries.search import channels as ch
from queries.search.keyword import run_keyword
from queries.search.scope import SearchScope

TEXTS = {
    "e1": "Barca, barca barca: la barca azul de Pep en Berlín.",
    "e2": "En BERLIN llovía; una barca vieja.",
    "e3": "Comimos arroz en casa con la abuela.",
    "e4": "El puerto y la barcaza, sin barcas.",
}


def test_counts_in_cypher_match_counts_in_python_and_the_fill_changes_no_score(
    graph: Graph, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, ana = f"{prefix}fam", f"{prefix}ana"
    from graph.members import set_member

    set_member(graph, project, ana, "owner")
    assert not ingest(
        [
            {"entry_id": f"{project}/{k}", "project_id": project, "author": ana, "intimacy": "circle", "text": t}
            for k, t in TEXTS.items()
        ]
    ).errors
    rows = {
        r["id"]: r
        for r in graph.read(
            "MATCH (e:Entry) WHERE e.project_id = $p RETURN e.id AS id, e.ft_terms AS terms, e.ft_len AS n",
            {"p": project},
        )
    }
    e1 = rows[f"{project}/e1"]
    assert e1["terms"] == term_string(words(e1["terms"])) and e1["terms"].split().count("barca") == 4
    assert e1["n"] == len(e1["terms"].split())
    params = SearchScope(Viewer(user_id=ana), (project,))

    def ranked(query: str) -> list[tuple[str, float]]:
        return [(h.id, h.score) for h in run_keyword(graph, ch.FULLTEXT, ch.FULLTEXT_VISIBLE, params, query, 10)]

    queries = ("barca", "berlín barca", "BARCA azul", "arroz abuela")
    counted_in_cypher = {q: ranked(q) for q in queries}
    # Adjacent repeats are each counted: "Barca, barca barca ... barca" outranks a single "barca".
    assert [i for i, _ in counted_in_cypher["barca"]][:2] == [f"{project}/e1", f"{project}/e2"]
    assert counted_in_cypher["barca"][0][1] > counted_in_cypher["barca"][1][1]
    graph.write("MATCH (e:Entry) WHERE e.project_id = $p REMOVE e.ft_terms", {"p": project})
    assert {q: ranked(q) for q in queries} == counted_in_cypher  # counted in Python from the text
    # The fill skips an entry rewritten since it was read (its hash moved): that write brings its own terms.
    assert fill_terms(graph) >= len(TEXTS)
    after = {
        r["id"]: r["terms"]
        for r in graph.read(
            "MATCH (e:Entry) WHERE e.project_id = $p RETURN e.id AS id, e.ft_terms AS terms", {"p": project}
        )
    }
    assert after == {i: r["terms"] for i, r in rows.items()}
    assert {q: ranked(q) for q in queries} == counted_in_cypher


def test_the_fill_leaves_an_entry_whose_content_moved(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> None:
    from graph import keyword_terms

    project = f"{prefix}fam"
    assert not ingest(
        [
            {
                "entry_id": f"{project}/e1",
                "project_id": project,
                "author": f"{prefix}ana",
                "intimacy": "circle",
                "text": "Una barca.",
            }
        ]
    ).errors
    written = graph.read("MATCH (e:Entry {id: $id}) RETURN e.ft_terms AS t", {"id": f"{project}/e1"})[0]["t"]
    assert written.split()[:2] == ["una", "barca"]
    graph.write("MATCH (e:Entry {id: $id}) REMOVE e.ft_terms", {"id": f"{project}/e1"})
    row = graph.read(keyword_terms.MISSING, {"batch": 10**6})
    mine = [r for r in row if r["id"] == f"{project}/e1"]
    assert len(mine) == 1
    moved = [{"id": mine[0]["id"], "hash": "not-its-hash", "terms": term_string(["otra"]), "length": 1}]
    assert graph.write(keyword_terms.FILL, {"rows": moved})[0]["filled"] == 0
    assert graph.read("MATCH (e:Entry {id: $id}) RETURN e.ft_terms AS t", {"id": f"{project}/e1"})[0]["t"] is None
    fill_terms(graph)
    assert graph.read("MATCH (e:Entry {id: $id}) RETURN e.ft_terms AS t", {"id": f"{project}/e1"})[0]["t"] == written


def test_the_one_project_statement_ranks_as_the_general_one(
    graph: Graph, prefix: str, ingest: Callable[..., Any]
) -> None:
    """FULLTEXT_IN_PROJECT (the viewer resolved once) returns what FULLTEXT returns, for every role."""
    from graph.members import set_member

    project = f"{prefix}fam"
    users = {role: f"{prefix}{role}" for role in ("owner", "coauthor", "reader")}
    for role, user in users.items():
        set_member(graph, project, user, role)
    levels = ("private", "intimate", "circle", "public")
    assert not ingest(
        [
            {
                "entry_id": f"{project}/e{n}",
                "project_id": project,
                "intimacy": levels[n % 4],
                "author": (users["owner"], users["coauthor"])[n % 2],
                "text": f"La barca {n} y la casa {'barca ' * (n % 3)}.",
            }
            for n in range(12)
        ]
    ).errors
    for user in users.values():
        params = SearchScope(Viewer(user_id=user), (project,))
        general = run_keyword(graph, ch.FULLTEXT, ch.FULLTEXT_VISIBLE, params, "barca casa", 20)
        one = run_keyword(graph, ch.FULLTEXT_IN_PROJECT, ch.FULLTEXT_VISIBLE, params, "barca casa", 20)
        assert one == general and len(general) >= 6
