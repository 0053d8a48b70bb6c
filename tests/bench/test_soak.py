"""Under load, shortened for `make test`: 4 clients for 20 s through a real HTTP server on loopback and the
real Neo4j, with the same code as `bench/soak.py` (whose full run is in docs/BENCHMARKS.md)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import pytest

from api.app import Services, create_app
from api.ratelimit import UNLIMITED
from bench.serving import served_in_thread
from bench.soak import Cast, Ledger, Soak, State, make_cast, seed_cast
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search.door import hybrid_search
from queries.search.ranker import CANDIDATE_FACTS
from queries.search.request import Scope, SearchOptions
from tests.conftest import SUMMARY

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

CLIENTS, SECONDS = 4, 20
MIN_RESULTS, MAX_SECONDS = 60, 120
"""A loaded machine (other jobs on 2 cores) may serve a few dozen requests in 20 s: the soak then goes on until it
has judged MIN_RESULTS search results, up to MAX_SECONDS."""


def test_a_soak_loses_no_acknowledged_write_and_leaks_nothing(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, prefix: str
) -> None:
    cast = make_cast(prefix)
    seed_cast(graph, cast)
    app = create_app(Services(settings.model_copy(update=UNLIMITED), graph=graph, embedder=embedder))
    with served_in_thread(app) as url:
        soak = Soak(
            url,
            settings,
            cast,
            clients=CLIENTS,
            seconds=SECONDS,
            seed=13,
            min_results=MIN_RESULTS,
            max_seconds=MAX_SECONDS,
        )
        soak.run()
    report = soak.verify(graph)
    figures = report.figures()
    p95 = ", ".join(f"{kind} {k['p95_ms']}" for kind, k in figures["per_kind"].items() if k["requests"])
    SUMMARY.append(f"soak: {report.table().splitlines()[0]}; p95 ms: {p95}")
    assert report.server_errors == 0, report.table()
    assert not report.unexpected, report.table()
    assert not report.problems, report.table()
    assert not report.leaks, report.table()
    assert report.uncertain == 0, "with no 5xx every write has a known outcome"
    assert all(k["requests"] > 0 for k in figures["per_kind"].values()), figures
    assert report.results_checked > 50, "searches found entries to judge"
    stored = graph.read("MATCH (e:Entry) WHERE e.project_id IN $p RETURN count(e) AS n", {"p": list(cast.projects)})
    live = sum(1 for _, _, final, _ in soak.ledger.expected_final() if final is not None)
    assert stored[0]["n"] == live > 0


def _judge(cast: Cast, ledger: Ledger, viewer: str, result: dict[str, str], t0: float, t1: float) -> list[str]:
    soak = Soak("http://127.0.0.1:9", Settings(secret="x"), cast, clients=0, seconds=0)
    soak.ledger = ledger
    soak._judge(viewer, "q", result, t0, t1)  # noqa: SLF001 - the judge itself is under test
    return soak.report.leaks


def test_the_judge_accepts_either_state_of_a_write_in_flight_and_nothing_else() -> None:
    """The oracle side of the soak: a reader may get an entry re-levelled to private only while that write is in
    flight, and an owner never gets a coauthor's private entry."""
    cast = make_cast("j-")
    author, project = cast.writers[2]  # a coauthor of project a
    reader, owner = cast.readers[0][0], cast.writers[0][0]
    ledger = Ledger()
    entry = f"{project}/e1"
    Ledger.end(ledger.begin(entry, author, project, State("t", "circle")), 201)
    after_create = time.monotonic()
    relevel = ledger.begin(entry, author, project, State("t", "private"))
    seen_circle = {"entry_id": entry, "intimacy_level": "circle", "author_id": author}
    assert _judge(cast, ledger, reader, seen_circle, after_create, time.monotonic()) == []
    Ledger.end(relevel, 200)
    later = time.monotonic() + 1
    assert _judge(cast, ledger, reader, seen_circle, later, later + 1), "circle after the private write was acked"
    seen_private = {**seen_circle, "intimacy_level": "private"}
    assert _judge(cast, ledger, owner, seen_private, after_create, later), "the owner never sees a private entry"
    assert _judge(cast, ledger, author, seen_private, later, later + 1) == [], "its author does"
    assert _judge(cast, ledger, reader, {**seen_circle, "entry_id": f"{project}/nobody"}, later, later + 1)


class _DeletesBeforeTopText(Graph):
    """The real graph, with a concurrent delete landing between the keyword channel and the top hit's text read with
    the candidates' facts (under either fusion: relevance reads them too)."""

    victim = ""
    statement = ""

    def read(self, query: str, params: Mapping[str, Any] | None = None) -> list[Any]:
        top = (params or {}).get("top_id") if query == CANDIDATE_FACTS else None
        if top is not None and not self.victim:
            self.victim, self.statement = top, query
            self.write("MATCH (e:Entry {id: $id}) DETACH DELETE e", {"id": self.victim})
        return super().read(query, params)


@pytest.mark.parametrize(
    ("fusion", "channels", "statement"),
    [
        ("learned", ("fulltext",), CANDIDATE_FACTS),
        ("learned", ("dense", "fulltext"), CANDIDATE_FACTS),
        ("rrf", ("fulltext",), CANDIDATE_FACTS),
        ("rrf", ("dense", "fulltext"), CANDIDATE_FACTS),
    ],
)
def test_a_search_racing_a_delete_of_its_top_keyword_hit_answers_without_it(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    prefix: str,
    ingest: Any,
    fusion: str,
    channels: tuple[str, ...],
    statement: str,
) -> None:
    """Found by the soak: the keyword channel's top entry deleted before its text was read made the search a 500.
    With the dense channel too, the learned fusion reads the text in the statement that also runs the thread."""
    project, user = f"{prefix}race", f"{prefix}ana"
    set_member(graph, project, user, "owner")
    ingest(
        [
            {
                "entry_id": f"{project}/e{i}",
                "project_id": project,
                "author": user,
                "text": f"El tren de la abuela número {i} llegó tarde.",
            }
            for i in range(3)
        ]
    )
    racing = _DeletesBeforeTopText(graph.driver, graph.database)
    query = "tren abuela" if channels == ("fulltext",) else "¿qué día llegó tarde el tren de la abuela?"
    resp = hybrid_search(
        racing,
        embedder,
        settings,
        Viewer(user_id=user),
        query,
        Scope(project_id=project),
        SearchOptions(k=5, channels=channels, fusion=fusion),
    )
    ids = [r.entry_id for r in resp.results]
    assert racing.victim.startswith(project) and racing.victim not in ids and len(ids) == 2
    assert racing.statement == statement
