"""Adding a name on the people page, over HTTP against the real service and Neo4j: a writer declares a person, place
or thing with the other names it goes by, for an audience, and lands on its page; the audience decides who knows it
(a private name stays its writer's); the owner can then say a member is that person; a reader has no form and is
refused; a name too long, empty, with too many other names, of no kind or without the session's token is refused and
declares nothing, with the reason in a sentence and what was typed kept."""

from __future__ import annotations

from urllib.parse import quote

import httpx
from markupsafe import escape

from api import auth
from api.web.words import STRINGS
from graph.db import Graph
from graph.entities import list_visible_entities
from graph.member_people import member_persons
from graph.settings import Settings
from graph.visibility import Viewer
from tests.web_world import WebWorld, form_csrf, signed_in

EN = 1


def _names(graph: Graph, world: WebWorld, role: str) -> set[str]:
    return {e.name for e in list_visible_entities(graph, [world.project], Viewer(user_id=world.users[role]))}


def _form(client: httpx.Client, project: str) -> tuple[str, str]:
    page = client.get(f"/p/{project}/people?lang=en")
    return page.text, form_csrf(page)


def _declare(client: httpx.Client, project: str, **fields: str) -> httpx.Response:
    _, token = _form(client, project)
    return client.post(f"/p/{project}/names", data={"csrf": token, "kind": "person", **fields})


def test_a_writer_adds_a_name_its_audience_knows_and_the_owner_says_a_member_is_it(
    served: str, world: WebWorld, graph: Graph
) -> None:
    coauthor = signed_in(served, world.users["coauthor"], graph)
    done = _declare(coauthor, world.project, name=" Abuela Rosa ", aliases="yaya, , la abuela", audience="circle")
    assert done.status_code == 303
    landed = coauthor.get(done.headers["location"] + "&lang=en")
    assert landed.status_code == 200 and "Abuela Rosa" in landed.text and "la abuela" in landed.text
    for role in ("owner", "coauthor", "reader"):
        assert "Abuela Rosa" in _names(graph, world, role), role
    reader = signed_in(served, world.users["reader"], graph)
    page = reader.get(f"/p/{world.project}/entity?name=yaya&lang=en")
    assert page.status_code == 200 and "Abuela Rosa" in page.text and "la abuela" in page.text

    secret = _declare(coauthor, world.project, name="Tía Secreta", kind="person", audience="private")
    assert secret.status_code == 303
    assert "Tía Secreta" in _names(graph, world, "coauthor")
    assert not {"Tía Secreta"} & (_names(graph, world, "owner") | _names(graph, world, "reader"))
    assert "Tía Secreta" not in reader.get(f"/p/{world.project}/people?lang=en").text
    assert reader.get(f"/p/{world.project}/entity?name={quote('Tía Secreta')}").status_code == 404

    owner = signed_in(served, world.users["owner"], graph)
    _, token = _form(owner, world.project)
    said = {"csrf": token, "user": world.users["reader"], "person": "yaya", "action": "link"}
    assert owner.post(f"/p/{world.project}/who", data=said).status_code == 303
    linked = {m["user_id"]: m["person"] for m in member_persons(graph, world.project)}
    assert linked[world.users["reader"]] == "Abuela Rosa"

    hidden = f"Persona{world.words[('owner', 'private')]}"  # named only by the owner's private entry
    said = {**said, "user": world.users["coauthor"], "person": hidden}
    refused = owner.post(f"/p/{world.project}/who", data=said)
    assert refused.status_code == 422
    assert escape(STRINGS["who_not_shared"][EN].format(person=hidden)) in refused.text, "it says where to add it"
    assert _declare(owner, world.project, name=hidden, audience="circle").status_code == 303
    assert owner.post(f"/p/{world.project}/who", data=said).status_code == 303, "known to every member now"
    linked = {m["user_id"]: m["person"] for m in member_persons(graph, world.project)}
    assert linked[world.users["coauthor"]] == hidden
    for client in (coauthor, reader, owner):
        client.close()


def test_a_name_only_hidden_entries_hold_lands_on_a_page_of_what_the_declarer_may_see(
    served: str, world: WebWorld, graph: Graph
) -> None:
    hidden_word = world.words[("owner", "private")]
    hidden = f"Persona{hidden_word}"  # named only by the owner's private entry
    coauthor = signed_in(served, world.users["coauthor"], graph)
    done = _declare(coauthor, world.project, name=hidden, aliases="otra", audience="private")
    assert done.status_code == 303
    landed = coauthor.get(done.headers["location"] + "&lang=en")
    assert landed.status_code == 200 and hidden in landed.text and "otra" in landed.text
    assert hidden_word not in landed.text.replace(hidden, ""), "the owner's private entry is not among its entries"
    coauthor.close()


def test_the_api_refuses_a_blank_name_or_an_alias_it_cannot_keep(
    served: str, world: WebWorld, settings: Settings
) -> None:
    token = auth.issue(settings, world.users["owner"])
    with httpx.Client(base_url=served, headers={"authorization": f"Bearer {token}"}) as api:
        for body in (
            {"kind": "person", "name": "   "},
            {"kind": "person", "name": "Ana", "aliases": ["x" * 201]},
            {"kind": "person", "name": "Ana", "aliases": ["a\nb"]},
        ):
            answer = api.post(f"/v1/projects/{world.project}/entities", json=body)
            assert answer.status_code == 422, (body, answer.text[:200])


def test_a_reader_has_no_form_and_is_refused(served: str, world: WebWorld, graph: Graph) -> None:
    reader = signed_in(served, world.users["reader"], graph)
    page, token = _form(reader, world.project)
    assert 'id="add-name"' not in page
    refused = reader.post(f"/p/{world.project}/names", data={"csrf": token, "name": "Intrusa", "kind": "person"})
    assert refused.status_code == 403
    reader.close()
    assert "Intrusa" not in _names(graph, world, "owner") | _names(graph, world, "reader")


def test_a_form_that_cannot_be_a_name_is_refused_in_words_and_declares_nothing(
    served: str, world: WebWorld, graph: Graph
) -> None:
    owner = signed_in(served, world.users["owner"], graph)
    before = _names(graph, world, "owner")
    said = escape(STRINGS["name_bad"][EN].format(most=50, longest=200))
    for fields in (
        {"name": "   ", "aliases": "algo"},
        {"name": "Muchos", "aliases": ", ".join(f"alias{n}" for n in range(51))},
        {"name": "Largo", "aliases": "x" * 201},
        {"name": "x" * 201, "aliases": ""},
        {"name": "a\tb", "aliases": ""},
        {"name": "Salto", "aliases": "uno\ndos"},
    ):
        answer = _declare(owner, world.project, **fields)
        assert answer.status_code == 422 and said in answer.text, fields
        assert f'value="{escape(fields["aliases"])}"' in answer.text, "what was typed is kept"
    for fields in ({"name": "Bicho", "kind": "animal"}, {"name": "Nube", "audience": "everyone"}):
        assert _declare(owner, world.project, **fields).status_code == 422, fields
    forged = owner.post(f"/p/{world.project}/names", data={"csrf": "x", "name": "Falsa", "kind": "person"})
    assert forged.status_code == 403
    owner.close()
    assert _names(graph, world, "owner") == before
