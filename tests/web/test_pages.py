"""The web app over HTTP, against `memora serve`'s app on the real Neo4j: sign-in and its CSRF checks, and for each
role what every page must and must not show (a hidden entry's words never in the HTML, its entry page answered
exactly like one that does not exist, the timeline's counts unmoved by hidden entries)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from api import auth
from graph.db import Graph
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from tests.serving import serve
from tests.web_world import CSRF, WebWorld, build_world, signed_in

ROLES = ("owner", "coauthor", "reader")


@pytest.fixture()
def served(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> Iterator[str]:
    with serve(settings, graph, embedder) as url:
        yield url


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> WebWorld:
    return build_world(graph, prefix, ingest)


def _shown(world: WebWorld, html: str) -> set[tuple[str, str]]:
    return {key for key, word in world.words.items() if word in html}


def test_a_page_without_a_session_sends_the_browser_to_sign_in(served: str, world: WebWorld) -> None:
    with httpx.Client(base_url=served) as anonymous:
        entry = world.entry_ids[("owner", "public")]
        for path in ("/", f"/p/{world.project}", f"/p/{world.project}/timeline", f"/e/{entry}"):
            answer = anonymous.get(path)
            assert answer.status_code == 303 and answer.headers["location"] == "/signin", path
            assert not _shown(world, answer.text)


def test_each_role_sees_in_search_exactly_the_entries_the_rules_let_it_see(served: str, world: WebWorld) -> None:
    for role in ROLES:
        browser = signed_in(served, world.users[role])
        page = browser.get(f"/p/{world.project}", params={"q": "Cádiz con Marta, aquel viaje en tren"})
        assert page.status_code == 200
        assert _shown(world, page.text) == world.visible_to(role), role
        for key, word in world.words.items():
            direct = browser.get(f"/p/{world.project}", params={"q": word})
            answered = direct.text.split("</form>", 2)[-1]  # after the box, which repeats the question
            assert (word in answered) == (key in world.visible_to(role)), (role, key)
        assert "<mark>" in page.text, "the words the question matched are highlighted"


def test_an_entry_hidden_from_the_viewer_answers_like_one_that_does_not_exist(served: str, world: WebWorld) -> None:
    reader = signed_in(served, world.users["reader"])
    nowhere = reader.get(f"/e/{world.project}/no-such-entry")
    assert nowhere.status_code == 404
    for key, entry_id in world.entry_ids.items():
        answer = reader.get(f"/e/{entry_id}")
        if key in world.visible_to("reader"):
            assert answer.status_code == 200 and world.words[key] in answer.text
            assert "Persona" + world.words[key] in answer.text, "its people, as links"
        else:
            assert answer.status_code == 404
            assert answer.text == nowhere.text, "hidden and absent read the same"


def test_the_timeline_counts_and_lists_only_what_the_viewer_sees(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    reader = signed_in(served, world.users["reader"])
    before = {year: reader.get(f"/p/{world.project}/timeline", params={"year": year}).text for year in (2005, 2006)}
    for year, html in before.items():
        author = "owner" if year == 2005 else "coauthor"
        assert _shown(world, html) == {(author, "circle"), (author, "public")}
        assert '<span class="count">2</span>' in html, "two visible entries that year, the hidden two not counted"
    ingest(
        [
            {
                "entry_id": f"{world.project}/later-private",
                "project_id": world.project,
                "author": world.users["owner"],
                "intimacy": "private",
                "occurred_on": "2005-05-12",
                "text": "Otra entrada privada que nadie más debe notar.",
            }
        ]
    )
    for year, html in before.items():
        assert reader.get(f"/p/{world.project}/timeline", params={"year": year}).text == html
    owner = signed_in(served, world.users["owner"])
    assert '<span class="count">5</span>' in owner.get(f"/p/{world.project}/timeline").text


def test_a_project_of_which_the_viewer_is_no_member_is_refused_as_the_api_refuses_it(
    served: str, world: WebWorld, graph: Graph, prefix: str
) -> None:
    from graph.members import set_member

    set_member(graph, f"{prefix}other", f"{prefix}stranger", "owner")
    stranger = signed_in(served, f"{prefix}stranger")
    for path in (f"/p/{world.project}", f"/p/{world.project}/timeline"):
        answer = stranger.get(path, params={"q": "Cádiz"} if path.count("/") == 2 else None)
        assert answer.status_code == 403 and answer.headers["content-type"].startswith("text/html")
        assert not _shown(world, answer.text)
    assert stranger.get(f"/p/{world.project}/timeline", params={"year": "abc"}).status_code == 422


def test_forms_carry_a_csrf_token_and_the_session_cookie_is_httponly_and_strict(
    served: str, world: WebWorld, settings: Settings
) -> None:
    with httpx.Client(base_url=served, follow_redirects=False) as browser:
        form = browser.get("/signin")
        assert form.headers["content-security-policy"].startswith("default-src 'self'")
        assert browser.post("/signin/member", data={"user": world.users["owner"]}).status_code == 422
        forged = browser.post("/signin/member", data={"user": world.users["owner"], "csrf": "0" * 64})
        assert forged.status_code == 403 and "memora_session" not in forged.headers.get("set-cookie", "")
        token = CSRF.search(form.text)
        assert token
        signed = browser.post("/signin/member", data={"user": world.users["owner"], "csrf": token.group(1)})
        cookie = signed.headers["set-cookie"].lower()
        assert "memora_session=" in cookie and "httponly" in cookie and "samesite=strict" in cookie
        home = browser.get(f"/p/{world.project}")
        assert home.headers["cache-control"] == "no-store"
        session_csrf = CSRF.search(home.text)
        assert session_csrf and session_csrf.group(1) != token.group(1), "a new token once signed in"
        assert browser.post("/signout", data={"csrf": token.group(1)}).status_code == 403
        out = browser.post("/signout", data={"csrf": session_csrf.group(1)})
        assert out.status_code == 303 and out.headers["location"] == "/signin"
        assert browser.get(f"/p/{world.project}").headers["location"] == "/signin"


def test_a_token_signs_in_and_a_bad_one_does_not(served: str, world: WebWorld, settings: Settings) -> None:
    with httpx.Client(base_url=served, follow_redirects=False) as browser:
        csrf = CSRF.search(browser.get("/signin").text)
        assert csrf
        bad = browser.post("/signin/token", data={"token": "mem1.forged.token", "csrf": csrf.group(1)})
        assert bad.headers["location"] == "/signin?error=bad_token"
        assert "not valid" in browser.get(bad.headers["location"]).text
        good = auth.issue(settings, world.users["reader"])
        assert browser.post("/signin/token", data={"token": good, "csrf": csrf.group(1)}).status_code == 303
        page = browser.get(f"/p/{world.project}", params={"q": "Cádiz Marta tren"})
        assert _shown(world, page.text) == world.visible_to("reader")


def test_the_development_sign_in_is_off_when_the_setting_says_so(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, world: WebWorld
) -> None:
    off = settings.model_copy(update={"web_dev_signin": False})
    with serve(off, graph, embedder) as url, httpx.Client(base_url=url, follow_redirects=False) as browser:
        form = browser.get("/signin")
        assert 'action="/signin/member"' not in form.text and world.users["owner"] not in form.text
        csrf = CSRF.search(form.text)
        assert csrf
        refused = browser.post("/signin/member", data={"user": world.users["owner"], "csrf": csrf.group(1)})
        assert refused.status_code == 403 and "memora_session" not in refused.headers.get("set-cookie", "")


def test_pages_speak_the_browser_language_or_the_one_asked_for(served: str, world: WebWorld) -> None:
    browser = signed_in(served, world.users["owner"])
    assert "Cronología" in browser.get(f"/p/{world.project}", headers={"accept-language": "es-ES,es;q=0.9"}).text
    assert "Chronologie" in browser.get(f"/p/{world.project}", headers={"accept-language": "fr"}).text
    asked = browser.get(f"/p/{world.project}", params={"lang": "en"}, headers={"accept-language": "fr"})
    assert "Timeline" in asked.text and 'lang="en"' in asked.text
    entry = browser.get(f"/e/{world.entry_ids[('owner', 'intimate')]}?lang=es").text
    assert "La ven quien la escribió, la propietaria y las coautoras." in entry, "who sees it, said in a sentence"
