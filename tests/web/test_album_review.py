"""Reviewing the names recognition found, on the people page, over HTTP against the real service and Neo4j: a name
guessed as the wrong kind is confirmed as the right one, or merged into a known entity of that kind; the kind and the
merge box carry visible labels in three languages; a merge into an unknown name or one of another kind, a kind that
is none of the three, or a name no longer to review is said in a sentence beside the list, with what was typed kept,
and changes nothing; a name seen only in a hidden entry answers exactly like one nobody wrote; and in Chromium, the
form is accessible at a desk's and a phone's width and Enter in the merge box merges."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
from markupsafe import escape
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from api.web.words import STRINGS
from graph.db import get_graph
from graph.settings import get_settings
from tests.web import test_browser
from tests.web.test_browser import _violations
from tests.web_world import CSRF, WebWorld, local_link, signed_in

LANGS = ("es", "en", "fr")
CANDIDATE = re.compile(r"<strong>([^<]+)</strong>")
TEXTS = {
    "benalup": ("circle", "Paseamos por Benalup toda la tarde con los niños."),
    "gades": ("circle", "Paseamos por Gades toda la mañana con los primos."),
    "zahara": ("private", "Paseamos por Zahara toda la noche, sin nadie más."),
}


def _said(key: str, lang: str = "en", **named: str) -> str:
    """A sentence as the page shows it (escaped), from the words table itself."""
    return str(escape(STRINGS[key][LANGS.index(lang)].format(**named)))


def _found(world: WebWorld, ingest: Callable[..., Any]) -> None:
    """Two towns recognition takes for people, in circle entries, and a third in the owner's private one."""
    rows = [
        {
            "entry_id": f"{world.project}/town-{key}",
            "project_id": world.project,
            "author": world.users["owner"],
            "intimacy": level,
            "occurred_on": "2011-02-03",
            "text": text,
        }
        for key, (level, text) in TEXTS.items()
    ]
    assert not ingest(rows).errors


def _review(page: str) -> str:
    return page.split('id="review"', 1)[1] if 'id="review"' in page else ""


def _kind_section(page: str, kind: str) -> str:
    return page.split(f'id="kind-{kind}"', 1)[1].split("</section>", 1)[0] if f'id="kind-{kind}"' in page else ""


def _item(page: str, name: str) -> str:
    """The review list's item of one candidate."""
    return _review(page).split(f"<strong>{name}</strong>", 1)[1].split("</li>", 1)[0]


def _decide(browser: httpx.Client, world: WebWorld, lang: str = "en", **data: str) -> httpx.Response:
    token = CSRF.findall(browser.get(f"/p/{world.project}/people").text)[-1]
    return browser.post(f"/p/{world.project}/candidates", params={"lang": lang}, data={"csrf": token, **data})


def test_a_name_guessed_as_a_person_is_confirmed_as_a_place(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    _found(world, ingest)
    coauthor = signed_in(served, world.users["coauthor"])
    page = coauthor.get(f"/p/{world.project}/people", params={"lang": "en"}).text
    item = _item(page, "Benalup")
    assert _said("found_as", kind=_said("a_person")) in item, "recognition's guess is said"
    assert re.search(r'<option value="person" selected>', item) and '<option value="place">' in item
    done = _decide(coauthor, world, name="Benalup", kind="place", decision="confirm")
    assert done.status_code == 303 and done.headers["location"].endswith("/people#review"), done.text[:300]

    after = coauthor.get(f"/p/{world.project}/people").text
    assert "Benalup" not in CANDIDATE.findall(_review(after)), "decided: no longer to review"
    assert ">Benalup</a>" in _kind_section(after, "place") and "Benalup" not in _kind_section(after, "person")
    reader = signed_in(served, world.users["reader"]).get(f"/p/{world.project}/people").text
    assert ">Benalup</a>" in _kind_section(reader, "place"), "seen in a circle entry: declared for the circle"
    entity = coauthor.get(f"/p/{world.project}/entity", params={"name": "Benalup"})
    assert entity.status_code == 200 and "<h1>Benalup" in entity.text


def test_a_merge_into_another_kind_is_said_in_words_then_made_as_the_kind_chosen(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    _found(world, ingest)
    coauthor = signed_in(served, world.users["coauthor"])
    for lang in ("es", "fr", "en"):  # English last: the language chosen is kept for the pages that follow
        refused = _decide(coauthor, world, lang, name="Gades", kind="person", decision="merge", into="cádiz")
        assert refused.status_code == 422
        sentence = _said(
            "review_merge_other_kind",
            lang,
            into="Cádiz",
            name="Gades",
            its_kind=STRINGS["a_place"][LANGS.index(lang)],
            kind=STRINGS["a_person"][LANGS.index(lang)],
        )
        assert sentence in refused.text, lang
        assert "422" not in refused.text.split("<main", 1)[1] and "value_error" not in refused.text
        assert 'value="cádiz"' in _item(refused.text, "Gades"), "what was typed is kept"
    page = coauthor.get(f"/p/{world.project}/people").text
    assert "Gades" in CANDIDATE.findall(_review(page)), "the refused merge changed nothing"
    assert coauthor.get(f"/p/{world.project}/entity", params={"name": "Gades"}).status_code == 404

    done = _decide(coauthor, world, name="Gades", kind="place", decision="merge", into="cádiz")
    assert done.status_code == 303, done.text[:300]
    merged = coauthor.get(f"/p/{world.project}/entity", params={"name": "Gades"})
    assert merged.status_code == 200 and "<h1>Cádiz" in merged.text, "merged: Gades answers as Cádiz"
    assert "Gades" not in CANDIDATE.findall(_review(coauthor.get(f"/p/{world.project}/people").text))


def test_the_kind_and_the_merge_box_are_labelled_and_every_refusal_is_a_sentence(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    _found(world, ingest)
    coauthor = signed_in(served, world.users["coauthor"])
    for lang in LANGS:
        item = _item(coauthor.get(f"/p/{world.project}/people", params={"lang": lang}).text, "Benalup")
        for field, label in (("kind", _said("review_kind", lang, name="Benalup")), ("into", _said("same_as", lang))):
            ident = re.search(rf'<(?:select|input) id="({field}-\d+)" name="{field}"', item)
            assert ident, (lang, field)
            assert f'<label for="{ident.group(1)}">{label}</label>' in item, (lang, field)
            assert 'class="sr-only"' not in item, "the labels are visible"
    item = _item(coauthor.get(f"/p/{world.project}/people", params={"lang": "en"}).text, "Benalup")
    assert item.index('value="merge"') < item.index('value="confirm"'), "Enter in the merge box merges"

    refusals = [
        (dict(kind="person", decision="merge", into="Nadie Conocido"), 422, "review_merge_unknown"),
        (dict(kind="person", decision="merge", into="  "), 422, "review_merge_empty"),
        (dict(kind="animal", decision="confirm"), 422, "review_bad_kind"),
    ]
    for data, status, words in refusals:
        refused = _decide(coauthor, world, name="Benalup", **data)
        assert refused.status_code == status, (data, refused.text[:300])
        sentence = _said(words, name="Benalup", into=data.get("into", "").strip())
        alert = re.search(r'<p class="error" role="alert" id="review-refused">([^<]*)</p>', refused.text)
        assert alert and alert.group(1) == sentence, data
        assert "[" not in alert.group(1) and "(422)" not in refused.text
    page = coauthor.get(f"/p/{world.project}/people").text
    assert "Benalup" in CANDIDATE.findall(_review(page)) and "review-refused" not in page, "nothing changed"


def test_a_name_only_in_a_hidden_entry_answers_like_a_name_nobody_wrote(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    _found(world, ingest)
    coauthor = signed_in(served, world.users["coauthor"])
    assert "Zahara" not in coauthor.get(f"/p/{world.project}/people").text
    hidden = _decide(coauthor, world, name="Zahara", kind="place", decision="confirm")
    missing = _decide(coauthor, world, name="Zaharita", kind="place", decision="confirm")
    assert hidden.status_code == missing.status_code == 404
    assert _said("review_gone", name="Zahara") in hidden.text
    assert hidden.text.replace("Zahara", "?") == missing.text.replace("Zaharita", "?"), "the same page, name aside"
    owner = signed_in(served, world.users["owner"])
    assert "Zahara" in CANDIDATE.findall(_review(owner.get(f"/p/{world.project}/people").text)), "not decided"

    reader = signed_in(served, world.users["reader"])
    token = CSRF.findall(reader.get(f"/p/{world.project}/people").text)[-1]
    data = {"csrf": token, "name": "Benalup", "kind": "place", "decision": "merge", "into": "Nadie"}
    assert reader.post(f"/p/{world.project}/candidates", data=data).status_code == 403, "a reader is refused first"


driver = test_browser.driver  # the browser tests' own Chromium, one per module


def test_in_a_browser_the_review_is_accessible_and_enter_in_the_merge_box_merges_as_the_kind_chosen(
    driver: webdriver.Chrome, served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    _found(world, ingest)
    driver.delete_all_cookies()
    driver.get(served + local_link(get_graph(get_settings()), get_settings()))
    driver.find_element(By.CSS_SELECTOR, f'button.pick[value="{world.users["coauthor"]}"]').click()
    WebDriverWait(driver, 30).until(lambda d: "/signin" not in d.current_url)
    problems: list[str] = []
    for width in (1100, 360):
        driver.set_window_size(width, 800)
        driver.get(f"{served}/p/{world.project}/people?lang=en")
        for field in ("kind", "into"):
            box = driver.find_elements(By.CSS_SELECTOR, f'section[aria-labelledby="review"] [name="{field}"]')[0]
            label = driver.find_element(By.CSS_SELECTOR, f'label[for="{box.get_attribute("id")}"]')
            assert label.is_displayed() and label.text and box.is_displayed(), (width, field)
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), width
        problems += [f"people at {width}px: {v}" for v in _violations(driver)]
    driver.set_window_size(1100, 900)
    assert not problems, problems

    item = driver.find_element(By.XPATH, '//section[@aria-labelledby="review"]//li[strong[text()="Gades"]]')
    Select(item.find_element(By.NAME, "kind")).select_by_value("place")
    into = item.find_element(By.NAME, "into")
    into.send_keys("Cádiz")
    into.send_keys(Keys.ENTER)
    WebDriverWait(driver, 30).until(lambda d: d.current_url.endswith("/people#review"))
    driver.get(f"{served}/p/{world.project}/entity?name=Gades")
    assert driver.find_element(By.TAG_NAME, "h1").text.startswith("Cádiz"), "merged into the place"
