"""The golden privacy tests of the retrieval design (section 6), run through the real search door on Neo4j.

For each viewer, every read path (search results, total_candidates, get-entry) must show exactly the entries an
independent Python reading of the rule allows, and nothing about the others.
"""

from __future__ import annotations

import pytest

from graph.db import Graph
from graph.entries import get_visible_entry
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search.door import hybrid_search
from queries.search.request import AccessDenied, Filters, Scope, SearchOptions

LEVELS = ("private", "intimate", "circle", "public")


def expected(viewer_key: str, author_key: str, level: str) -> bool:
    """The rule of docs/architecture.md ("Privacy: who sees what"), written independently of the Cypher
    predicate."""
    roles = {"owner": "owner", "coauthor": "coauthor", "reader": "reader", "other": "coauthor"}
    role = roles.get(viewer_key)
    if role is None:
        return False
    if level == "private":
        return viewer_key == author_key
    if level == "intimate":
        return viewer_key == author_key or role in ("owner", "coauthor")
    return True


def _visible_ids(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    user: str,
    project: str,
    query: str = "zanahoria secreta Cádiz papá",
    **filters: object,
) -> tuple[set[str], int]:
    resp = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=user),
        query,
        Scope(project_id=project),
        SearchOptions(k=50, filters=Filters(**filters)),
    )  # type: ignore[arg-type]
    return {r.entry_id for r in resp.results}, resp.total_candidates


@pytest.mark.parametrize("viewer_key", ["owner", "coauthor", "reader", "other"])
def test_search_and_count_show_exactly_what_the_rule_allows(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str], viewer_key: str
) -> None:
    project = family["project"]
    allowed = {f"{project}/{a}-{lvl}" for a in ("owner", "other") for lvl in LEVELS if expected(viewer_key, a, lvl)}
    seen, total = _visible_ids(graph, embedder, settings, family[viewer_key], project)
    assert seen == allowed
    assert total == len(allowed)
    for author in ("owner", "other"):
        for level in LEVELS:
            entry_id = f"{project}/{author}-{level}"
            row = get_visible_entry(graph, Viewer(user_id=family[viewer_key]), entry_id)
            assert (row is not None) == expected(viewer_key, author, level), entry_id


def test_owner_sees_own_private(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    seen, _ = _visible_ids(graph, embedder, settings, family["owner"], family["project"])
    assert f"{family['project']}/owner-private" in seen
    assert f"{family['project']}/other-private" not in seen


def test_coauthor_never_sees_others_private_but_sees_intimate(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    seen, total = _visible_ids(graph, embedder, settings, family["coauthor"], family["project"])
    assert not any(e.endswith("-private") for e in seen)
    assert {f"{family['project']}/owner-intimate", f"{family['project']}/other-intimate"} <= seen
    assert total == 6


def test_reader_sees_only_circle_and_public(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    seen, total = _visible_ids(graph, embedder, settings, family["reader"], family["project"])
    assert {e.rsplit("-", 1)[1] for e in seen} == {"circle", "public"}
    assert total == 4


def test_non_member_is_refused_and_sees_nothing(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    with pytest.raises(AccessDenied):
        _visible_ids(graph, embedder, settings, family["outsider"], family["project"])
    resp = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=family["outsider"]),
        "zanahoria",
        Scope(multi_project=True),
        SearchOptions(),
    )
    assert resp.results == [] and resp.total_candidates == 0
    row = get_visible_entry(graph, Viewer(user_id=family["outsider"]), f"{family['project']}/owner-public")
    assert row is None


def test_private_entry_is_not_counted_even_when_only_it_matches(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str], ingest: object
) -> None:
    project = family["project"]
    report = ingest(
        [
            {  # type: ignore[operator]
                "entry_id": f"{project}/only-private",
                "project_id": project,
                "author": family["owner"],
                "intimacy": "private",
                "text": "Xilófono azul escondido bajo la cama de Lavapiés.",
            }
        ]
    )
    assert report.written == 1
    for viewer_key in ("coauthor", "reader", "other"):
        resp = hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=family[viewer_key]),
            "xilófono azul",
            Scope(project_id=project),
            SearchOptions(channels=("fulltext",)),
        )
        assert f"{project}/only-private" not in {r.entry_id for r in resp.results}
        assert all("Xilófono" not in r.snippet_md for r in resp.results)
        assert resp.total_candidates == len(resp.results)
    owner = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=family["owner"]),
        "xilófono azul",
        Scope(project_id=project),
        SearchOptions(channels=("fulltext",)),
    )
    assert owner.results[0].entry_id == f"{project}/only-private"


def test_intimacy_max_only_narrows(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    seen, _ = _visible_ids(graph, embedder, settings, family["reader"], family["project"], intimacy_max="private")
    assert {e.rsplit("-", 1)[1] for e in seen} == {"circle", "public"}
    seen, _ = _visible_ids(graph, embedder, settings, family["owner"], family["project"], intimacy_max="circle")
    assert {e.rsplit("-", 1)[1] for e in seen} == {"circle", "public"}


def test_role_change_and_removal_take_effect_on_the_next_query(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    from graph.members import remove_member, set_member

    project = family["project"]
    set_member(graph, project, family["coauthor"], "reader")
    seen, _ = _visible_ids(graph, embedder, settings, family["coauthor"], project)
    assert not any(e.endswith("-intimate") for e in seen)
    remove_member(graph, project, family["coauthor"])
    with pytest.raises(AccessDenied):
        _visible_ids(graph, embedder, settings, family["coauthor"], project)


def test_witness_sees_only_circle_and_public_of_their_chapter(
    graph: Graph, family: dict[str, str], ingest: object
) -> None:
    from graph.ids import period_id

    project = family["project"]
    rows = [
        {
            "entry_id": f"{project}/ch-{lvl}",
            "project_id": project,
            "author": family["owner"],
            "intimacy": lvl,
            "period": "Berlín 2008",
            "text": f"Capítulo de Berlín, nivel {lvl}.",
        }
        for lvl in LEVELS
    ]
    rows.append(
        {
            "entry_id": f"{project}/elsewhere",
            "project_id": project,
            "author": family["owner"],
            "intimacy": "public",
            "period": "Madrid",
            "text": "Otro capítulo.",
        }
    )
    ingest(rows)  # type: ignore[operator]
    witness = Viewer(witness_period_id=period_id(project, "Berlín 2008"))
    visible = {eid for eid in [r["entry_id"] for r in rows] if get_visible_entry(graph, witness, eid) is not None}
    assert visible == {f"{project}/ch-circle", f"{project}/ch-public"}
