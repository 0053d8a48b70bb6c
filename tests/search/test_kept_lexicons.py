"""A member's kept lexicon (queries/search/kept_lexicons.py): after writes through the ingest pipeline it is listed
again only for the entities the written entries mention, before or after, and is then the lexicon a full listing
gives, for every role; names only hidden entries carry never enter it, and a name whose last visible mention was
deleted or hidden leaves it. A declaration (a step that does not name entities) lists it in full."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.hash_embedder import HashEmbedder
from graph import analytics_cache
from graph.db import Graph
from graph.entities import upsert_entity
from graph.lexicon import ProjectLexicon
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor
from ingest.records import parse_line
from queries.search import kept_lexicons

ROLES = ("owner", "coauthor", "reader", "writer")  # writer: a reader who wrote private and intimate entries


@pytest.fixture(autouse=True)
def lexicons_kept(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    """The kept lexicon follows the analytics cache's switch, which the suite turns off (tests/conftest.py)."""
    monkeypatch.setattr(analytics_cache, "get_settings", lambda: settings)


@pytest.fixture()
def world(graph: Graph, prefix: str) -> dict[str, Any]:
    project = f"{prefix}lex"
    users = {r: f"{prefix}{r}" for r in ROLES}
    for role in ROLES:
        set_member(graph, project, users[role], "reader" if role == "writer" else role)
    ingestor = Ingestor(graph, CheckedEmbedder(HashEmbedder()), embed=False)
    world = {"project": project, "users": users, "ingestor": ingestor}
    for n in range(12):
        _write(
            world,
            f"e{n:02d}",
            ("owner", "coauthor", "writer")[n % 3],
            ("private", "intimate", "circle", "public")[n % 4],
            ["Pep", "Marta", "Lola", "Quim"][: 1 + n % 3],
        )
    _write(world, "quim", "owner", "circle", ["Quim Soler"])
    _write(world, "lola", "coauthor", "public", ["Lola Vidal"])
    kept_lexicons.clear(graph)
    return world


def _write(world: dict[str, Any], entry: str, role: str, level: str, persons: list[str]) -> None:
    record = {
        "entry_id": f"{world['project']}/{entry}",
        "project_id": world["project"],
        "author": world["users"][role],
        "intimacy": level,
        "text": f"Una tarde con {', '.join(persons)}.",
        "persons": persons,
    }
    report = world["ingestor"].ingest([(1, parse_line(1, json.dumps(record)))])
    assert not report.errors, report.errors


def _shape(lexicon: ProjectLexicon) -> tuple[Any, ...]:
    return (
        sorted((e.id, e.name, e.aliases) for e in lexicon.entities()),
        sorted((k, e.id) for k, e in lexicon.by_key.items()),
    )


def _names(lexicon: ProjectLexicon) -> set[str]:
    return {e.name for e in lexicon.entities()}


@pytest.mark.parametrize("role", ROLES)
def test_a_lexicon_kept_in_part_is_the_lexicon_listed_in_full(graph: Graph, world: dict[str, Any], role: str) -> None:
    project, viewer = world["project"], Viewer(user_id=world["users"][role])
    before = kept_lexicons.lexicon(graph, project, viewer)
    assert {"Quim Soler", "Lola Vidal"} <= _names(before)
    start = dict(kept_lexicons.counters)
    _write(world, "new", "owner", "circle", ["Núria"])
    _write(world, "hidden", "writer", "private", ["Secreto"])
    _write(world, "own", role, "private", ["Mía"])
    _write(world, "quim", "owner", "private", ["Quim Soler"])  # its only mention, re-levelled
    kept = kept_lexicons.lexicon(graph, project, viewer)
    assert kept_lexicons.counters["listed"] == start["listed"]
    assert kept_lexicons.counters["listed_in_part"] == start["listed_in_part"] + 1
    kept_lexicons.clear(graph)
    full = kept_lexicons.lexicon(graph, project, viewer)
    assert _shape(kept) == _shape(full)
    names = _names(kept)
    assert {"Núria", "Mía"} <= names
    assert ("Secreto" in names) == (role == "writer")
    # A delete that takes an entity with it scrubs its id from the steps (graph/forgetting.py): the kept lexicon is
    # listed again in full rather than missing the change.
    start = dict(kept_lexicons.counters)
    assert world["ingestor"].delete(f"{project}/lola")  # its only mention, deleted
    kept = kept_lexicons.lexicon(graph, project, viewer)
    assert kept_lexicons.counters["listed"] == start["listed"] + 1
    assert "Lola Vidal" not in _names(kept) and {"Núria", "Mía"} <= _names(kept)
    assert ("Quim Soler" in names) == (role == "owner")
    assert kept_lexicons.lexicon(graph, project, viewer) is kept  # nothing written since: kept as is


def test_a_declaration_lists_the_lexicon_in_full_and_a_hidden_write_costs_nothing(
    graph: Graph, world: dict[str, Any]
) -> None:
    project, users = world["project"], world["users"]
    viewer = Viewer(user_id=users["reader"])
    kept_lexicons.lexicon(graph, project, viewer)
    start = dict(kept_lexicons.counters)
    _write(world, "hidden", "writer", "private", ["Secreto"])  # moves only the writer's generations
    assert "Secreto" not in _names(kept_lexicons.lexicon(graph, project, viewer))
    assert kept_lexicons.counters == start
    upsert_entity(graph, project, "person", "Pep", ["Pepe"], audience="circle", author_id=users["owner"])
    declared = kept_lexicons.lexicon(graph, project, viewer)
    assert kept_lexicons.counters["listed"] == start["listed"] + 1
    assert any(e.name == "Pep" and "Pepe" in e.aliases for e in declared.entities())
