"""The web app over HTTP, against `memora serve`'s app on the real Neo4j: sign-in and its CSRF checks, and for each
role what every page must and must not show (a hidden entry's words never in the HTML, its entry page answered
exactly like one that does not exist, the timeline's counts unmoved by hidden entries)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx

from api import auth
from graph.db import Graph
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from tests.serving import serve
from tests.web_world import CHAPTER, CSRF, WebWorld, add_chapter, form_csrf, local_link, signed_in

ROLES = ("owner", "coauthor", "reader")


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
    served: str, world: WebWorld, settings: Settings, graph: Graph
) -> None:
    with httpx.Client(base_url=served, follow_redirects=False) as browser:
        assert browser.get(local_link(graph, settings)).status_code == 303
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
        link = browser.get(local_link(graph, settings))
        assert link.headers["location"] == "/signin?error=bad_link" and "memora_local" not in str(link.cookies)
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


def test_the_chapter_page_builds_its_context_and_draft_from_what_the_viewer_sees(served: str, world: WebWorld) -> None:
    for role in ROLES:
        browser = signed_in(served, world.users[role])
        for draft in (False, True):
            params = {"theme": "el viaje en tren a Cádiz con Marta", "budget": 3000, "draft": draft}
            page = browser.get(f"/p/{world.project}/chapters", params=params)
            assert page.status_code == 200, page.text[:300]
            built = page.text.split("</form>", 2)[-1]
            shown = _shown(world, built)
            assert shown and shown <= world.visible_to(role), (role, draft, shown)
            assert ('id="draft-title"' in built) == draft
    reader = signed_in(served, world.users["reader"])
    assert reader.get(f"/p/{world.project}/chapters", params={"theme": "x", "budget": 0}).status_code == 422


def test_a_person_named_only_by_hidden_entries_has_no_page_and_appears_with_no_one(
    served: str, world: WebWorld
) -> None:
    for role in ROLES:
        browser = signed_in(served, world.users[role])
        nobody = browser.get(f"/p/{world.project}/entity", params={"name": "Nadie Conocido"})
        assert nobody.status_code == 404
        listing = browser.get(f"/p/{world.project}/people").text
        marta = browser.get(f"/p/{world.project}/entity", params={"name": "Marta", "measure": "count"})
        assert marta.status_code == 200
        for key, word in world.words.items():
            own = browser.get(f"/p/{world.project}/entity", params={"name": "Persona" + word})
            if key in world.visible_to(role):
                assert own.status_code == 200 and "Marta" in own.text, (role, key)
                assert "Persona" + word in listing and "Persona" + word in marta.text
            else:
                assert own.status_code == 404 and own.text == nobody.text, (role, key)
                assert word not in listing and word not in marta.text, (role, key)
        picture = browser.get(f"/p/{world.project}/entity.svg", params={"name": "Marta"})
        assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg+xml")


def test_writing_editing_and_deleting_go_through_the_api_rules_and_lose_nothing_typed(
    served: str, world: WebWorld
) -> None:
    owner, coauthor, reader = (signed_in(served, world.users[r]) for r in ROLES)
    assert reader.get(f"/p/{world.project}/write").status_code == 403
    form = coauthor.get(f"/p/{world.project}/write")
    assert form.status_code == 200 and 'name="intimacy" value="private"' in form.text
    typed = {"text": "Escrito desde la web: hojaldre secreto en Tarifa.", "occurred_on": "not a date at all"}
    refused = coauthor.post(f"/p/{world.project}/write", data={**typed, "intimacy": "private", "csrf": form_csrf(form)})
    assert refused.status_code == 422 and "hojaldre secreto en Tarifa" in refused.text, "the typed text comes back"
    assert "not a date at all" in refused.text
    forged = coauthor.post(f"/p/{world.project}/write", data={"text": "hojaldre forjado", "csrf": "0" * 64})
    assert forged.status_code == 403
    saved = coauthor.post(
        f"/p/{world.project}/write",
        data={
            **typed,
            "occurred_on": "verano de 2009",
            "persons": "Marta, Lupe",
            "intimacy": "private",
            "csrf": form_csrf(form),
        },
    )
    assert saved.status_code == 303, saved.text.split("<main")[-1][:600]
    entry_path = saved.headers["location"]
    mine = coauthor.get(entry_path)
    assert "hojaldre secreto" in mine.text and "Lupe" in mine.text and 'href="/edit/' in mine.text
    assert "2009-06-21/2009-09-22" in mine.text, "a date in words is read as the search reads it"
    assert owner.get(entry_path).status_code == 404 and reader.get(entry_path).status_code == 404, "private"
    probe = coauthor.get(f"/p/{world.project}", params={"q": "hojaldre forjado"})
    assert "forjado" not in probe.text.split("</form>", 2)[-1], "the forged form wrote nothing"

    edit_path = entry_path.replace("/e/", "/edit/", 1)
    edit_form = coauthor.get(edit_path)
    assert "hojaldre secreto" in edit_form.text
    changed = coauthor.post(
        edit_path, data={"text": "Hojaldre corregido en Tarifa.", "intimacy": "everyone", "csrf": form_csrf(edit_form)}
    )
    assert changed.status_code == 303
    assert "Hojaldre corregido" in coauthor.get(entry_path).text
    assert reader.get(entry_path).status_code == 404, "a level that is not one of the four keeps the entry's own"

    owners_entry = f"/e/{world.entry_ids[('owner', 'circle')]}"
    assert 'href="/edit/' not in coauthor.get(owners_entry).text and 'href="/edit/' not in reader.get(owners_entry).text
    assert coauthor.post(owners_entry.replace("/e/", "/delete/", 1), data={"csrf": form_csrf(form)}).status_code == 403
    coauthors_entry = f"/e/{world.entry_ids[('coauthor', 'circle')]}"
    page = owner.get(coauthors_entry)
    assert 'href="/delete/' in page.text, "the owner may delete any visible entry"
    gone = owner.post(coauthors_entry.replace("/e/", "/delete/", 1), data={"csrf": form_csrf(page)})
    assert gone.status_code == 303 and owner.get(coauthors_entry).status_code == 404


def test_a_witness_link_opens_its_chapter_shared_entries_and_takes_an_account(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    add_chapter(world, ingest)
    owner, reader = signed_in(served, world.users["owner"]), signed_in(served, world.users["reader"])
    page = owner.get(f"/p/{world.project}/chapters")
    assert CHAPTER in page.text and 'action="/p/' + world.project + '/witnesses"' in page.text
    period = re.search(r'name="period_id" value="([^"]+)"', page.text)
    assert period
    assert 'name="period_id"' not in reader.get(f"/p/{world.project}/chapters").text, "only the owner invites"
    refused = reader.post(f"/p/{world.project}/witnesses", data={"period_id": period.group(1), "csrf": form_csrf(page)})
    assert refused.status_code == 403
    made = owner.post(f"/p/{world.project}/witnesses", data={"period_id": period.group(1), "csrf": form_csrf(page)})
    assert made.status_code == 303
    link = re.search(r'id="link" value="[^"]*(/w/[^"]+)"', owner.get(made.headers["location"]).text)
    assert link

    with httpx.Client(base_url=served, follow_redirects=False, timeout=60) as witness:
        home = witness.get(link.group(1))
        assert home.status_code == 200 and home.headers["referrer-policy"] == "no-referrer"
        shown = {level for level in ("private", "intimate", "circle", "public") if f"testigo{level}" in home.text}
        assert shown == {"circle", "public"}, home.text.split("<main")[-1][:1500]
        assert not _shown(world, home.text), "nothing outside the chapter"
        searched = witness.get(link.group(1), params={"q": "testigoprivate testigointimate palabraownercircle"})
        assert "testigoprivate" not in searched.text.split("</form>", 1)[-1]
        assert "palabraownercircle" not in searched.text.split("</form>", 1)[-1]
        hidden = witness.get(f"{link.group(1)}/e/{world.project}/trip-private")
        assert hidden.status_code == 404
        assert witness.get("/w/wit1.forged.link").status_code == 401
        csrf = form_csrf(home)
        assert witness.post(link.group(1), data={"text": "Yo también estaba.", "csrf": "0" * 64}).status_code == 403
        added = witness.post(link.group(1), data={"text": "Yo también estaba: cuaderno testigoanadido.", "csrf": csrf})
        assert added.status_code == 303
        assert "testigoanadido" in witness.get(link.group(1)).text
    assert "testigoanadido" in owner.get(f"/p/{world.project}", params={"q": "testigoanadido"}).text


def test_a_session_that_no_longer_signs_in_is_dropped_not_counted_again_and_again(
    served: str, world: WebWorld, settings: Settings
) -> None:
    expired = auth.issue(settings, world.users["owner"], ttl_seconds=-60)
    with httpx.Client(base_url=served, follow_redirects=False, cookies={"memora_session": expired}) as browser:
        answer = browser.get(f"/p/{world.project}")
        assert answer.status_code == 303 and answer.headers["location"] == "/signin"
        dropped = answer.headers["set-cookie"].lower()
        assert 'memora_session=""' in dropped and "max-age=0" in dropped
        browser.cookies.clear()
        browser.cookies.set("memora_session", expired)
        form = browser.get("/signin")
        assert form.status_code == 200 and 'memora_session=""' in form.headers.get("set-cookie", "")
