"""Names as people use them, on the real Neo4j: what messages call a participant ("I'm Kate", "Hey Kate!") becomes a
name that person answers to, for viewers who may see those messages only, and a question using it finds that
person's messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.db import Graph
from graph.entities import list_visible_entities
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

Ingest = Callable[..., IngestReport]


def msg(project: str, n: int, author: str, text: str, pair: list[str], intimacy: str = "circle") -> dict[str, Any]:
    return {
        "entry_id": f"{project}/m{n}",
        "project_id": project,
        "author": author,
        "persons": pair,
        "session": 1,
        "turn": n,
        "occurred_at": f"2024-05-01T09:{n:02d}",
        "intimacy": intimacy,
        "text": text,
    }


def called(graph: Graph, project: str, viewer: str, name: str) -> tuple[str, ...]:
    found = [e for e in list_visible_entities(graph, [project], Viewer(user_id=viewer)) if e.name == name]
    return found[0].called if found else ()


def world(graph: Graph, prefix: str, ingest: Ingest) -> tuple[str, str, str, str]:
    project, ana, bob, reader = f"{prefix}called", f"{prefix}ana", f"{prefix}bob", f"{prefix}reader"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, bob, "coauthor")
    set_member(graph, project, reader, "reader")
    pair = [ana, bob]
    ingest(
        [
            msg(project, 1, bob, "Hey Kate! How did the bakery course go?", pair),
            msg(project, 2, ana, "The sourdough came out flat, I am going to try rye bread next week.", pair),
            msg(project, 3, bob, "Thanks Kate, I loved the photos", pair),
            msg(project, 4, bob, "Hi Katy!", pair, intimacy="private"),
            msg(project, 5, bob, "Night Katy.", pair, intimacy="private"),
            msg(project, 6, bob, "I baked rye bread too, it was dense as a brick.", pair),
        ]
    )
    return project, ana, bob, reader


def test_two_messages_addressing_someone_give_them_the_name_for_those_who_see_both(
    graph: Graph, prefix: str, ingest: Ingest
) -> None:
    project, ana, bob, reader = world(graph, prefix, ingest)
    assert called(graph, project, reader, ana) == ("Kate",), "Katy only in bob's private messages"
    assert called(graph, project, bob, ana) == ("Kate", "Katy"), "bob sees his own private messages"
    entities = {e.name: e for e in list_visible_entities(graph, [project], Viewer(user_id=reader))}
    assert "Kate" not in entities[ana].aliases, "a name people use is not a declared alias"
    ingest([msg(project, 3, bob, "Thanks, I loved the photos", [ana, bob])])
    assert called(graph, project, reader, ana) == (), "one greeting alone renames nobody"


def test_an_introduction_is_enough_and_hidden_messages_change_nothing_a_reader_sees(
    graph: Graph, prefix: str, ingest: Ingest
) -> None:
    project, ana, bob, reader = world(graph, prefix, ingest)
    before = list_visible_entities(graph, [project], Viewer(user_id=reader))
    ingest([msg(project, 7, ana, "Por cierto, me llamo Katalin.", [ana, bob], intimacy="private")])
    assert list_visible_entities(graph, [project], Viewer(user_id=reader)) == before
    assert "Katalin" in called(graph, project, ana, ana)
    ingest([msg(project, 7, ana, "Por cierto, me llamo Katalin.", [ana, bob])])
    assert "Katalin" in called(graph, project, reader, ana)


def test_a_question_naming_someone_as_people_call_them_is_asked_of_that_person(
    graph: Graph, prefix: str, ingest: Ingest, settings: Settings, embedder: CheckedEmbedder
) -> None:
    """Kate is ana to the reader: the question is understood, and answered, as if it named ana."""
    project, ana, bob, reader = world(graph, prefix, ingest)

    def ask(who: str) -> tuple[list[str], list[str | None]]:
        resp = hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=reader),
            f"What bread did {who} say she would bake next?",
            Scope(project_id=project),
            SearchOptions(k=5, explain=True),
        )
        persons = (resp.query_understanding or {}).get("persons") or []
        return [r.entry_id for r in resp.results], [p.get("name") for p in persons]

    by_name, understood = ask("Kate")
    assert understood == [ana]
    assert by_name == ask(ana)[0]
    _, unknown = ask("Katy")
    assert unknown == [], "the name only bob's private messages use means nothing to the reader"


def test_the_api_lists_them_apart_from_the_declared_aliases(
    graph: Graph, prefix: str, ingest: Ingest, client: Any, auth: Callable[[str], dict[str, str]]
) -> None:
    project, ana, bob, reader = world(graph, prefix, ingest)
    listed = client.get(f"/v1/projects/{project}/entities", headers=auth(reader)).json()
    person = next(e for e in listed if e["name"] == ana)
    assert person["called"] == ["Kate"] and "Kate" not in person["aliases"]
    declared = client.post(
        f"/v1/projects/{project}/entities",
        json={"kind": "person", "name": ana, "aliases": ["Kate"]},
        headers=auth(ana),
    )
    assert declared.status_code == 200, declared.text
    person = next(
        e
        for e in client.get(f"/v1/projects/{project}/entities", headers=auth(reader)).json()
        if e["id"] == person["id"]
    )
    assert person["aliases"] == ["Kate"] and person["called"] == [], "declared, it is an alias like any other"
