"""The learned ranker's lexical coverage (queries/search/ranker.py, `CANDIDATE_FACTS`): read from `ft_terms` in the
statement for an entry without lent context, from the text otherwise, and equal in every case to
`lexical_coverage` over the entry's title, body and names (so no text is folded again on every search)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from neo4j import ManagedTransaction

from graph.db import Graph
from graph.members import set_member
from graph.visibility import Viewer, visibility_params
from queries.search import ranker
from queries.search.channels import ENTRY_TEXTS
from queries.search.fusion import Hit, lexical_coverage
from queries.search.query_constraints import SoftConstraints

QUERY = "el café de Berlín con la abuela Pilar y el tren"
LEGACY = "MATCH (e:Entry {id: $id}) SET e.ft_terms = null, e.ft_len = null"  # written before `ft_terms` existed
TEXT = "MATCH (e:Entry {id: $id}) RETURN coalesce(e.title, '') + ' ' + e.body + ' ' + coalesce(e.names, '') AS t"


def session(project: str, author: str, turns: list[str]) -> list[dict[str, Any]]:
    """One conversation's turns as entries `{project}/t0`, `t1`, …: each after the first lends the one before as
    context."""
    return [
        {
            "entry_id": f"{project}/t{n}",
            "project_id": project,
            "author": author,
            "kind": "session",
            "occurred_at": "2024-03-01T10:00:00",
            "turn": n,
            "text": t,
        }
        for n, t in enumerate(turns)
    ]


def test_coverage_from_the_stored_words_equals_coverage_from_the_text(
    graph: Graph, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, owner = f"{prefix}cov", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    turns = [
        "¿Te acuerdas del café de Berlín?",
        "Sí, con la abuela Pilar, después del tren nocturno.",
        "Y el frío que hacía.",
    ]
    rows = session(project, owner, turns)
    rows += [
        {
            "entry_id": f"{project}/berlin",
            "project_id": project,
            "author": owner,
            "title": "Berlín, 2008",
            "text": "Café con la ABUELA en Kreuzberg; el tren llegó tarde.",
        },
        {"entry_id": f"{project}/cafe", "project_id": project, "author": owner, "text": "Un cafe sin tren ni abuela."},
        {"entry_id": f"{project}/nada", "project_id": project, "author": owner, "text": "La playa en agosto."},
        {
            "entry_id": f"{project}/legacy",
            "project_id": project,
            "author": owner,
            "text": "Pilar y el tren de Berlín, escrito antes de ft_terms.",
        },
    ]
    assert not ingest(rows).errors
    graph.write(LEGACY, {"id": f"{project}/legacy"})
    ids = [r["entry_id"] for r in rows]
    viewer = Viewer(user_id=owner)
    visibility = visibility_params(viewer)

    gathered = ranker.gather(graph, QUERY, {"fulltext": [Hit(i, 1.0) for i in ids]}, SoftConstraints(), viewer)
    expected = {i: round(lexical_coverage(QUERY, graph.read(TEXT, {"id": i})[0]["t"]), 4) for i in ids}
    assert {i: f["cov"] for i, f in gathered.record["facts"].items()} == expected
    assert len(set(expected.values())) >= 3, expected  # the cases cover different shares of the query

    params = {**ranker.facts_params(QUERY, SoftConstraints(), None), **visibility}

    def read_facts(tx: ManagedTransaction) -> dict[str, Any]:
        """Read in the transaction that makes `legacy` old again: a migration elsewhere (another test's) fills
        missing `ft_terms` and must not do it in between."""
        tx.run(LEGACY, id=f"{project}/legacy").consume()
        return {r["id"]: r for r in tx.run(ranker.CANDIDATE_FACTS, {**params, "ids": ids, "text_chars": 0})}

    facts = graph.transact(read_facts)
    assert facts[f"{project}/berlin"]["names"] is None and facts[f"{project}/berlin"]["present"]
    assert facts[f"{project}/berlin"]["plain"] is None, "a counted entry longer than text_chars sends no text"
    lent = [i for i in ids[1:3] if facts[i]["present"] is None]
    assert lent, "a turn with lent context must be read from its text (its ft_terms hold the context's words)"
    assert facts[f"{project}/legacy"]["present"] is None and facts[f"{project}/legacy"]["plain"]
    assert gathered.texts == {r["id"]: r["text"] for r in graph.read(ENTRY_TEXTS, {"ids": ids})}, (
        "short entries bring band diversity's texts, the same as ENTRY_TEXTS reads"
    )


def test_a_query_word_is_covered_by_its_inflected_forms_on_both_paths(
    graph: Graph, prefix: str, ingest: Callable[..., Any]
) -> None:
    """A query word is present in its inflected forms ("cook" in "cooking", "dishes" in "dish"), in the statement (an
    entry without lent context) and in Python (a conversation turn) alike; "car" is not present in "care"."""
    project, owner = f"{prefix}forms", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    query = "Who likes to cook dishes in the car?"
    turns = ["What did you do today?", "I was cooking two dishes for the kids.", "I take care of them."]
    rows = session(project, owner, turns)
    rows += [
        {"entry_id": f"{project}/diary", "project_id": project, "author": owner, "text": "She cooked one dish."},
        {"entry_id": f"{project}/care", "project_id": project, "author": owner, "text": "Take care, cars wait."},
    ]
    assert not ingest(rows).errors
    ids = [r["entry_id"] for r in rows]
    viewer = Viewer(user_id=owner)
    facts = ranker.gather(graph, query, {"fulltext": [Hit(i, 1.0) for i in ids]}, SoftConstraints(), viewer)[0]["facts"]
    # the query's content words: likes, cook, dishes, car
    assert facts[f"{project}/t1"]["cov"] == facts[f"{project}/diary"]["cov"] == 0.5
    assert facts[f"{project}/care"]["cov"] == 0.25, "cars is car; care is not"
    assert facts[f"{project}/t2"]["cov"] == 0.0
    counted = graph.read(
        ranker.CANDIDATE_FACTS,
        {**ranker.facts_params(query, SoftConstraints(), None), **visibility_params(viewer), "ids": ids},
    )
    assert {r["id"]: r["present"] for r in counted}[f"{project}/diary"] == ["cook", "dishes"]
    expected = {i: round(lexical_coverage(query, graph.read(TEXT, {"id": i})[0]["t"]), 4) for i in ids}
    assert {i: f["cov"] for i, f in facts.items()} == expected


def test_dates_come_as_text_and_weigh_as_before(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> None:
    """`date_in` and `recency` from the dates the statement sends as ISO text: the same as from the stored dates
    read as temporal values (what the facts were computed from before)."""
    project, owner = f"{prefix}dates", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    days = {"a": "2008-07-15", "b": "2008-12-31", "c": "2009-01-01", "d": "1999-02-28", "e": None}
    rows = [
        {
            "entry_id": f"{project}/{k}",
            "project_id": project,
            "author": owner,
            "text": f"Entrada {k} del diario.",
            **({"occurred_on": d} if d else {}),
        }
        for k, d in days.items()
    ]
    rows.append(
        {
            "entry_id": f"{project}/summer",
            "project_id": project,
            "author": owner,
            "occurred_on": "2008",
            "text": "El año entero.",
        }
    )
    assert not ingest(rows).errors
    ids = [r["entry_id"] for r in rows]
    stored = {
        r["id"]: (r["s"].to_native() if r["s"] else None, r["e"].to_native() if r["e"] else None)
        for r in graph.read(
            "UNWIND $ids AS id MATCH (e:Entry {id: id}) RETURN id, e.occurred_start AS s, e.occurred_end AS e",
            {"ids": ids},
        )
    }
    viewer = Viewer(user_id=owner)
    for soft in (
        SoftConstraints(date_from=date(2008, 6, 1), date_to=date(2008, 12, 31)),
        SoftConstraints(occurrences=(None, (date(2009, 1, 1), date(2009, 1, 31))), first_year=2008),
    ):
        facts = ranker.gather(graph, "diario", {"fulltext": [Hit(i, 1.0) for i in ids]}, soft, viewer)[0]["facts"]
        ends = sorted({e for _, e in stored.values() if e is not None})
        for i, (start, end) in stored.items():
            inside = (
                start is not None
                and end is not None
                and (
                    end >= soft.date_from and start <= soft.date_to
                    if soft.date_from and soft.date_to
                    else any(o is not None and end >= o[0] and start <= o[1] for o in soft.occurrences)
                )
            )
            assert facts[i]["date_in"] == (1.0 if inside else 0.0), (i, soft)
            assert facts[i]["recency"] == (round(ends.index(end) / (len(ends) - 1), 4) if end else 0.5), i
        assert 0.0 < sum(f["date_in"] for f in facts.values()) < len(facts)  # both verdicts occur


def test_the_keyword_weight_reads_the_same_top_text_with_either_fusion(
    graph: Graph, embedder: Any, settings: Any, prefix: str, ingest: Callable[..., Any]
) -> None:
    """The learned fusion reads the keyword channel's best hit with the candidates' facts, plain RRF alone: a query
    whose keywords barely match that hit is weighed down (0.3) the same way by both, one that matches it is not."""
    from queries.search.door import hybrid_search
    from queries.search.request import Scope, SearchOptions

    project, owner = f"{prefix}top", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    assert not ingest(
        [
            {
                "entry_id": f"{project}/pan",
                "project_id": project,
                "author": owner,
                "text": "Pilar compró pan en la plaza.",
            },
            {"entry_id": f"{project}/mar", "project_id": project, "author": owner, "text": "Un día de mar en Cádiz."},
        ]
    ).errors
    viewer = Viewer(user_id=owner)
    record, text, _ = ranker.gather(
        graph,
        "pan",
        {"fulltext": [Hit(f"{project}/pan", 1.0)]},
        SoftConstraints(),
        viewer,
        f"{project}/pan",
    )
    assert text == " Pilar compró pan en la plaza." and f"{project}/pan" in record["facts"]
    outsider = Viewer(user_id=f"{prefix}outsider")
    assert (
        ranker.gather(
            graph, "pan", {"fulltext": [Hit(f"{project}/pan", 1.0)]}, SoftConstraints(), outsider, f"{project}/pan"
        )[1]
        is None
    )  # not visible: no text
    for query, expected in (("pan con tomate aceite oliva y ajo", 0.3), ("pan de Pilar en la plaza", 1.0)):
        for fusion in ("learned", "rrf"):
            resp = hybrid_search(
                graph,
                embedder,
                settings,
                viewer,
                query,
                Scope(project_id=project),
                SearchOptions(k=5, explain=True, fusion=fusion, understand=False),
            )
            assert resp.query_understanding is not None
            assert resp.query_understanding["weights"]["fulltext"] == expected, (query, fusion)
