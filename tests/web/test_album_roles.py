"""Roles and safe hands in the web app: the menus offer writing only to those who may write, a refusal says its true
reason (while the API's answer stays the same), deleting asks first and says when it is done, the intimacy choices
sit beside their labels, and the local sign-in shows its members as choices."""

from __future__ import annotations

import re
from urllib.parse import quote

import httpx
from markupsafe import escape
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from api import auth
from graph.db import Graph, get_graph
from graph.members import set_member
from graph.settings import Settings, get_settings
from graph.visibility import INTIMACY_LEVELS
from tests.web import test_browser
from tests.web.test_browser import _violations
from tests.web_world import WebWorld, form_csrf, local_link, signed_in

ROLES = ("owner", "coauthor", "reader")
WRITE_LINK = re.compile(r'href="/p/[^"]+/write"')


def _words(key: str, lang: str = "en") -> str:
    """A page's words as the page shows them (escaped), from the words table itself."""
    from api.web.words import STRINGS

    return str(escape(STRINGS[key][("es", "en", "fr").index(lang)]))


def _path(entry_id: str) -> str:
    """An entry id as the pages write it in a link (Jinja's `urlencode` keeps the slash)."""
    return quote(entry_id, safe="/")


def test_the_write_link_shows_to_owners_and_coauthors_and_never_to_a_reader(served: str, world: WebWorld) -> None:
    visible = _path(world.entry_ids[("owner", "circle")])
    for role in ROLES:
        browser = signed_in(served, world.users[role])
        for path in (f"/p/{world.project}", f"/p/{world.project}/timeline", f"/e/{visible}"):
            answer = browser.get(path)
            assert answer.status_code == 200, (role, path)
            assert bool(WRITE_LINK.search(answer.text)) == (role != "reader"), (role, path)


def test_a_reader_is_told_readers_may_not_write_and_a_stranger_that_they_are_no_member(
    served: str, world: WebWorld, graph: Graph, prefix: str, settings: Settings
) -> None:
    reader = signed_in(served, world.users["reader"])
    write = f"/p/{world.project}/write"
    for lang in ("es", "fr", "en"):  # English last: a chosen language may be kept for the pages that follow
        refused = reader.get(write, params={"lang": lang})
        assert refused.status_code == 403
        assert _words("forbidden_reader", lang) in refused.text, lang
        assert _words("forbidden", lang) not in refused.text, (lang, "a reader is a member")
    own = reader.get(f"/p/{world.project}")
    posted = reader.post(write, data={"text": "hojaldre de lectora", "intimacy": "circle", "csrf": form_csrf(own)})
    assert posted.status_code == 403 and _words("forbidden_reader") in posted.text
    assert not WRITE_LINK.search(posted.text), "the refusal's menus are the reader's"
    found = reader.get(f"/p/{world.project}", params={"q": "hojaldre de lectora"}).text.split("</form>", 2)[-1]
    assert "hojaldre de lectora" not in found, "nothing was written"

    set_member(graph, f"{prefix}other", f"{prefix}stranger", "owner")
    stranger = signed_in(served, f"{prefix}stranger").get(write)
    assert stranger.status_code == 403
    assert _words("forbidden") in stranger.text and _words("forbidden_reader") not in stranger.text
    assert f"/p/{world.project}/timeline" not in stranger.text, "no menus of a project they are not in"

    with httpx.Client(base_url=served) as api:
        for user in (world.users["reader"], f"{prefix}stranger"):
            answer = api.post(
                "/v1/entries",
                json={"project_id": world.project, "text": "hojaldre", "intimacy": "circle"},
                headers={"authorization": f"Bearer {auth.issue(settings, user)}"},
            )
            assert answer.status_code == 403
            assert answer.json() == {"detail": "only the project's owner and coauthors can write to it"}, user


def test_delete_names_what_goes_asks_first_then_deletes_and_says_so(served: str, world: WebWorld) -> None:
    coauthor = signed_in(served, world.users["coauthor"])
    key = ("coauthor", "circle")
    entry_id = world.entry_ids[key]
    entry = coauthor.get(f"/e/{_path(entry_id)}")
    assert f'href="/delete/{_path(entry_id)}"' in entry.text, "the author sees the delete control"
    assert 'action="/delete/' not in entry.text, "nothing on the entry page deletes at once"
    assert entry.text.index(f'href="/edit/{_path(entry_id)}"') < entry.text.index('href="/delete/'), "after Edit"

    confirm = coauthor.get(f"/delete/{_path(entry_id)}")
    assert confirm.status_code == 200
    assert f"Título {world.words[key]}" in confirm.text, "its title"
    assert _words("level_circle") in confirm.text and _words("sees_circle") in confirm.text, "its level"
    assert _words("delete_cannot_undo") in confirm.text
    assert f'action="/delete/{_path(entry_id)}"' in confirm.text and form_csrf(confirm)
    assert f'href="/e/{_path(entry_id)}"' in confirm.text, "cancel goes back to the entry"
    assert coauthor.get(f"/e/{_path(entry_id)}").status_code == 200, "opening the page deleted nothing"

    gone = coauthor.post(f"/delete/{_path(entry_id)}", data={"csrf": form_csrf(confirm)})
    assert gone.status_code == 303
    where = gone.headers["location"]
    assert where == f"/p/{quote(world.project, safe='')}?done=deleted"
    assert world.words[key] not in where and "T%C3%ADtulo" not in where
    landed = coauthor.get(f"{where}&lang=es")
    assert landed.status_code == 200 and _words("entry_deleted", "es") in landed.text
    assert _words("entry_deleted", "es") not in coauthor.get(f"/p/{world.project}", params={"lang": "es"}).text
    assert coauthor.get(f"/e/{_path(entry_id)}").status_code == 404
    assert coauthor.get(f"/delete/{_path(entry_id)}").status_code == 404


def test_an_untitled_entry_is_named_by_its_first_words(served: str, world: WebWorld) -> None:
    coauthor = signed_in(served, world.users["coauthor"])
    form = coauthor.get(f"/p/{world.project}/write")
    words = [f"uno{n}" for n in range(30)]
    saved = coauthor.post(
        f"/p/{world.project}/write",
        data={"text": " ".join(words), "occurred_on": "2011-02-03", "intimacy": "private", "csrf": form_csrf(form)},
    )
    assert saved.status_code == 303
    confirm = coauthor.get(saved.headers["location"].replace("/e/", "/delete/", 1))
    heading = re.search(r'<h2 id="doomed-name">([^<]*)</h2>', confirm.text)
    assert heading, confirm.text[:500]
    named = heading.group(1).rstrip("…").split()
    assert named == words[: len(named)] and 3 <= len(named) < len(words), "its first words, not all of them"
    assert "2011-02-03" in confirm.text and _words("level_private") in confirm.text


def test_only_the_author_or_the_owner_may_open_the_confirm_page_or_delete(served: str, world: WebWorld) -> None:
    owner, coauthor, reader = (signed_in(served, world.users[r]) for r in ROLES)
    owners = _path(world.entry_ids[("owner", "circle")])
    assert 'href="/delete/' not in coauthor.get(f"/e/{owners}").text
    assert 'href="/delete/' not in reader.get(f"/e/{owners}").text
    form = coauthor.get(f"/p/{world.project}/write")
    for who, reason in ((coauthor, "forbidden_not_author"), (reader, "forbidden_reader")):
        page = who.get(f"/delete/{owners}")
        assert page.status_code == 403 and _words(reason) in page.text, reason
        assert 'action="/delete/' not in page.text
    refused = coauthor.post(f"/delete/{owners}", data={"csrf": form_csrf(form)})
    assert refused.status_code == 403 and _words("forbidden_not_author") in refused.text
    assert owner.get(f"/e/{owners}").status_code == 200, "still there"
    assert reader.get(f"/edit/{owners}").status_code == 403
    assert _words("forbidden_reader") in reader.get(f"/edit/{owners}").text
    coauthors = _path(world.entry_ids[("coauthor", "public")])
    assert f'href="/delete/{coauthors}"' in owner.get(f"/e/{coauthors}").text, "the owner may delete any visible"
    assert owner.get(f"/delete/{coauthors}").status_code == 200


def test_the_confirm_page_of_a_hidden_entry_answers_as_a_missing_one(served: str, world: WebWorld) -> None:
    for role, hidden in (("reader", ("owner", "intimate")), ("coauthor", ("owner", "private"))):
        browser = signed_in(served, world.users[role])
        missing = browser.get(f"/delete/{world.project}/no-such-entry")
        answer = browser.get(f"/delete/{_path(world.entry_ids[hidden])}")
        assert missing.status_code == answer.status_code == 404, role
        assert answer.text == missing.text, (role, "hidden and absent read the same")
        assert world.words[hidden] not in answer.text


def test_each_intimacy_choice_is_a_radio_beside_its_label_in_a_fieldset(served: str, world: WebWorld) -> None:
    form = signed_in(served, world.users["owner"]).get(f"/p/{world.project}/write").text
    group = re.search(r'<fieldset class="levels">\s*<legend>([^<]+)</legend>(.*?)</fieldset>', form, re.S)
    assert group and group.group(1) == _words("who_sees")
    for level in INTIMACY_LEVELS:
        choice = re.search(
            rf'<input type="radio" id="level-{level}" name="intimacy" value="{level}"[^>]*>\s*'
            rf'<label for="level-{level}">(.*?)</label>',
            group.group(2),
            re.S,
        )
        assert choice, level
        assert _words(f"level_{level}") in choice.group(1) and _words(f"sees_{level}") in choice.group(1)


driver = test_browser.driver  # the browser tests' own Chromium, one per module


def test_in_a_browser_radios_sit_beside_their_labels_members_are_buttons_and_pages_are_accessible(
    driver: webdriver.Chrome, served: str, world: WebWorld
) -> None:
    driver.delete_all_cookies()
    driver.get(served + local_link(get_graph(get_settings()), get_settings()))
    assert not driver.find_elements(By.TAG_NAME, "datalist")
    picks = {b.get_attribute("value"): b for b in driver.find_elements(By.CSS_SELECTOR, "button.pick[name=user]")}
    assert set(world.users.values()) <= set(picks), "every member of the project is a visible choice"
    assert all(picks[u].is_displayed() for u in world.users.values())
    problems = [f"signin: {v}" for v in _violations(driver)]
    picks[world.users["coauthor"]].click()
    WebDriverWait(driver, 30).until(lambda d: "/signin" not in d.current_url)
    assert world.users["coauthor"] in driver.find_element(By.CSS_SELECTOR, ".who strong").text

    for width in (1100, 360):
        driver.set_window_size(width, 800)
        driver.get(f"{served}/p/{world.project}/write")
        for level in INTIMACY_LEVELS:
            radio = driver.find_element(By.ID, f"level-{level}")
            label = driver.find_element(By.CSS_SELECTOR, f'label[for="level-{level}"]')
            assert radio.size["width"] < 40, (width, level, "not stretched")
            gap = label.location["x"] - (radio.location["x"] + radio.size["width"])
            assert 0 <= gap < 24, (width, level, "beside its label")
            assert abs(label.location["y"] - radio.location["y"]) < radio.size["height"], (width, level)
        problems += [f"write at {width}px: {v}" for v in _violations(driver)]
        driver.get(f"{served}/delete/{_path(world.entry_ids[('coauthor', 'circle')])}")
        assert driver.find_element(By.CSS_SELECTOR, "button.danger").is_displayed()
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), width
        problems += [f"delete at {width}px: {v}" for v in _violations(driver)]
    driver.set_window_size(1100, 900)
    assert not problems, problems
