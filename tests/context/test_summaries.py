"""Per-audience summaries on the real Neo4j: each viewer's variant carries only what they may see, a variant is never
served to a viewer who could not see all it was built from, and writes mark exactly the variants they touch stale."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graph import summaries as gs
from graph.db import Graph
from graph.entries import delete_entry
from graph.ids import period_id
from graph.members import set_member
from graph.summaries import NotMember, audience_for
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.summarise import PERIOD_WORDS, extractive, word_count
from ingest.summary_jobs import Summaries
from tests.summary_world import BERLIN, CADIZ, ENTRIES, MARKERS, build, hidden_markers, record, visible_keys


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, Any]:
    return build(graph, prefix, ingest)


def _as(world: dict[str, Any], key: str) -> Viewer:
    return Viewer(user_id=world["users"][key])


def _row(key: str) -> tuple[Any, ...]:
    return next(r for r in ENTRIES if r[0] == key)


def _variant(graph: Graph, world: dict[str, Any], key: str, period: str | None = None) -> dict[str, Any] | None:
    """The stored variant a viewer would be served, read without rebuilding it."""
    pid = period_id(world["project"], period) if period else None
    aud = audience_for(graph, _as(world, key), world["project"], pid)
    assert aud is not None
    return gs.serve(graph, gs.summary_id(world["project"], pid, aud.base, aud.owner), _as(world, key))


def test_each_viewer_is_served_a_summary_of_exactly_what_they_may_see(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any]
) -> None:
    summaries = Summaries(graph, embedder)
    audiences = {}
    for key in ("owner", "coauthor", "reader"):
        for period in (None, CADIZ, BERLIN):
            pid = period_id(world["project"], period) if period else None
            row = summaries.for_viewer(_as(world, key), world["project"], pid)
            assert row is not None and not row["stale"]
            assert row["entry_count"] == len(visible_keys(key, period)), (key, period, row)
            leaked = [m for m in hidden_markers(key) if m in row["text"]]
            assert not leaked, f"{key}'s summary of {period or 'the project'} carries {leaked}"
            assert row["level"] == (1 if period else 2)
            audiences[key, period] = row["audience"]
    u = world["users"]
    # The owner and the coauthor wrote private entries: a variant of their own; the reader wrote an intimate one.
    assert audiences["owner", None] == f"inner+own:{u['owner']}"
    assert audiences["coauthor", None] == f"inner+own:{u['coauthor']}"
    assert audiences["reader", None] == f"circle+own:{u['reader']}"
    # In Berlin the reader wrote nothing: the shared circle variant; the owner wrote nothing private there either.
    assert audiences["reader", BERLIN] == "circle"
    assert audiences["owner", BERLIN] == "inner"


def test_a_summary_is_linked_to_what_it_summarises_and_the_entries_that_fed_it(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any]
) -> None:
    row = Summaries(graph, embedder).for_viewer(
        _as(world, "reader"), world["project"], period_id(world["project"], BERLIN)
    )
    assert row is not None
    links = graph.read(
        """
        MATCH (s:Summary {id: $id})
        RETURN [(s)-[:SUMMARISES]->(p:Period) | p.id] AS periods, [(s)-[:FED_BY]->(e) | e.id] AS fed,
               size(s.embedding) AS dims, s.embedding_model AS model""",
        {"id": row["id"]},
    )[0]
    assert links["periods"] == [period_id(world["project"], BERLIN)]
    assert sorted(links["fed"]) == sorted(f"{world['project']}/{k}" for k in ("b1", "b3"))
    assert links["dims"] == embedder.dimensions and links["model"] == embedder.model_id
    project = Summaries(graph, embedder).for_viewer(_as(world, "reader"), world["project"], None)
    assert project is not None
    vector = graph.read("MATCH (s:Summary {id: $id}) RETURN s.embedding AS v", {"id": project["id"]})[0]["v"]
    assert vector is None, "only a period's summary is searched by its vector; a project's is not embedded"


def test_a_variant_is_never_served_to_a_viewer_who_cannot_see_all_it_was_built_from(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any]
) -> None:
    summaries = Summaries(graph, embedder)
    coauthor = _as(world, "coauthor")
    inner = summaries.for_viewer(coauthor, world["project"], period_id(world["project"], CADIZ))
    assert inner is not None and inner["audience"] == "inner" and MARKERS["c3"] in inner["text"]
    set_member(graph, world["project"], world["users"]["coauthor"], "reader")  # demoted: no intimate entries now
    assert gs.serve(graph, inner["id"], coauthor) is None
    now = summaries.for_viewer(coauthor, world["project"], period_id(world["project"], CADIZ))
    assert now is not None and now["audience"] == "circle" and MARKERS["c3"] not in now["text"]
    with pytest.raises(NotMember):
        summaries.for_viewer(Viewer(user_id=world["outsider"]), world["project"], None)


def test_a_witness_is_served_the_circle_view_of_their_chapter_and_no_project_summary(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any]
) -> None:
    cadiz = period_id(world["project"], CADIZ)
    witness = Viewer(witness_period_id=cadiz)
    summaries = Summaries(graph, embedder)
    row = summaries.for_viewer(witness, world["project"], cadiz)
    assert row is not None and row["audience"] == "circle"
    assert {MARKERS["c1"], MARKERS["c2"]} <= set(row["text"].replace(".", " ").replace(",", " ").split())
    assert not [m for m in (MARKERS["c3"], MARKERS["c4"], MARKERS["c5"]) if m in row["text"]]
    assert summaries.for_viewer(witness, world["project"], None) is None
    assert summaries.for_viewer(witness, world["project"], period_id(world["project"], BERLIN)) is None


def _stale(graph: Graph, world: dict[str, Any]) -> dict[str, bool]:
    rows = graph.read(
        "MATCH (s:Summary {project_id: $p}) RETURN s.audience AS a, s.period_id AS per, s.stale AS stale",
        {"p": world["project"]},
    )
    return {f"{r['a']}@{(r['per'] or 'project').rsplit('/', 1)[-1]}": r["stale"] for r in rows}


def test_writes_mark_exactly_the_variants_that_admit_the_entry_stale_and_refresh_rebuilds_them(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any], ingest: Callable[..., Any]
) -> None:
    summaries = Summaries(graph, embedder)
    report = summaries.refresh(world["project"])
    u, p = world["users"], world["project"]
    # Both bases everywhere, plus an own variant where an author has entries outside their base: the project 5 (the
    # owner's and coauthor's private, the reader's intimate), Cádiz 4 (owner, reader), Berlin 3 (coauthor); the
    # automatic chapter 2010-05 1 (its one intimate entry: only the inner base admits it).
    assert report.built == 13
    assert not any(_stale(graph, world).values())

    # A private entry of the owner in Berlin: only the owner's own variants of Berlin and the project go stale.
    ingest([record(p, u, ("b4", "owner", "private", BERLIN, "2009-04-01", "Nota privada con campanilla."))])
    stale = {k for k, v in _stale(graph, world).items() if v}
    assert stale == {f"inner+own:{u['owner']}@project"}, stale  # no own variant of Berlin existed yet
    assert summaries.refresh(world["project"]).built == 2  # that one, and the owner's new one of Berlin
    owner_berlin = _variant(graph, world, "owner", BERLIN)
    assert owner_berlin is not None and "campanilla" in owner_berlin["text"]
    assert _variant(graph, world, "reader", BERLIN)["text"].count("campanilla") == 0  # type: ignore[index]

    # An edit of a circle entry: every variant of its period and of the project.
    ingest([record(p, u, _row("b1"), text="Nevaba en Berlín y Pep encontró el piso con estufa y buhardilla.")])
    stale = {k for k, v in _stale(graph, world).items() if v}
    assert stale == {k for k in _stale(graph, world) if k.endswith("@project") or k.endswith("@berlin-2009")}
    summaries.refresh_stale(world["project"])
    assert not any(_stale(graph, world).values())
    assert "buhardilla" in _variant(graph, world, "reader", BERLIN)["text"]  # type: ignore[index]

    # Re-levelled from circle to private: the circle variants drop it.
    ingest(
        [
            record(
                p,
                u,
                _row("b1"),
                text="Nevaba en Berlín y Pep encontró el piso con estufa y buhardilla.",
                intimacy="private",
            )
        ]
    )
    assert _stale(graph, world)["circle@berlin-2009"] is True
    reader_berlin = Summaries(graph, embedder).for_viewer(_as(world, "reader"), p, period_id(p, BERLIN))
    assert reader_berlin is not None and "buhardilla" not in reader_berlin["text"]
    assert reader_berlin["entry_count"] == 1 and not reader_berlin["stale"]

    # Deleted: the variants it fed are removed with it (their text quoted it), to be built again without it.
    summaries.refresh_stale(world["project"])
    fed = graph.read(
        "MATCH (s:Summary)-[:FED_BY]->(:Entry {id: $id}) RETURN collect(s.audience) AS a", {"id": f"{p}/b3"}
    )
    assert "circle" in fed[0]["a"] and _stale(graph, world)["circle@berlin-2009"] is False
    assert delete_entry(graph, f"{p}/b3")
    after = _stale(graph, world)
    assert "circle@berlin-2009" not in after and "circle@project" not in after
    reader_berlin = summaries.for_viewer(_as(world, "reader"), p, period_id(p, BERLIN))
    assert reader_berlin is not None and MARKERS["b3"] not in reader_berlin["text"]


def test_what_a_reader_is_served_does_not_change_when_entries_hidden_from_them_change(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any], ingest: Callable[..., Any]
) -> None:
    summaries = Summaries(graph, embedder)
    summaries.refresh(world["project"])
    p, u = world["project"], world["users"]
    reader = _as(world, "reader")

    def seen() -> list[Any]:
        return [summaries.for_viewer(reader, p, pid) for pid in (None, period_id(p, CADIZ), period_id(p, BERLIN))]

    before = seen()
    ingest([record(p, u, _row("c3"), text="Papá lloró otra vez en el puerto, con el acordeón y un farol.")])
    ingest([record(p, u, ("x1", "coauthor", "intimate", CADIZ, "2008-07-30", "Una pena íntima con trompeta."))])
    assert delete_entry(graph, f"{p}/b2")
    assert seen() == before  # text, producer, generated_at, counts: all the same


def test_the_extractive_summary_keeps_names_and_dates_in_date_order_within_its_budget() -> None:
    entries = [
        {
            "id": f"e{i}",
            "occurred_on": f"2008-07-{10 + i:02d}",
            "persons": ["Marta"],
            "places": ["Cádiz"],
            "text": f"Día {i} en Cádiz con Marta. Comimos pescado frito número {i}. Comimos pescado frito número "
            f"{i}. " + "Relleno sin interés alguno que repite cosas. " * 3,
        }
        for i in range(30)
    ]
    text = extractive(entries, PERIOD_WORDS)
    assert word_count(text) <= PERIOD_WORDS
    assert "Marta" in text and "Cádiz" in text and "2008-07-10" in text
    dates = [w.rstrip(":") for w in text.split() if w.startswith("2008-07-")]
    assert dates == sorted(dates) and len(dates) == len(set(dates))
    assert text.count("Comimos pescado frito número 3.") <= 1  # near-duplicates removed
    assert extractive([], 100) == ""


@pytest.mark.parametrize("first", ["one by one", "together"])
def test_many_periods_at_once_are_served_as_each_alone(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any], first: str
) -> None:
    """`for_viewer_many` (a chapter's theme matched against every period) serves each viewer the very variant
    `for_viewer` serves, whichever builds it first; an outsider is refused as by `for_viewer`."""
    summaries = Summaries(graph, embedder)
    project = world["project"]
    periods = [period_id(project, p) for p in (CADIZ, BERLIN)]
    for key in ("owner", "coauthor", "reader"):
        viewer = _as(world, key)
        assert gs.audiences_for(graph, viewer, project, periods) == {
            p: audience_for(graph, viewer, project, p) for p in periods
        }, key
        if first == "one by one":
            alone = {p: summaries.for_viewer(viewer, project, p) for p in periods}
            together = summaries.for_viewer_many(viewer, project, periods)
        else:
            together = summaries.for_viewer_many(viewer, project, periods)
            alone = {p: summaries.for_viewer(viewer, project, p) for p in periods}
        assert together == alone, key
        assert all(
            not row["stale"] and row["entry_count"] == len(visible_keys(key, name))
            for name, row in zip((CADIZ, BERLIN), (together[p] for p in periods), strict=True)
        ), key
    with pytest.raises(NotMember):
        summaries.for_viewer_many(Viewer(user_id=f"{world['users']['reader']}-outsider"), project, periods)
