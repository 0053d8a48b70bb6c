"""The learned ranker's evidence from the told clock (queries/search/ranker.py): whether a candidate's text tells a
time, whether one lies within the question's date, and whether the question asks when; read under the visibility
predicate like every other fact."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from graph.db import Graph
from graph.members import set_member
from graph.textnorm import fold
from graph.visibility import Viewer
from queries.search import ranker
from queries.search import ranker_features as rf
from queries.search.fusion import Hit
from queries.search.query_constraints import SoftConstraints
from queries.search.understanding.routing import asks_time

ASKING = [
    "When did Caroline go to the support group?",
    "In what year did Melanie paint the sunrise?",
    "How long ago did they adopt the dog?",
    "¿Cuándo fuimos a Berlín con Pep?",
    "En qué año se vendió el piso",
    "¿Hace cuánto murió el abuelo?",
    "Quand est-ce que nous sommes allés à Lyon ?",
    "Depuis quand Marie habite à Paris ?",
]
NOT_ASKING = [
    "What did dad say when we moved?",
    "lo que dijo papá cuando vendimos el piso",
    "remember when we cried in Berlin",
    "¿Quién vino a la boda?",
    "Qu'a dit maman quand nous sommes partis ?",
]


def test_a_question_asks_when_only_when_its_time_words_lead() -> None:
    assert [q for q in ASKING if not asks_time(fold(q))] == []
    assert [q for q in NOT_ASKING if asks_time(fold(q))] == []


def test_told_facts_are_read_for_visible_candidates_and_weigh_only_a_when_question(
    graph: Graph, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, owner, reader = f"{prefix}told", f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    rows = [
        ("told", "circle", "Ayer fuimos al mercado de Triana con Pep."),
        ("plain", "circle", "El mercado de Triana estaba lleno de gente."),
        ("hidden", "private", "Ayer fui sola al mercado de Triana."),
    ]
    report = ingest(
        [
            {
                "entry_id": f"{project}/{key}",
                "project_id": project,
                "author": owner,
                "intimacy": level,
                "occurred_on": "2024-06-10",
                "text": text,
            }
            for key, level, text in rows
        ]
    )
    assert not report.errors
    hits = {"fulltext": [Hit(f"{project}/{key}", 1.0) for key, _, _ in rows]}
    day = SoftConstraints(date(2024, 6, 9), date(2024, 6, 9))

    def facts(user: str, query: str, soft: SoftConstraints) -> dict[str, dict[str, Any]]:
        record = ranker.gather(graph, query, hits, soft, Viewer(user)).record
        return {i.rsplit("/", 1)[1]: f for i, f in record["facts"].items()}

    seen = facts(reader, "¿Cuándo fuimos al mercado?", SoftConstraints())
    assert set(seen) == {"told", "plain"}, "the private entry gives no fact to a reader"
    assert (seen["told"]["tells"], seen["plain"]["tells"]) == (1.0, 0.0)
    assert seen["told"]["told_in"] == 0.0, "no date in the question: nothing to lie within"
    dated = facts(owner, "el mercado el 9 de junio de 2024", day)
    assert (dated["told"]["told_in"], dated["hidden"]["told_in"], dated["plain"]["told_in"]) == (1.0, 1.0, 0.0)
    assert dated["told"]["date_in"] == 0.0, "written the day after: only the told clock meets the question's date"

    def tells_when(query: str) -> dict[str, float]:
        record = ranker.gather(graph, query, hits, SoftConstraints(), Viewer(reader)).record
        ids, x = rf.build(record, ["fulltext"])
        column = rf.feature_names(["fulltext"]).index("tells_when")
        return {i.rsplit("/", 1)[1]: float(x[n, column]) for n, i in enumerate(ids)}

    asked = tells_when("¿Cuándo fuimos al mercado?")
    assert asked == {"told": 1.0, "plain": 0.0, "hidden": 0.0}, "a candidate without facts (hidden) weighs nothing"
    assert set(tells_when("¿Con quién fuimos al mercado?").values()) == {0.0}


def test_a_day_reaches_two_days_on_the_second_weighing_less(
    graph: Graph, embedder: Any, settings: Any, prefix: str, ingest: Callable[..., Any]
) -> None:
    """A question's day meets entries written that day and the next (1), the day after that (REACHED, a day
    recalled a day or two off, a chat's night past midnight), and no later one; a time told two days on is no told
    match."""
    from queries.search.door import hybrid_search
    from queries.search.query_constraints import date_constraints
    from queries.search.request import Scope, SearchOptions
    from queries.search.understanding import understand

    project, owner = f"{prefix}reach", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    written = {"d0": "2024-06-09", "d1": "2024-06-10", "d2": "2024-06-11", "d3": "2024-06-12"}
    report = ingest(
        [
            {
                "entry_id": f"{project}/{key}",
                "project_id": project,
                "author": owner,
                "occurred_on": day,
                "text": f"Compramos cerezas en el mercado de Triana ({key}).",
            }
            for key, day in written.items()
        ]
        + [
            {
                "entry_id": f"{project}/later",
                "project_id": project,
                "author": owner,
                "occurred_on": "2024-06-20",
                "text": "El 11 de junio de 2024 compramos cerezas en el mercado de Triana.",
            }
        ]
    )
    assert not report.errors
    question = "¿Qué compramos en el mercado el 9 de junio de 2024?"
    now = date(2024, 7, 1)
    soft = SoftConstraints(**date_constraints(understand(question, [], now).temporal, now))
    hits = {"fulltext": [Hit(f"{project}/{key}", 1.0) for key in [*written, "later"]]}
    record = ranker.gather(graph, question, hits, soft, Viewer(owner)).record
    facts = {i.rsplit("/", 1)[1]: f for i, f in record["facts"].items()}
    assert {k: facts[k]["date_in"] for k in written} == {"d0": 1.0, "d1": 1.0, "d2": ranker.REACHED, "d3": 0.0}
    assert facts["later"]["told_in"] == 0.0, "told two days on: within the reach only, no told match"

    answer = hybrid_search(
        graph, embedder, settings, Viewer(owner), question, Scope(project_id=project), SearchOptions(k=10)
    )
    found = {r.entry_id.rsplit("/", 1)[1] for r in answer.results}
    assert {"d0", "d1", "d2"} <= found and "d3" not in found, found
