"""`hybrid_search` on the real Neo4j and embedder: hostile query text, hard filters, channels, fallbacks, scope."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from graph.db import Graph
from graph.entities import upsert_entity
from graph.members import set_member
from graph.settings import Settings
from graph.textnorm import words
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from queries.search.door import hybrid_search
from queries.search.lucene import MAX_TERMS, to_lucene
from queries.search.request import AccessDenied, Filters, Scope, SearchOptions, SearchResponse
from tests.budget import examples

Ingest = Callable[..., IngestReport]
LUCENE_SPECIAL = set('+-!(){}[]^"~*?:\\/&|')
CHANNEL_NAMES = {"dense", "fulltext", "structured", "thread"}
NEUTRAL = "recuerdos de aquel día"  # no name, date or author: the dense channel alone ranks every entry in scope


@pytest.fixture()
def search(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> Callable[..., SearchResponse]:
    def run(
        user: str,
        query: str,
        project: str | None = None,
        *,
        multi: bool = False,
        cfg: Settings | None = None,
        **options: Any,
    ) -> SearchResponse:
        options.setdefault("k", 50)
        return hybrid_search(
            graph,
            embedder,
            cfg or settings,
            Viewer(user_id=user),
            query,
            Scope(project_id=project, multi_project=multi),
            SearchOptions(**options),
        )

    return run


def ids(resp: SearchResponse) -> set[str]:
    return {r.entry_id for r in resp.results}


def make_project(graph: Graph, ingest: Ingest, project: str, owner: str, rows: list[dict[str, Any]]) -> None:
    set_member(graph, project, owner, "owner")
    report = ingest([{"project_id": project, "author": owner, **r} for r in rows])
    assert report.errors == [] and report.written == len(rows)


def fam_ids(family: dict[str, str], *names: str) -> set[str]:
    return {f"{family['project']}/{n}" for n in names}


# --- hostile query text --------------------------------------------------------------------------------------------

HOSTILE = [
    'zanahoria "cádiz',
    "zanahoria (cádiz",
    "zanahoria: cádiz",
    "zanahoria~ cádiz~2",
    "zanahoria \\ cádiz \\",
    "zanahoria AND cádiz",
    "zanahoria OR",
    "NOT zanahoria",
    "AND OR NOT zanahoria",
    "*foo zanahoria",
    "zanahoria?",
    '"zanahoria',
    'zanahoria" "cádiz',
    "title:x zanahoria",
    "body:zanahoria",
    "zanahoria [1 TO 5] {a TO b}",
    "zanahoria^10 +cádiz -papá",
    "zanahoria && cádiz || x !",
    "/zan.*/ zanahoria",
    '"}) MATCH (n) DETACH DELETE n // zanahoria',
    "zanahoria\x00cádiz",
]


@pytest.mark.parametrize("query", HOSTILE)
def test_special_characters_are_searched_as_words(
    family: dict[str, str], search: Callable[..., SearchResponse], query: str
) -> None:
    resp = search(family["owner"], query, family["project"], channels=("fulltext",))
    assert resp.source == "fulltext", "the keyword channel itself matched (not the recency fallback)"
    assert ids(resp) == fam_ids(
        family,
        "owner-private",
        "owner-intimate",
        "other-intimate",
        "owner-circle",
        "other-circle",
        "owner-public",
        "other-public",
    )


@pytest.mark.parametrize(
    "query", ['"', "(", ")", ":", "~", "\\", "*", "?", "&&", "||", "AND", "OR NOT", '"(:~\\*"', "", "   ", "\x00"]
)
def test_query_with_no_usable_words_falls_back_without_error(
    family: dict[str, str], search: Callable[..., SearchResponse], query: str
) -> None:
    resp = search(family["reader"], query, family["project"])
    assert resp.source in {"recency", "dense", "hybrid", "fulltext"}
    assert ids(resp) <= fam_ids(family, "owner-circle", "other-circle", "owner-public", "other-public")


@pytest.mark.parametrize("query", HOSTILE + ["AND", "a OR b", "x:y:z", "\\\\\\", "foo* bar? baz~0.8"])
def test_to_lucene_leaves_no_unescaped_special_character(query: str) -> None:
    out = to_lucene(query)
    assert not set(re.sub(r"\\.", "", out)) & LUCENE_SPECIAL
    tokens = out.split()
    assert not {"AND", "OR", "NOT"} & set(tokens), "operators lose their meaning"
    assert all(t == t.lower() for t in tokens)


def test_to_lucene_keeps_the_words() -> None:
    assert to_lucene('Fuimos a "Cádiz" (con papá): ~ AND') == "fuimos a cádiz con papá and"
    assert to_lucene("a a A b") == "a b"
    assert to_lucene('"()~*:\\') == ""
    assert len(to_lucene(" ".join(f"w{i}" for i in range(200))).split()) == MAX_TERMS


@given(st.text(min_size=1, max_size=200))
@hyp_settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_to_lucene_output_always_parses(graph: Graph, text: str) -> None:
    out = to_lucene(text)
    assert not set(re.sub(r"\\.", "", out)) & LUCENE_SPECIAL
    if out:
        graph.read(
            "CALL db.index.fulltext.queryNodes('entry_text_v2', $q, {limit: 1}) YIELD node RETURN node.id", {"q": out}
        )


# --- hard filters --------------------------------------------------------------------------------------------------


def test_date_range_keeps_only_overlapping_entries(
    graph: Graph, prefix: str, ingest: Ingest, search: Callable[..., SearchResponse]
) -> None:
    project, owner = f"{prefix}dates", f"{prefix}owner"
    make_project(
        graph,
        ingest,
        project,
        owner,
        [
            {"entry_id": f"{project}/year", "occurred_on": "2008", "text": "Aquel año vivimos en Berlín."},
            {"entry_id": f"{project}/day", "occurred_on": "2008-07-15", "text": "Cumpleaños de Marta en Berlín."},
            {"entry_id": f"{project}/season", "occurred_on": "2008-06-21/2008-09-22", "text": "Verano en Berlín."},
            {"entry_id": f"{project}/edge", "occurred_on": "2008-07-31", "text": "Último día de julio en Berlín."},
            {"entry_id": f"{project}/august", "occurred_on": "2008-08-01", "text": "Primer día de agosto en Berlín."},
            {"entry_id": f"{project}/june", "occurred_on": "2008-06", "text": "Junio en Berlín."},
            {"entry_id": f"{project}/later", "occurred_on": "2010-07-10", "text": "Volvimos a Berlín en 2010."},
            {"entry_id": f"{project}/undated", "text": "Berlín sin fecha."},
        ],
    )

    def only(**filters: Any) -> set[str]:
        return ids(search(owner, NEUTRAL, project, channels=("dense",), filters=Filters(**filters)))

    assert len(only()) == 8
    july = {f"{project}/{n}" for n in ("year", "day", "season", "edge")}
    assert only(date_from=date(2008, 7, 1), date_to=date(2008, 7, 31)) == july
    assert only(date_from=date(2009, 1, 1)) == {f"{project}/later"}
    assert only(date_to=date(2008, 6, 30)) == {f"{project}/{n}" for n in ("year", "season", "june")}
    assert only(date_from=date(2008, 7, 12), date_to=date(2008, 7, 12)) == {
        f"{project}/{n}" for n in ("year", "season")
    }
    every = search(owner, "Berlín", project, filters=Filters(date_from=date(2008, 7, 1), date_to=date(2008, 7, 31)))
    assert ids(every) == july, "the same filter holds with every channel"
    assert every.total_candidates == 4


def test_person_filter_by_name_and_alias(
    graph: Graph, prefix: str, ingest: Ingest, search: Callable[..., SearchResponse]
) -> None:
    project, owner = f"{prefix}persons", f"{prefix}owner"
    upsert_entity(graph, project, "person", "Josep", ["papá", "dad"])
    make_project(
        graph,
        ingest,
        project,
        owner,
        [
            {"entry_id": f"{project}/listed", "text": "Paseo por el río.", "persons": ["Josep"]},
            {"entry_id": f"{project}/alias", "text": "Hoy papá cocinó para todos."},
            {"entry_id": f"{project}/marta", "text": "Paseo con Marta por el río.", "persons": ["Marta"]},
            {"entry_id": f"{project}/nobody", "text": "Un paseo a solas por el río."},
        ],
    )
    josep, marta = {f"{project}/listed", f"{project}/alias"}, {f"{project}/marta"}

    def only(**filters: Any) -> set[str]:
        return ids(search(owner, NEUTRAL, project, channels=("dense",), filters=Filters(**filters)))

    assert len(ids(search(owner, NEUTRAL, project, channels=("dense",)))) == 4
    for names in (["papá"], ["Josep"], ["PAPA"], ["dad"]):
        assert only(persons=names) == josep, names
    assert only(persons=["Marta"]) == marta
    assert only(persons=["Josep", "Marta"]) == josep | marta
    assert only(persons=["Nadie"]) == set()
    assert only(person_ids=[f"{project}/person/josep"]) == josep
    assert only(places=["Cádiz"]) == set()
    keyword = search(owner, "paseo por el río", project, filters=Filters(persons=["papá"]))
    assert ids(keyword) <= josep and f"{project}/listed" in ids(keyword)


def test_author_filter(family: dict[str, str], search: Callable[..., SearchResponse]) -> None:
    resp = search(family["owner"], "zanahoria", family["project"], filters=Filters(author_ids=[family["other"]]))
    assert ids(resp) == fam_ids(family, "other-intimate", "other-circle", "other-public")
    assert {r.author_id for r in resp.results} == {family["other"]}
    reader = search(family["reader"], "zanahoria", family["project"], filters=Filters(author_ids=[family["other"]]))
    assert ids(reader) == fam_ids(family, "other-circle", "other-public")


def test_intimacy_max_only_narrows(family: dict[str, str], search: Callable[..., SearchResponse]) -> None:
    full = search(family["owner"], "zanahoria secreta", family["project"])
    assert ids(full) == fam_ids(
        family,
        "owner-private",
        "owner-intimate",
        "other-intimate",
        "owner-circle",
        "other-circle",
        "owner-public",
        "other-public",
    )
    circle = search(family["owner"], "zanahoria secreta", family["project"], filters=Filters(intimacy_max="circle"))
    assert ids(circle) == fam_ids(family, "owner-circle", "other-circle", "owner-public", "other-public")
    assert circle.total_candidates == 4
    public = search(family["owner"], "zanahoria", family["project"], filters=Filters(intimacy_max="public"))
    assert {r.intimacy_level for r in public.results} == {"public"}
    widened = search(family["reader"], "zanahoria", family["project"], filters=Filters(intimacy_max="private"))
    assert ids(widened) == fam_ids(family, "owner-circle", "other-circle", "owner-public", "other-public")


def test_nobody_sees_another_authors_private_entry(
    family: dict[str, str], search: Callable[..., SearchResponse]
) -> None:
    for role in ("owner", "coauthor", "reader", "other"):
        resp = search(family[role], "zanahoria secreta private", family["project"])
        private = {r.entry_id for r in resp.results if r.intimacy_level == "private"}
        assert private <= {f"{family['project']}/{role}-private"}, role


# --- channels ------------------------------------------------------------------------------------------------------

PARACETAMOL = "Tomé paracetamol porque me dolía la cabeza."


def medicine_project(graph: Graph, ingest: Ingest, prefix: str) -> tuple[str, str]:
    project, owner = f"{prefix}dense", f"{prefix}owner"
    make_project(
        graph,
        ingest,
        project,
        owner,
        [
            {"entry_id": f"{project}/pill", "text": PARACETAMOL},
            {"entry_id": f"{project}/beach", "text": "Fuimos a la playa de Cádiz con los primos."},
            {"entry_id": f"{project}/market", "text": "Compré pan y tomates en el mercado del barrio."},
            {"entry_id": f"{project}/car", "text": "El coche se averió en la autopista."},
        ],
    )
    return project, owner


def test_dense_finds_a_paraphrase_without_shared_words(
    graph: Graph, prefix: str, ingest: Ingest, search: Callable[..., SearchResponse]
) -> None:
    project, owner = medicine_project(graph, ingest, prefix)
    query = "medicine for a headache"
    assert not set(words(query)) & set(words(PARACETAMOL)), "no keyword in common"
    dense = search(owner, query, project, channels=("dense",))
    assert dense.results[0].entry_id == f"{project}/pill"
    assert dense.source == "dense"
    assert set(dense.results[0].score_breakdown) == {"dense"}
    keywords = search(owner, query, project, channels=("fulltext",))
    assert keywords.source == "recency", "the keyword channel alone cannot find it"


def test_vector_index_path_agrees_with_exact_scoring(
    graph: Graph, prefix: str, ingest: Ingest, settings: Settings, search: Callable[..., SearchResponse]
) -> None:
    project, owner = medicine_project(graph, ingest, prefix)
    indexed = settings.model_copy(update={"exact_scan_max_chunks": 0})
    # Close paraphrases: the index is shared by every project, so only clear winners are sure to be in its first
    # over-fetch (the next test covers weaker ones behind a bigger project).
    for query in (
        "tomé paracetamol por el dolor de cabeza",
        "la playa de Cádiz con mis primos",
        "se nos averió el coche en la autopista",
    ):
        exact = search(owner, query, project, channels=("dense",))
        via_index = search(owner, query, project, channels=("dense",), cfg=indexed)
        assert via_index.results, query
        assert via_index.results[0].entry_id == exact.results[0].entry_id, query
        assert via_index.results[0].score_breakdown["dense"]["score"] == pytest.approx(
            exact.results[0].score_breakdown["dense"]["score"], abs=1e-3
        )


def test_vector_index_path_is_complete_for_a_small_project_behind_a_big_one(
    graph: Graph, prefix: str, ingest: Ingest, settings: Settings, search: Callable[..., SearchResponse]
) -> None:
    project, owner = medicine_project(graph, ingest, prefix)
    crowd = f"{prefix}crowd"
    twin = "Me dolía muchísimo la cabeza y tomé una aspirina."
    # More near-duplicates of the query than the first over-fetch (10 x 50 candidates) can hold.
    report = ingest([{"entry_id": f"{crowd}/{i}", "project_id": crowd, "text": twin} for i in range(520)])
    assert report.written == 520 and report.chunks_embedded + report.chunks_reused == 520
    indexed = settings.model_copy(update={"exact_scan_max_chunks": 0})
    exact = search(owner, twin, project, channels=("dense",))
    assert len(exact.results) == 4 and exact.results[0].entry_id == f"{project}/pill"
    via_index = search(owner, twin, project, channels=("dense",), cfg=indexed)
    # Complete: the same entries, the same best one. Neo4j's index scores quantised vectors, so two entries whose
    # exact similarities differ in the fourth decimal may swap places.
    assert {r.entry_id for r in via_index.results} == {r.entry_id for r in exact.results}
    assert via_index.results[0].entry_id == exact.results[0].entry_id


def test_results_explain_themselves(family: dict[str, str], search: Callable[..., SearchResponse]) -> None:
    resp = search(family["owner"], "zanahoria Cádiz", family["project"], k=2)
    assert len(resp.results) == 2
    assert resp.total_candidates >= len(resp.results)
    assert resp.total_candidates == 7, "every entry the owner may see is a candidate, and only those"
    assert resp.latency_ms["total"] >= max(v for k, v in resp.latency_ms.items() if k != "total")
    for r in resp.results:
        assert r.score_breakdown and set(r.score_breakdown) <= CHANNEL_NAMES
        assert "fulltext" in r.score_breakdown, "both words are in every entry"
        assert all(v["rank"] >= 1 for v in r.score_breakdown.values())
        assert re.search(r"\*\*(Zanahoria|Cádiz)\*\*", r.snippet_md), r.snippet_md
        assert set(r.highlights) == {"Zanahoria", "Cádiz"}
        assert r.persons == ["Josep"] and r.places == ["Cádiz"]
        assert r.occurred_on == "2008-07-12" and r.occurred_precision == "day"
    assert resp.results[0].score >= resp.results[1].score
    # The family's entries repeat each other's words, so diversification would reorder them, and the learned ranker
    # weighs more than the channel's rank: rank order is checked by RRF without diversification, and with it the same
    # three ranks come back, near-duplicates after the rest.
    dense = search(
        family["owner"],
        "un viaje en familia al sur",
        family["project"],
        channels=("dense",),
        k=3,
        diversify=False,
        fusion="rrf",
    )
    assert all(set(r.score_breakdown) == {"dense"} for r in dense.results)
    assert [r.score_breakdown["dense"]["rank"] for r in dense.results] == [1, 2, 3]
    assert dense.total_candidates == 7
    diverse = search(
        family["owner"], "un viaje en familia al sur", family["project"], channels=("dense",), k=7, fusion="rrf"
    )
    assert sorted(r.score_breakdown["dense"]["rank"] for r in diverse.results) == list(range(1, 8))
    assert diverse.results[0].entry_id == dense.results[0].entry_id


def test_snippet_centres_on_the_match_in_a_long_entry(
    graph: Graph, prefix: str, ingest: Ingest, search: Callable[..., SearchResponse]
) -> None:
    project, owner = f"{prefix}snip", f"{prefix}owner"
    filler = "Nada especial pasó aquel día en la oficina. " * 30
    make_project(
        graph,
        ingest,
        project,
        owner,
        [
            {
                "entry_id": f"{project}/e",
                "kind": "chronicle",
                "text": filler + "Por la tarde vimos un ornitorrinco. " + filler,
            },
        ],
    )
    resp = search(owner, "ornitorrinco", project, channels=("fulltext",), include_chunks=True)
    (hit,) = resp.results
    assert "**ornitorrinco**" in hit.snippet_md
    assert hit.snippet_md.startswith("…") and hit.snippet_md.endswith("…")
    assert len(hit.snippet_md) < 400


def test_recency_fallback_when_nothing_matches(
    graph: Graph, prefix: str, ingest: Ingest, search: Callable[..., SearchResponse]
) -> None:
    project, owner = f"{prefix}recent", f"{prefix}owner"
    make_project(
        graph,
        ingest,
        project,
        owner,
        [
            {"entry_id": f"{project}/old", "occurred_on": "2001-01-01", "text": "Nevó en Madrid."},
            {"entry_id": f"{project}/new", "occurred_on": "2020-05-05", "text": "Comimos churros."},
        ],
    )
    resp = search(owner, "qxzvw blorft", project, channels=("fulltext",))
    assert resp.source == "recency"
    assert [r.entry_id for r in resp.results] == [f"{project}/new", f"{project}/old"]
    assert all(set(r.score_breakdown) == {"recency"} for r in resp.results)
    filtered = search(owner, "qxzvw", project, channels=("fulltext",), filters=Filters(date_to=date(2010, 1, 1)))
    assert [r.entry_id for r in filtered.results] == [f"{project}/old"], "the fallback keeps the filters"


def test_recency_fallback_respects_visibility(family: dict[str, str], search: Callable[..., SearchResponse]) -> None:
    resp = search(family["reader"], "qxzvw blorft", family["project"], channels=("fulltext",))
    assert resp.source == "recency"
    assert ids(resp) == fam_ids(family, "owner-circle", "other-circle", "owner-public", "other-public")


# --- scope ---------------------------------------------------------------------------------------------------------


def test_multi_project_scope(graph: Graph, prefix: str, ingest: Ingest, search: Callable[..., SearchResponse]) -> None:
    user, stranger = f"{prefix}both", f"{prefix}stranger"
    one, two, three = f"{prefix}p1", f"{prefix}p2", f"{prefix}p3"
    make_project(graph, ingest, one, user, [{"entry_id": f"{one}/e", "text": "Excursión al Montseny."}])
    make_project(graph, ingest, two, stranger, [{"entry_id": f"{two}/e", "text": "Excursión a Montserrat."}])
    make_project(graph, ingest, three, stranger, [{"entry_id": f"{three}/e", "text": "Excursión a Collserola."}])
    set_member(graph, two, user, "reader")

    both = search(user, "excursión", multi=True)
    assert ids(both) == {f"{one}/e", f"{two}/e"}
    assert {r.project_id for r in both.results} == {one, two}
    assert ids(search(user, "excursión")) == {f"{one}/e", f"{two}/e"}, "no project means all of the viewer's"
    assert ids(search(user, "excursión", one)) == {f"{one}/e"}
    assert ids(search(user, "excursión", two)) == {f"{two}/e"}
    with pytest.raises(AccessDenied):
        search(user, "excursión", three)
    with pytest.raises(AccessDenied):
        search(user, "excursión", three, multi=True)


def test_non_member_is_denied(family: dict[str, str], search: Callable[..., SearchResponse], prefix: str) -> None:
    with pytest.raises(AccessDenied):
        search(family["outsider"], "zanahoria", family["project"])
    with pytest.raises(AccessDenied):
        search(family["outsider"], "zanahoria", f"{prefix}does-not-exist")
    assert search(family["outsider"], "zanahoria", multi=True).results == []


def test_removed_member_loses_access_at_once(
    graph: Graph, family: dict[str, str], search: Callable[..., SearchResponse]
) -> None:
    from graph.members import remove_member

    assert search(family["reader"], "zanahoria", family["project"]).results
    remove_member(graph, family["project"], family["reader"])
    with pytest.raises(AccessDenied):
        search(family["reader"], "zanahoria", family["project"])


def test_witness_cannot_use_project_search(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    with pytest.raises(AccessDenied):
        hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(witness_period_id="x"),
            "zanahoria",
            Scope(project_id=family["project"]),
            SearchOptions(),
        )
