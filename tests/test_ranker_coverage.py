"""The learned ranker's lexical coverage (queries/ranker.py, `CANDIDATE_FACTS`): read from `ft_terms` in the
statement for an entry without lent context, from the text otherwise, and equal in every case to
`lexical_coverage` over the entry's title, body and names, which it replaced (issue 12: no text folded again on
every search)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.db import Graph
from graph.members import set_member
from graph.visibility import Viewer, visibility_params
from queries import ranker
from queries.fusion import Hit, coverage_terms, lexical_coverage
from queries.query_constraints import SoftConstraints

QUERY = "el café de Berlín con la abuela Pilar y el tren"
TEXT = "MATCH (e:Entry {id: $id}) RETURN coalesce(e.title, '') + ' ' + e.body + ' ' + coalesce(e.names, '') AS t"


def test_coverage_from_the_stored_words_equals_coverage_from_the_text(graph: Graph, prefix: str,
                                                                      ingest: Callable[..., Any]) -> None:
    project, owner = f"{prefix}cov", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    turns = ["¿Te acuerdas del café de Berlín?", "Sí, con la abuela Pilar, después del tren nocturno.",
             "Y el frío que hacía."]
    rows: list[dict[str, Any]] = [
        {"entry_id": f"{project}/t{n}", "project_id": project, "author": owner, "kind": "session",
         "occurred_at": "2024-03-01T10:00:00", "turn": n, "text": t} for n, t in enumerate(turns)]
    rows += [
        {"entry_id": f"{project}/berlin", "project_id": project, "author": owner, "title": "Berlín, 2008",
         "text": "Café con la ABUELA en Kreuzberg; el tren llegó tarde."},
        {"entry_id": f"{project}/cafe", "project_id": project, "author": owner, "text": "Un cafe sin tren ni abuela."},
        {"entry_id": f"{project}/nada", "project_id": project, "author": owner, "text": "La playa en agosto."},
        {"entry_id": f"{project}/legacy", "project_id": project, "author": owner,
         "text": "Pilar y el tren de Berlín, escrito antes de ft_terms."},
    ]
    assert not ingest(rows).errors
    graph.write("MATCH (e:Entry {id: $id}) SET e.ft_terms = null, e.ft_len = null", {"id": f"{project}/legacy"})
    ids = [r["entry_id"] for r in rows]
    visibility = visibility_params(Viewer(user_id=owner))

    record = ranker.gather(graph, QUERY, {"fulltext": [Hit(i, 1.0) for i in ids]}, SoftConstraints(), visibility)
    expected = {i: round(lexical_coverage(QUERY, graph.read(TEXT, {"id": i})[0]["t"]), 4) for i in ids}
    assert {i: f["cov"] for i, f in record["facts"].items()} == expected
    assert len(set(expected.values())) >= 3, expected  # the cases cover different shares of the query

    facts = {r["id"]: r for r in graph.read(ranker.CANDIDATE_FACTS, {
        "ids": ids, "entity_ids": [], "cov_terms": list(dict.fromkeys(coverage_terms(QUERY))), **visibility})}
    assert facts[f"{project}/berlin"]["text"] is None and facts[f"{project}/berlin"]["present"]
    lent = [i for i in ids[1:3] if facts[i]["present"] is None]
    assert lent, "a turn with lent context must be read from its text (its ft_terms hold the context's words)"
    assert facts[f"{project}/legacy"]["present"] is None and facts[f"{project}/legacy"]["text"]
