"""The web app in a real browser: headless Chromium from Debian's packages, driven by Selenium through Debian's
chromedriver, against `memora serve`'s app on the real Neo4j. Each role signs in through the form and opens each
page; what the rules hide from it is absent from the DOM and from every response the page fetched; axe-core finds
no serious or critical accessibility violation; no page weighs over 300 KB. With MEMORA_SCREENS=DIR each page's
screenshot is written there (docs/screens/ holds the ones the README shows)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from api import auth
from graph.db import Graph, get_graph
from graph.ids import period_id
from graph.settings import Settings, get_settings
from graph.witnesses import create_grant
from tests.web_world import CHAPTER, WebWorld, add_chapter, local_link

AXE = Path(__file__).resolve().parents[2] / ".venv" / "axe" / "axe.min.js"
MAX_PAGE_BYTES = 300_000
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def driver() -> Iterator[webdriver.Chrome]:
    assert BROWSER and DRIVER, "the browser tests need Debian's chromium and chromium-driver (README, 'Development')"
    assert AXE.exists(), f"axe-core is fetched by `make test` into {AXE}"
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument("--window-size=1100,900")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    browser = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    browser.set_page_load_timeout(60)
    browser.set_script_timeout(60)
    try:
        yield browser
    finally:
        browser.quit()


def _fetched(browser: webdriver.Chrome) -> list[tuple[str, str]]:
    """Every response the browser received since the last call: (url, body)."""
    bodies = []
    for entry in browser.get_log("performance"):  # type: ignore[no-untyped-call]
        message = json.loads(entry["message"])["message"]
        if message["method"] != "Network.responseReceived":
            continue
        request_id, url = message["params"]["requestId"], message["params"]["response"]["url"]
        try:
            body = browser.execute_cdp_cmd("Network.getResponseBody", {"requestId": request_id})
        except Exception:  # a redirect or a response the browser has already dropped carries no body
            continue
        bodies.append((url, body.get("body", "")))
    return bodies


def _violations(browser: webdriver.Chrome) -> list[str]:
    browser.execute_script(AXE.read_text(encoding="utf-8"))
    found = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations));"
    )
    return [f"{v['id']} ({v['impact']}): {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


def _sign_in(browser: webdriver.Chrome, url: str, user: str) -> None:
    browser.delete_all_cookies()
    browser.get(url + local_link(get_graph(get_settings()), get_settings()))
    box = browser.find_element(By.ID, "user")
    box.send_keys(user)
    box.submit()
    WebDriverWait(browser, 30).until(lambda d: "/signin" not in d.current_url)


def test_each_role_sees_only_what_it_may_on_every_page_and_every_page_is_accessible(
    driver: webdriver.Chrome, served: str, world: WebWorld
) -> None:
    screens = os.environ.get("MEMORA_SCREENS")
    pages = {
        "search": f"/p/{world.project}?q=C%C3%A1diz+con+Marta+aquel+viaje",
        "timeline": f"/p/{world.project}/timeline?year=2005",
        "entry": f"/e/{world.entry_ids[('owner', 'circle')]}",
        "chapters": f"/p/{world.project}/chapters?theme=el+viaje+en+tren+a+C%C3%A1diz&budget=3000&draft=true",
        "people": f"/p/{world.project}/people",
        "entity": f"/p/{world.project}/entity?name=Marta",
        "write": f"/p/{world.project}/write",
    }
    problems: list[str] = []
    for role in ("owner", "coauthor", "reader"):
        hidden = {word for key, word in world.words.items() if key not in world.visible_to(role)}
        _sign_in(driver, served, world.users[role])
        assert driver.find_element(By.TAG_NAME, "h1").text, "signed in, a page with a heading"
        _fetched(driver)
        for name, path in pages.items():
            driver.get(served + path)
            dom = driver.execute_script("return document.documentElement.outerHTML")
            if name != "write":  # the form shows no entry (and a reader gets the refusal page)
                assert "palabra" in dom, (role, name, "the page shows the entries it may")
            leaks = [w for w in hidden if w in dom]
            assert not leaks, (role, name, "in the DOM", leaks)
            for url, body in _fetched(driver):
                assert not [w for w in hidden if w in body], (role, name, url)
                if url.startswith(served) and "/static/" not in url:
                    assert len(body.encode()) <= MAX_PAGE_BYTES, (role, name, url)
            problems += [f"{role} {name}: {v}" for v in _violations(driver)]
            if screens:
                Path(screens).mkdir(parents=True, exist_ok=True)
                driver.save_screenshot(str(Path(screens) / f"{name}-{role}.png"))
    driver.delete_all_cookies()
    driver.get(f"{served}/signin")
    problems += [f"signin: {v}" for v in _violations(driver)]
    if screens:
        driver.save_screenshot(str(Path(screens) / "signin.png"))
    assert not problems, problems


def test_on_a_phone_no_page_scrolls_sideways_and_the_entity_page_draws_its_companions(
    driver: webdriver.Chrome, served: str, world: WebWorld
) -> None:
    _sign_in(driver, served, world.users["owner"])
    driver.set_window_size(360, 800)
    try:
        for path in (
            "",
            "?q=C%C3%A1diz+Marta+2005",
            "/timeline?year=2005",
            "/people",
            "/entity?name=Marta",
            "/write",
            "/chapters",
        ):
            driver.get(f"{served}/p/{world.project}{path}")
            wide, view = driver.execute_script(
                "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            wider = driver.execute_script(
                "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > "
                "document.documentElement.clientWidth + 1).map(e => e.tagName + '.' + e.className).slice(0, 8)"
            )
            assert wide <= view, (path, wide, view, wider)
        driver.get(f"{served}/e/{world.entry_ids[('owner', 'circle')]}")
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")

        driver.get(f"{served}/p/{world.project}/entity?name=Marta")
        assert "Cádiz" in driver.find_element(By.ID, "companions").text
        names = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "svg#companions-picture a")]
        assert any(n.startswith("Cádiz") for n in names), names
        box = driver.find_element(By.ID, "companions-picture").rect
        assert 0 < box["width"] <= 360, box
    finally:
        driver.set_window_size(1100, 900)


def test_signing_out_in_the_browser_ends_the_session(driver: webdriver.Chrome, served: str, world: WebWorld) -> None:
    _sign_in(driver, served, world.users["reader"])
    driver.get(f"{served}/p/{world.project}/timeline")
    assert "signin" not in driver.current_url
    assert not driver.execute_script("return document.cookie"), "the session cookie is not readable by scripts"
    driver.find_element(By.CSS_SELECTOR, "form[action='/signout'] button").click()
    WebDriverWait(driver, 30).until(lambda d: d.current_url.endswith("/signin"))
    driver.get(f"{served}/p/{world.project}/timeline")
    assert driver.current_url.endswith("/signin")


def test_a_witness_link_shows_its_chapter_shared_entries_only_and_is_accessible(
    driver: webdriver.Chrome, served: str, world: WebWorld, graph: Graph, settings: Settings, ingest: Callable[..., Any]
) -> None:
    levels = ("private", "intimate", "circle", "public")
    add_chapter(world, ingest)
    grant = create_grant(
        graph, world.project, period_id(world.project, CHAPTER), world.users["owner"], timedelta(days=1)
    )
    assert grant
    driver.delete_all_cookies()
    _fetched(driver)
    driver.get(f"{served}/w/{auth.issue_witness(settings, grant, 3600)}")
    dom = driver.execute_script("return document.documentElement.outerHTML")
    assert {lv for lv in levels if f"testigo{lv}" in dom} == {"circle", "public"}
    hidden = ["testigoprivate", "testigointimate", *world.words.values()]
    assert not [w for w in hidden if w in dom]
    for url, body in _fetched(driver):
        assert not [w for w in hidden if w in body], url
    assert not _violations(driver)
    if os.environ.get("MEMORA_SCREENS"):
        driver.save_screenshot(str(Path(os.environ["MEMORA_SCREENS"]) / "witness.png"))


def test_a_page_rebound_to_this_machine_cannot_read_the_app(served: str, world: WebWorld) -> None:
    """DNS rebinding, with a host-resolver rule standing in for the rebind: the attacker's name reaches the local
    service, which refuses to answer under it, so the attacker's page never reads a member or an entry."""
    assert BROWSER and DRIVER
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument("--host-resolver-rules=MAP attacker.test 127.0.0.1")
    rebound = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    port = served.rsplit(":", 1)[1]
    try:
        rebound.set_page_load_timeout(60)
        for path in ("/signin", f"/p/{world.project}", "/v1/projects"):
            rebound.get(f"http://attacker.test:{port}{path}")
            text = rebound.find_element(By.TAG_NAME, "body").text
            assert "MEMORA_ALLOWED_HOSTS" in text, (path, text[:200])
            assert world.users["owner"] not in text and not any(w in text for w in world.words.values())
        rebound.get(f"{served}/signin")
        assert rebound.find_element(By.TAG_NAME, "h1").text, "the same browser still reaches the app by its own name"
    finally:
        rebound.quit()
