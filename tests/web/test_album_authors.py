"""Authors by name on the album's pages: a member the owner said is a person of the diary shows as that person (the
entry's page, the timeline, a person's page), a witness's account under the name its link was given, anyone else by
their id; a witness never learns who a member is."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from urllib.parse import quote

from api.actions.authors import author_names
from api.services import Services
from graph.db import Graph
from graph.entities import upsert_entity
from graph.ids import entity_id, period_id
from graph.member_people import link
from graph.settings import Settings
from graph.visibility import Viewer
from graph.witnesses import create_grant
from inference.embedders import CheckedEmbedder
from ingest.pipeline import WITNESS_AUTHOR_PREFIX
from ingest.relink import relink_project
from tests.web_world import CHAPTER, WebWorld, add_chapter, signed_in

AUTHOR = re.compile(r'<span class="author">([^<]*)</span>')


def _accounts(graph: Graph, world: WebWorld, ingest: Callable[..., Any]) -> tuple[str, str]:
    """Two witnesses' accounts in the owner's chapter: one through a link named "Tía Rosa", one through a link with
    no name; returns their author ids."""
    add_chapter(world, ingest)
    named, unnamed = (
        create_grant(graph, world.project, period_id(world.project, CHAPTER), world.users["owner"], timedelta(1), n)
        for n in ("Tía Rosa", None)
    )
    assert named and unnamed
    authors = (f"{WITNESS_AUTHOR_PREFIX}{named}", f"{WITNESS_AUTHOR_PREFIX}{unnamed}")
    rows = [
        {
            "entry_id": f"{world.project}/account-{n}",
            "project_id": world.project,
            "author": author,
            "kind": "witness",
            "intimacy": "circle",
            "period": CHAPTER,
            "occurred_on": "2007-04-20",
            "text": f"Yo también estaba en Sevilla, cuenta{n}.",
        }
        for n, author in enumerate(authors)
    ]
    assert not ingest(rows).errors
    return authors


def _the_owner_is_ana(graph: Graph, world: WebWorld, embedder: CheckedEmbedder) -> None:
    upsert_entity(graph, world.project, "person", "Ana")
    person = entity_id(world.project, "person", "Ana")
    assert link(graph, world.project, world.users["owner"], person, world.users["owner"]) is not None
    relink_project(graph, embedder, world.project)


def _authors(html: str) -> list[str]:
    return AUTHOR.findall(html)


def test_a_linked_member_shows_as_their_person_on_every_page_that_lists_entries(
    served: str, world: WebWorld, graph: Graph, embedder: CheckedEmbedder
) -> None:
    owner, coauthor = world.users["owner"], world.users["coauthor"]
    reader = signed_in(served, world.users["reader"])
    mine = quote(world.entry_ids[("owner", "circle")], safe="/")
    theirs = quote(world.entry_ids[("coauthor", "circle")], safe="/")
    assert _authors(reader.get(f"/e/{mine}").text) == [owner], "nobody is anybody yet"
    _the_owner_is_ana(graph, world, embedder)
    assert _authors(reader.get(f"/e/{mine}").text) == ["Ana"]
    assert _authors(reader.get(f"/e/{theirs}").text) == [coauthor], "an unlinked member shows by their id"
    timeline = reader.get(f"/p/{world.project}/timeline", params={"year": 2005}).text
    assert _authors(timeline) and set(_authors(timeline)) == {"Ana"}, "the owner's entries of 2005"
    person = reader.get(f"/p/{world.project}/entity", params={"name": "Marta"})
    assert person.status_code == 200
    assert set(_authors(person.text)) == {"Ana", coauthor}
    assert owner not in _authors(person.text)
    found = reader.get(f"/p/{world.project}", params={"q": "el viaje en tren a Cádiz con Marta"}).text
    assert "Ana" in _authors(found) and owner not in _authors(found), "search results"
    home = reader.get(f"/p/{world.project}").text
    assert "Ana" in _authors(home) and owner not in _authors(home), "the project's home"
    chapter = reader.get(f"/p/{world.project}/chapters", params={"theme": "el viaje en tren a Cádiz", "words": 300})
    assert "Ana" in _authors(chapter.text) and owner not in _authors(chapter.text), "a chapter's entries"


def test_a_witness_account_shows_its_witness_name_and_an_unnamed_one_says_a_witness(
    served: str, world: WebWorld, graph: Graph, ingest: Callable[..., Any]
) -> None:
    named, unnamed = _accounts(graph, world, ingest)
    reader = signed_in(served, world.users["reader"])
    timeline = reader.get(f"/p/{world.project}/timeline", params={"year": 2007, "lang": "en"}).text
    shown = _authors(timeline)
    assert "Tía Rosa" in shown and "a witness" in shown, shown
    assert not any(a.startswith(WITNESS_AUTHOR_PREFIX) for a in shown)
    page = reader.get(f"/e/{quote(f'{world.project}/account-0', safe='/')}").text
    assert _authors(page) == ["Tía Rosa"]
    assert named != unnamed


def test_author_names_follow_what_the_viewer_may_know(
    world: WebWorld, graph: Graph, settings: Settings, embedder: CheckedEmbedder, ingest: Callable[..., Any]
) -> None:
    named, unnamed = _accounts(graph, world, ingest)
    _the_owner_is_ana(graph, world, embedder)
    svc = Services(settings, graph=graph, embedder=embedder)
    owner, coauthor, reader = (world.users[r] for r in ("owner", "coauthor", "reader"))
    everyone = [owner, coauthor, named, unnamed]
    names = author_names(svc, Viewer(user_id=reader), world.project, everyone)
    assert names == {owner: "Ana", coauthor: coauthor, named: "Tía Rosa"}
    witness = Viewer(witness_period_id=period_id(world.project, CHAPTER))
    assert author_names(svc, witness, world.project, everyone) == {owner: owner, coauthor: coauthor, named: "Tía Rosa"}
    stranger = Viewer(user_id=f"{world.project}-stranger")
    assert author_names(svc, stranger, world.project, everyone) == {owner: owner, coauthor: coauthor}, (
        "no link and no account's name for someone outside the project"
    )
