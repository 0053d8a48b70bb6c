"""A project's home (its name, what is new, on this day), the chapters page in words (a draft as formatted, escaped
text, a Markdown file, a theme that matches nothing), a witness invited by name through post/redirect/get, and a
witness thanked after writing: over HTTP against the real service and Neo4j, as each member sees it."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import httpx
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from graph.db import Graph
from queries.album import week_of
from tests.web import test_browser as browser_tests
from tests.web_world import CHAPTER, WebWorld, add_chapter, form_csrf, signed_in


def _section(html: str, start: str, end: str | None = None) -> str:
    """The part of the page from the element with id `start` to the one with id `end` (or the page's end)."""
    tail = html.split(f'id="{start}"', 1)[1]
    return tail.split(f'id="{end}"', 1)[0] if end else tail


def _shown(world: WebWorld, html: str) -> set[tuple[str, str]]:
    return {key for key, word in world.words.items() if word in html}


def _past(today: date, years: int) -> date:
    """Today's month and day `years` back (a 29 February becomes the 28th in a year without one)."""
    try:
        return today.replace(year=today.year - years)
    except ValueError:
        return today.replace(year=today.year - years, day=28)


def test_the_project_page_names_the_project_and_lists_only_what_is_new_that_the_viewer_may_see(
    served: str, world: WebWorld, graph: Graph, ingest: Callable[..., Any]
) -> None:
    graph.write("MATCH (p:Project {id: $id}) SET p.name = $name", {"id": world.project, "name": "Álbum de los Gil"})
    reader, owner = signed_in(served, world.users["reader"]), signed_in(served, world.users["owner"])
    before = reader.get(f"/p/{world.project}", params={"lang": "en"})
    assert before.status_code == 200
    assert re.search(r"<h1>\s*Álbum de los Gil\s*</h1>", before.text), "the project's name heads its page"
    assert 'role="search"' in before.text
    new = _section(before.text, "new-title", "day-title")
    assert _shown(world, new) == world.visible_to("reader"), "the latest entries the reader may see, and only those"
    assert new.count('class="album-item"') == len(world.visible_to("reader"))
    ingest(
        [
            {
                "entry_id": f"{world.project}/newest-private",
                "project_id": world.project,
                "author": world.users["owner"],
                "intimacy": "private",
                "occurred_on": _past(date.today(), 4).isoformat(),
                "title": "Título palabranuevaprivada",
                "text": "Una entrada privada escrita la última: palabranuevaprivada.",
            }
        ]
    )
    after = reader.get(f"/p/{world.project}", params={"lang": "en"})
    assert after.text == before.text, "an entry hidden from the reader changes nothing on the reader's page"
    mine = owner.get(f"/p/{world.project}", params={"lang": "en"}).text
    assert "palabranuevaprivada" in _section(mine, "new-title", "day-title"), "its author sees it first"
    assert "palabranuevaprivada" in _section(mine, "day-title"), "and on this day, four years ago"


def test_on_this_day_picks_the_visible_entries_of_todays_date_in_past_years_else_this_week(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    today = date.today()
    reader = signed_in(served, world.users["reader"])
    quiet = _section(reader.get(f"/p/{world.project}", params={"lang": "en"}).text, "day-title")
    assert "Nothing you can see happened on this day or this week" in quiet, "an empty day is said in words"
    other_day = next(d for d in week_of(today) if (d.month, d.day) != (today.month, today.day))
    rows = [
        (_past(today, 3), "circle", "palabradiahoy"),
        (_past(today, 5), "private", "palabradiaoculta"),
        (_past(other_day, 2), "public", "palabrasemana"),
        (_past(today + timedelta(days=40), 3), "public", "palabraotromes"),
    ]
    ingest(_as_records(world, rows))
    day = _section(reader.get(f"/p/{world.project}", params={"lang": "en"}).text, "day-title")
    assert "palabradiahoy" in day and "3 years ago" in day
    assert "palabradiaoculta" not in day, "a private entry of another author is not the reader's"
    assert "palabrasemana" not in day and "palabraotromes" not in day, "the day itself had an entry: only the day's"
    assert "What happened on" in day

    ingest([{**r, "intimacy": "private"} for r in _as_records(world, rows[:1])])
    week = _section(reader.get(f"/p/{world.project}", params={"lang": "en"}).text, "day-title")
    assert "palabradiahoy" not in week
    assert "palabrasemana" in week and "this week" in week, "nothing on the day: this week of past years, said so"
    assert "palabraotromes" not in week


def _as_records(world: WebWorld, rows: list[tuple[date, str, str]]) -> list[dict[str, Any]]:
    return [
        {
            "entry_id": f"{world.project}/day-{word}",
            "project_id": world.project,
            "author": world.users["owner"],
            "intimacy": level,
            "occurred_on": day.isoformat(),
            "text": f"Aquel día {word} fuimos al río.",
        }
        for day, level, word in rows
    ]


def test_the_chapters_page_asks_words_and_renders_the_outline_as_escaped_formatted_text(
    served: str, world: WebWorld
) -> None:
    reader = signed_in(served, world.users["reader"])
    theme = "<script>alert(1)</script> el viaje en tren a Cádiz con Marta"
    for lang, outline in (("es", "Esquema"), ("en", "Outline"), ("fr", "Plan")):
        page = reader.get(
            f"/p/{world.project}/chapters", params={"theme": theme, "words": 800, "draft": "true", "lang": lang}
        )
        assert page.status_code == 200, page.text[:300]
        assert "token" not in page.text.lower() and "jeton" not in page.text.lower(), lang
        assert 'name="words"' in page.text and 'name="budget"' not in page.text
        draft = _section(page.text, "draft-title", "project-title")
        assert f">{outline}</h2>" in draft, "without a language model the draft is called an outline"
        assert re.search(r"<h3>&lt;script&gt;alert\(1\)&lt;/script&gt; el viaje", draft), "a heading, escaped"
        assert "<li>" in draft and "<script>" not in page.text
        assert _shown(world, draft) and _shown(world, draft) <= world.visible_to("reader")
    old = reader.get(f"/p/{world.project}/chapters", params={"theme": "Cádiz", "budget": 3000, "lang": "en"})
    assert old.status_code == 200 and 'value="2000"' in old.text, "an older link's tokens are read as words"


def test_a_chapter_downloads_as_markdown_and_a_theme_that_matches_nothing_says_so(served: str, world: WebWorld) -> None:
    reader = signed_in(served, world.users["reader"])
    asked: dict[str, str | int] = {"theme": "el viaje en tren a Cádiz con Marta", "words": 800, "draft": "true"}
    page = reader.get(f"/p/{world.project}/chapters", params={**asked, "lang": "en"})
    link = re.search(r'href="(/p/[^"]+/chapters\.md\?[^"]+)"', page.text)
    assert link
    file = reader.get(link.group(1).replace("&amp;", "&"))
    assert file.status_code == 200
    assert file.headers["content-type"].startswith("text/markdown")
    assert (
        file.headers["content-disposition"].startswith("attachment;") and ".md" in file.headers["content-disposition"]
    )
    assert file.text.startswith("# el viaje en tren a Cádiz con Marta")
    assert _shown(world, file.text) and _shown(world, file.text) <= world.visible_to("reader")
    assert "@media print" in reader.get("/static/style.css").text

    for lang, said in (("en", "Nothing you can see matches"), ("es", "Nada de lo que puedes ver corresponde")):
        nothing = reader.get(f"/p/{world.project}/chapters", params={"theme": "qxzvw blorfnik", "lang": lang})
        assert nothing.status_code == 200 and said in nothing.text, lang
        assert 'id="project-title"' not in nothing.text and not _shown(world, nothing.text)
        assert 'id="draft-title"' not in nothing.text and "chapters.md" not in nothing.text
    nearest = re.search(r'href="([^"]+near=true[^"]*)"', nothing.text)
    assert nearest, "the nearest in meaning stays one link away"
    near = reader.get(nearest.group(1).replace("&amp;", "&"))
    assert near.status_code == 200 and 'id="project-title"' in near.text
    assert _shown(world, near.text) <= world.visible_to("reader")
    named = reader.get(f"/p/{world.project}/chapters", params={"theme": "Marta", "lang": "en"})
    assert "Nothing you can see matches" not in named.text and 'id="cited-title"' in named.text, "a name finds"


def test_an_invite_names_its_witness_redirects_and_shows_the_link_once_and_a_witness_is_thanked(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    add_chapter(world, ingest)
    owner, reader = signed_in(served, world.users["owner"]), signed_in(served, world.users["reader"])
    page = owner.get(f"/p/{world.project}/chapters", params={"lang": "en"})
    period = re.search(r'name="period_id" value="([^"]+)"', page.text)
    assert period and 'name="name"' in page.text
    invite = {"period_id": period.group(1), "name": "Tía Carmen", "csrf": form_csrf(page)}
    made = owner.post(f"/p/{world.project}/witnesses", data=invite)
    assert made.status_code == 303
    where = made.headers["location"]
    assert where.startswith(f"/p/{world.project}/witnesses/")
    shown = owner.get(where, params={"lang": "en"})
    assert shown.status_code == 200
    assert CHAPTER in shown.text and "Tía Carmen" in shown.text
    link = re.search(r'id="link" value="[^"]*(/w/[^"]+)"', shown.text)
    assert link and link.group(1).split("/w/", 1)[1] not in where, "the link's secret is never in the page's URL"
    assert 'src="/static/buttons.js"' in shown.text and "data-copy=" in shown.text and " readonly" in shown.text
    again = owner.get(where, params={"lang": "en"})
    assert again.status_code == 200 and 'id="link"' not in again.text and "shown once" in again.text
    assert CHAPTER in again.text and "Tía Carmen" in again.text
    assert reader.get(where).status_code == 403, "only the owner reads a link back"

    with httpx.Client(base_url=served, follow_redirects=False, timeout=60) as witness:
        home = witness.get(link.group(1), headers={"accept-language": "es"})
        added = witness.post(
            link.group(1), data={"text": "Yo también estaba: palabratestigonombrado.", "csrf": form_csrf(home)}
        )
        assert added.status_code == 303 and added.headers["location"].startswith(link.group(1))
        thanked = witness.get(added.headers["location"], headers={"accept-language": "es"})
        assert "Gracias: tu recuerdo se ha guardado" in thanked.text
        assert "Gracias" not in witness.get(link.group(1), headers={"accept-language": "es"}).text
    album = _section(reader.get(f"/p/{world.project}", params={"lang": "en"}).text, "new-title", "day-title")
    assert "palabratestigonombrado" in album and "Tía Carmen" in album and "witness:" not in album


driver = browser_tests.driver


def test_in_a_browser_the_invite_copies_its_link_and_the_album_pages_fit_a_phone(
    driver: webdriver.Chrome, served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    add_chapter(world, ingest)
    browser_tests._sign_in(driver, served, world.users["owner"])
    driver.get(f"{served}/p/{world.project}/chapters?lang=en")
    driver.find_element(By.ID, "witness-name-1").send_keys("Tío Paco")
    driver.find_element(By.CSS_SELECTOR, ".invite-form button[type=submit]").click()
    WebDriverWait(driver, 30).until(lambda d: "/witnesses/" in d.current_url)
    assert "/w/" not in driver.current_url and "Tío Paco" in driver.page_source
    link = driver.find_element(By.ID, "link").get_attribute("value") or ""
    assert "/w/" in link
    copy = driver.find_element(By.CSS_SELECTOR, "button[data-copy]")
    assert copy.is_displayed(), "the copy button shows once its script runs"
    copy.click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-copy-status]").text == "Copied")
    assert not browser_tests._violations(driver)
    driver.set_window_size(360, 800)
    try:
        for path in (f"/p/{world.project}", f"/p/{world.project}/chapters?theme=Sevilla&draft=true"):
            driver.get(served + path)
            assert not browser_tests._violations(driver), path
            assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), path
    finally:
        driver.set_window_size(1100, 900)
