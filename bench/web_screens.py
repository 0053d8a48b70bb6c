"""Screenshots of the web app's pages on the demo, for the README: headless Chromium (Debian's `chromium` and
`chromium-driver`) against a running `memora serve` of the same MEMORA_HOME, signed in through a one-time sign-in
link and the member picker as the owner and as the reader.

    make demo && make serve            (in another terminal)
    .venv/bin/python bench/web_screens.py [--url http://127.0.0.1:8077] [--out docs/screens]
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from graph.db import get_graph
from graph.settings import get_settings
from graph.web_sessions import add_link

PROJECT = "demo-family"
PAGES = {
    "home": f"/p/{PROJECT}?lang=es",
    "search": f"/p/{PROJECT}?q=%C2%BFqu%C3%A9+dijo+pap%C3%A1+del+piso%3F&lang=es",
    "nothing": f"/p/{PROJECT}?q=qwertyuiop&lang=es",
    "timeline": f"/p/{PROJECT}/timeline?year=2008&lang=es",
    "entry": f"/e/{PROJECT}/e14?lang=es",
    "chapters": f"/p/{PROJECT}/chapters?theme=toda+la+era+Madrid&words=450&lang=es",
    "people": f"/p/{PROJECT}/people?lang=es",
    "entity": f"/p/{PROJECT}/entity?name=Marta&lang=es",
    "companions": f"/p/{PROJECT}/entity?name=Pep&lang=es",
    "summers": f"/p/{PROJECT}/chapters?theme=los+veranos&words=450&lang=es",
    "write": f"/p/{PROJECT}/write?lang=es",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8077")
    parser.add_argument("--out", type=Path, default=Path("docs/screens"))
    args = parser.parse_args()
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,1000", "--lang=es"):
        options.add_argument(flag)
    browser = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
    args.out.mkdir(parents=True, exist_ok=True)
    settings = get_settings()
    graph = get_graph(settings)
    try:
        browser.get(f"{args.url}/signin/local?key={add_link(graph, settings)}")
        browser.get(f"{args.url}/signin?lang=es")
        browser.save_screenshot(str(args.out / "signin.png"))
        for user in ("ana", "lola"):
            browser.delete_all_cookies()
            browser.get(f"{args.url}/signin/local?key={add_link(graph, settings)}")
            browser.find_element(By.CSS_SELECTOR, f'button.pick[value="{user}"]').click()
            WebDriverWait(browser, 30).until(lambda d: "/signin" not in d.current_url)
            for name, path in PAGES.items():
                browser.get(args.url + path)
                browser.save_screenshot(str(args.out / f"{name}-{user}.png"))
    finally:
        browser.quit()
    print("\n".join(sorted(str(p) for p in args.out.glob("*.png"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
