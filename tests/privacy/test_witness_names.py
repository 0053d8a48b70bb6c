"""A witness sees only `public` declarations: a circle entry of their chapter linked through a name or alias declared
for members shows them neither the declared name nor a match on its aliases (ingest/pipeline.py `_witness_view`,
graph/visibility.py `mention_seen`, graph/keyword_terms.py `VIEWER_*`). Members keep those links.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import auth
from api.app import Services, create_app
from api.cli import main
from graph.db import Graph
from graph.entities import upsert_entity
from graph.entries import get_visible_entry
from graph.ids import period_id
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from graph.witnesses import create_grant
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

CHAPTER = "Berlín 2008"
TEXT = "Tomi nos llevó a la estación en su coche viejo."


@pytest.fixture()
def api(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> Iterator[TestClient]:
    uncached = settings.model_copy(update={"search_cache_seconds": 0.0})
    with TestClient(create_app(Services(uncached, graph=graph, embedder=embedder))) as client:
        yield client


def _world(graph: Graph, prefix: str, ingest: Callable[..., IngestReport], audience: str) -> dict[str, str]:
    """A circle entry of a chapter that says "Tomi", declared (for `audience`) as Tomás alias "capitán rojo"."""
    project = f"{prefix}p"
    owner, reader = f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    upsert_entity(graph, project, "person", "Tomás", ["Tomi", "capitán rojo"], audience=audience, author_id=owner)
    assert not ingest(
        [
            {
                "entry_id": f"{project}/e",
                "project_id": project,
                "author": owner,
                "intimacy": "circle",
                "period": CHAPTER,
                "occurred_on": "2008-02-03",
                "text": TEXT,
            }
        ]
    ).errors
    grant = create_grant(graph, project, period_id(project, CHAPTER), owner, timedelta(days=1))
    assert grant is not None
    return {"project": project, "owner": owner, "reader": reader, "grant": grant, "entry": f"{project}/e"}


def _keyword(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, viewer: Viewer, query: str, project: str | None
) -> list[str]:
    scope = Scope(project_id=project) if project else Scope()
    resp = hybrid_search(
        graph,
        embedder,
        settings.model_copy(update={"search_cache_seconds": 0.0}),
        viewer,
        query,
        scope,
        SearchOptions(k=10, channels=("fulltext", "structured")),
        project_ids=[project] if viewer.is_witness and project else None,
    )
    # The recency fallback answers a search no channel matched: only what a channel found counts here.
    return [r.entry_id for r in resp.results if {"fulltext", "structured"} & set(r.score_breakdown)]


def test_a_witness_neither_sees_nor_matches_names_declared_for_members(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    api: TestClient,
    prefix: str,
    ingest: Callable[..., IngestReport],
) -> None:
    w = _world(graph, prefix, ingest, "circle")
    witness = Viewer(witness_period_id=period_id(w["project"], CHAPTER))
    reader = Viewer(user_id=w["reader"])

    # Members: the entry is linked to Tomás, and his alias finds it by keyword and by the person.
    assert get_visible_entry(graph, reader, w["entry"])["persons"] == ["Tomás"]  # type: ignore[index]
    for query in ("capitan rojo", "Tomás"):
        assert _keyword(graph, embedder, settings, reader, query, w["project"]) == [w["entry"]], query

    # The witness reads the entry, but not who the circle declaration says Tomi is.
    row = get_visible_entry(graph, witness, w["entry"])
    assert row is not None and row["persons"] == []
    for query in ("capitan rojo", "Tomás", "tomas capitan"):
        assert _keyword(graph, embedder, settings, witness, query, w["project"]) == [], query
    assert _keyword(graph, embedder, settings, witness, "estación coche", w["project"]) == [w["entry"]]

    # The same through the witness's link.
    token = auth.issue_witness(settings, w["grant"], 3600)
    got = api.get(f"/v1/w/{token}/entries/{w['entry']}").json()
    assert got["read_only"]["linked"]["persons"] == []
    found = api.post(f"/v1/w/{token}/search", json={"q": "capitán rojo", "k": 10}).json()
    shown = json.dumps(found, ensure_ascii=False)
    assert "Tomás" not in shown and "capit" not in shown.replace(found.get("query", ""), "")
    for r in found["results"]:
        assert "fulltext" not in r["score_breakdown"] and "structured" not in r["score_breakdown"]


def test_a_public_declaration_links_for_witnesses_too(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Callable[..., IngestReport]
) -> None:
    w = _world(graph, prefix, ingest, "public")
    witness = Viewer(witness_period_id=period_id(w["project"], CHAPTER))
    row = get_visible_entry(graph, witness, w["entry"])
    assert row is not None and row["persons"] == ["Tomás"]
    assert _keyword(graph, embedder, settings, witness, "capitan rojo", w["project"]) == [w["entry"]]


def test_what_a_witness_sees_does_not_depend_on_declarations_for_members(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    api: TestClient,
    prefix: str,
    ingest: Callable[..., IngestReport],
) -> None:
    """The witness's view of a project with the circle declaration equals that of a project without it."""
    views: list[Any] = []
    for n, declare in enumerate((True, False)):
        project = f"{prefix}p{n}"
        owner = f"{prefix}owner"
        set_member(graph, project, owner, "owner")
        if declare:
            upsert_entity(graph, project, "person", "Tomás", ["Tomi", "capitán rojo"], author_id=owner)
        assert not ingest(
            [
                {
                    "entry_id": f"{project}/e",
                    "project_id": project,
                    "author": owner,
                    "intimacy": "circle",
                    "period": CHAPTER,
                    "occurred_on": "2008-02-03",
                    "text": TEXT,
                }
            ]
        ).errors
        grant = create_grant(graph, project, period_id(project, CHAPTER), owner, timedelta(days=1))
        assert grant is not None
        token = auth.issue_witness(settings, grant, 3600)
        view = {"entry": api.get(f"/v1/w/{token}/entries/{project}/e").json()}
        for q in ("capitán rojo", "Tomás", "Tomi en la estación"):
            body = api.post(f"/v1/w/{token}/search", json={"q": q, "k": 10}).json()
            body.pop("latency_ms", None)
            body.pop("search_id", None)
            view[q] = body
        for stamp in ("created_at", "updated_at"):
            view["entry"]["read_only"].pop(stamp)
        views.append(json.loads(json.dumps(view, ensure_ascii=False).replace(project, "<project>")))
    from tests.privacy.test_property_invariance import changed_paths

    assert views[0] == views[1], changed_paths(views[0], views[1])


def test_an_alias_declared_for_members_of_a_publicly_declared_person_is_not_a_witness_match(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Callable[..., IngestReport]
) -> None:
    """Tomás is declared in public with "Tomi", and for members also as "capitán rojo": the witness sees the public
    link, but neither finds an entry by the members' alias nor counts its occurrences."""
    project, owner, reader = f"{prefix}p", f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    upsert_entity(graph, project, "person", "Tomás", ["Tomi"], audience="public", author_id=owner)
    upsert_entity(graph, project, "person", "Tomás", ["capitán rojo"], audience="circle", author_id=owner)
    base = {
        "project_id": project,
        "author": owner,
        "intimacy": "circle",
        "period": CHAPTER,
        "occurred_on": "2008-02-03",
    }
    assert not ingest(
        [
            {**base, "entry_id": f"{project}/e", "text": TEXT},
            {**base, "entry_id": f"{project}/twice", "text": "Tomi, el capitán rojo, conducía de noche."},
        ]
    ).errors
    witness = Viewer(witness_period_id=period_id(project, CHAPTER))
    row = get_visible_entry(graph, witness, f"{project}/e")
    assert row is not None and row["persons"] == ["Tomás"]
    assert f"{project}/e" in _keyword(graph, embedder, settings, Viewer(user_id=reader), "capitan rojo", project)
    assert f"{project}/e" not in _keyword(graph, embedder, settings, witness, "capitan rojo", project)
    assert f"{project}/e" in _keyword(graph, embedder, settings, witness, "Tomi", project)
    counts = graph.read(
        "MATCH (:Entry {id: $id})-[m:MENTIONS]->() RETURN m.count AS n, m.witness_count AS w",
        {"id": f"{project}/twice"},
    )
    assert [(r["n"], r["w"]) for r in counts] == [(2, 1)]


def test_migrate_re_derives_entries_written_before_their_witness_view(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    prefix: str,
    capsys: pytest.CaptureFixture[str],
    ingest: Callable[..., IngestReport],
) -> None:
    """An entry stored as ingest wrote it before witness views existed (no flags, no `w_*`, no marker, another
    hash) shows the witness the members' name until `memora migrate` re-derives it; afterwards it is marked."""
    w = _world(graph, prefix, ingest, "circle")
    graph.write(
        """
        MATCH (e:Entry {id: $id})-[m:MENTIONS]->()
        REMOVE m.witness_hidden, m.witness_count, e.w_names, e.w_ft_terms, e.w_ft_len, e.witness_view
        SET e.content_hash = 'as written before'""",
        {"id": w["entry"]},
    )
    witness = Viewer(witness_period_id=period_id(w["project"], CHAPTER))
    assert get_visible_entry(graph, witness, w["entry"])["persons"] == ["Tomás"]  # type: ignore[index]

    assert main(["migrate", "--json"]) == 0
    done = json.loads(capsys.readouterr().out)["witness_views"]
    assert done["examined"] >= 1 and done["rewritten"] >= 1
    assert get_visible_entry(graph, witness, w["entry"])["persons"] == []  # type: ignore[index]
    assert (
        _keyword(
            graph,
            embedder,
            settings,
            Viewer(witness_period_id=period_id(w["project"], CHAPTER)),
            "capitan rojo",
            w["project"],
        )
        == []
    )
    marked = graph.read("MATCH (e:Entry {id: $id}) RETURN e.witness_view AS v", {"id": w["entry"]})
    assert marked[0]["v"] == 1  # examined once: the next migrate leaves it alone
