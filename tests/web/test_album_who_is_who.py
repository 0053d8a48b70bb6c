"""Who is who on the people page, over HTTP against the real service and Neo4j: an owner says which person a member
is (typed in any case and spacing) and takes it back, and the page and the API's listing agree; a name no known
person has, a place, a person only hidden entries name, an empty box, taking back what was never said, and someone
who is not a member are refused in a sentence beside the member (or above the list), with what was typed kept, and
change nothing; so is a malformed form; only the owner sees the section or may change it, and a form without the
session's token changes nothing."""

from __future__ import annotations

import httpx
from markupsafe import escape

from api.web.words import STRINGS
from graph.db import Graph
from graph.member_people import member_persons
from tests.web_world import WebWorld, form_csrf, signed_in

LANGS = ("es", "en", "fr")


def _said(key: str, lang: str = "en", **named: str) -> str:
    return str(escape(STRINGS[key][LANGS.index(lang)].format(**named)))


def _who(page: str) -> str:
    return page.split('id="who"', 1)[1] if 'id="who"' in page else ""


def _row(section: str, user: str) -> str:
    """The member's item of the list."""
    return next(item for item in section.split("<li>")[1:] if item.startswith(f"<strong>{escape(user)}</strong>"))


def _persons(graph: Graph, project: str) -> dict[str, str | None]:
    return {str(m["user_id"]): m["person"] for m in member_persons(graph, project)}


def _send(client: httpx.Client, project: str, user: str, person: str, action: str = "link") -> httpx.Response:
    page = client.get(f"/p/{project}/people?lang=en")
    form = {"csrf": form_csrf(page), "user": user, "person": person, "action": action}
    return client.post(f"/p/{project}/who", data=form)


def test_an_owner_says_who_a_member_is_and_takes_it_back(served: str, world: WebWorld, graph: Graph) -> None:
    owner = signed_in(served, world.users["owner"], graph)
    coauthor = world.users["coauthor"]
    before = _who(owner.get(f"/p/{world.project}/people?lang=en").text)
    assert all(user in before for user in world.users.values()), "every member is listed"
    assert before.count(escape(STRINGS["who_is_nobody"][1])) == len(world.users)

    done = _send(owner, world.project, coauthor, "  marta ")
    assert done.status_code == 303 and done.headers["location"].endswith("/people#who")
    assert _persons(graph, world.project)[coauthor] == "Marta"
    after = _who(owner.get(f"/p/{world.project}/people?lang=en").text)
    assert _said("who_is", person="Marta") in _row(after, coauthor)
    assert all(_said("who_is_nobody") in _row(after, user) for user in world.users.values() if user != coauthor)

    back = _send(owner, world.project, coauthor, "", "unlink")
    assert back.status_code == 303 and _persons(graph, world.project)[coauthor] is None
    owner.close()


def test_what_cannot_be_said_is_refused_in_words_beside_the_member_and_changes_nothing(
    served: str, world: WebWorld, graph: Graph
) -> None:
    owner = signed_in(served, world.users["owner"], graph)
    reader = world.users["reader"]
    hidden = f"Persona{world.words[('owner', 'private')]}"  # named only by the owner's private entry
    cases = [
        ("Nadie Conocido", "link", 422, _said("who_unknown", person="Nadie Conocido")),
        ("cádiz", "link", 422, _said("who_not_a_person", person="Cádiz", kind=STRINGS["a_place"][1])),
        (hidden, "link", 422, _said("who_not_shared", person=hidden)),
        ("   ", "link", 422, _said("who_empty", member=reader)),
        ("", "unlink", 404, _said("who_not_linked", member=reader)),
    ]
    for typed, action, status, sentence in cases:
        answer = _send(owner, world.project, reader, typed, action)
        assert answer.status_code == status, (typed, answer.text[:300])
        row = _row(_who(answer.text), reader)
        assert sentence in row and answer.text.count('id="who-refused"') == 1, "said beside the member, once"
        if typed.strip():
            assert f'value="{escape(typed)}" aria-describedby="who-refused"' in row, "what was typed is kept"
        assert _persons(graph, world.project) == dict.fromkeys(world.users.values()), typed

    stranger = f"{world.users['reader']}-stranger"
    answer = _send(owner, world.project, stranger, "Marta")
    assert answer.status_code == 404 and _said("who_not_member", member=stranger) in _who(answer.text)
    assert stranger not in _persons(graph, world.project)
    owner.close()


def test_only_the_owner_sees_who_is_who_or_changes_it(served: str, world: WebWorld, graph: Graph) -> None:
    for role in ("coauthor", "reader"):
        member = signed_in(served, world.users[role], graph)
        page = member.get(f"/p/{world.project}/people?lang=en")
        assert page.status_code == 200 and not _who(page.text), role
        form = {"csrf": form_csrf(page), "user": world.users[role], "person": "Marta", "action": "link"}
        refused = member.post(f"/p/{world.project}/who", data=form)
        assert refused.status_code == 403, role
        member.close()
    owner = signed_in(served, world.users["owner"], graph)
    form = {"csrf": "x", "user": world.users["reader"], "person": "Marta", "action": "link"}
    forged = owner.post(f"/p/{world.project}/who", data=form)
    assert forged.status_code == 403
    owner.close()
    assert _persons(graph, world.project) == dict.fromkeys(world.users.values())


def test_a_malformed_form_is_refused_as_such_and_changes_nothing(served: str, world: WebWorld, graph: Graph) -> None:
    owner = signed_in(served, world.users["owner"], graph)
    token = form_csrf(owner.get(f"/p/{world.project}/people?lang=en"))
    for form in (
        {"person": "Marta", "action": "link"},
        {"user": "a\nb", "person": "Marta", "action": "link"},
        {"user": world.users["reader"], "person": "Marta", "action": "adopt"},
        {"user": world.users["reader"], "person": "M" * 401, "action": "link"},
    ):
        answer = owner.post(f"/p/{world.project}/who", data={"csrf": token, **form})
        assert answer.status_code == 422, form
    owner.close()
    assert _persons(graph, world.project) == dict.fromkeys(world.users.values())
