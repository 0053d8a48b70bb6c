"""The entity and timeline pages as a family album, against `memora serve`'s app on the real Neo4j: the entity's
entries per year drawn without matplotlib (the page, its picture and the API's), who appears with it in plain counts
and as a picture, the entries that name it a page at a time, entries dated by a season counted in their middle month,
and years, months and people without entries saying so. Nothing a reader sees moves when a private entry of another
author is added."""

from __future__ import annotations

import html
import re
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from api import auth
from graph.db import Graph
from graph.settings import Settings
from graph.visibility import INTIMACY_LEVELS, Viewer
from queries.entry_histogram import entry_histogram
from tests.web_world import AUTHORS, WebWorld, signed_in

MONTH_BAR = re.compile(r'<span class="label">([^<]+)</span><meter[^>]*></meter><span class="count">(\d+)</span>')
ENTRY_LINK = re.compile(r'<a href="/e/([^"]+)">')


def _svg(page: str, ident: str) -> str:
    found = re.search(rf'<svg [^>]*id="{ident}".*?</svg>', page, re.S)
    assert found, page[:500]
    return found.group(0)


def _desc(svg: str) -> str:
    found = re.search(r"<desc [^>]*>(.*?)</desc>", svg, re.S)
    assert found
    return html.unescape(found.group(1))


def _section(page: str, ident: str) -> str:
    found = re.search(rf'<section aria-labelledby="{ident}".*?</section>', page, re.S)
    assert found, ident
    return found.group(0)


def _entries(page: str) -> list[str]:
    return [unquote(html.unescape(i)) for i in ENTRY_LINK.findall(_section(page, "entries-title"))]


def _date(author: str, level: str) -> str:
    """The date `tests.web_world.build_world` gives the entry of `author` at `level`."""
    n, m = AUTHORS.index(author), INTIMACY_LEVELS.index(level)
    return f"{2005 + n}-0{m + 3}-1{m}"


def _hide(world: WebWorld, ingest: Callable[..., Any], rows: list[dict[str, Any]]) -> None:
    """Private entries of the coauthor: nothing the reader sees may move."""
    base = {"project_id": world.project, "author": world.users["coauthor"], "intimacy": "private", "text": "Secreto."}
    assert not ingest([{**base, **row} for row in rows]).errors


def _album(reader: httpx.Client, world: WebWorld, name: str) -> dict[str, str]:
    page = reader.get(f"/p/{world.project}/entity", params={"name": name, "lang": "en"})
    assert page.status_code == 200, page.text[:300]
    return {
        "chart": _svg(page.text, "entity-timeline"),
        "with": _section(page.text, "with-title"),
        "entries": _section(page.text, "entries-title"),
    }


def test_the_chart_is_drawn_without_matplotlib_from_the_visible_entries_only(
    served: str,
    world: WebWorld,
    settings: Settings,
    ingest: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the `plot` extra were not installed
    reader = signed_in(served, world.users["reader"])
    years = Counter(2005 + AUTHORS.index(author) for author, _ in world.visible_to("reader"))
    numbers = "; ".join(f"{y}: {n} entries" for y, n in sorted(years.items()))
    before = _album(reader, world, "Marta")
    assert _desc(before["chart"]) == numbers
    assert "Entries per year of Marta" in before["chart"] and 'role="img"' in before["chart"]
    spanish = reader.get(f"/p/{world.project}/entity", params={"name": "Marta", "lang": "es"}).text
    assert "Entradas por año de Marta" in _svg(spanish, "entity-timeline")

    alone = reader.get(f"/p/{world.project}/entity.svg", params={"name": "Marta", "lang": "fr"})
    assert alone.status_code == 200 and alone.headers["content-type"].startswith("image/svg+xml")
    assert "Entrées par an de Marta" in alone.text and _desc(alone.text).startswith(f"{min(years)}: ")
    bearer = {"Authorization": f"Bearer {auth.issue(settings, world.users['reader'])}"}
    api = httpx.get(
        f"{served}/v1/projects/{world.project}/analytics/timeline.svg", params={"entity": "Marta"}, headers=bearer
    )
    assert api.status_code == 200 and api.headers["content-type"].startswith("image/svg+xml")
    assert api.text.startswith("<?xml") and _desc(api.text) == numbers

    _hide(world, ingest, [{"entry_id": f"{world.project}/h-marta", "occurred_on": "2005-07-01", "persons": ["Marta"]}])
    assert _album(reader, world, "Marta") == before
    author = signed_in(served, world.users["coauthor"])
    assert _desc(_album(author, world, "Marta")["chart"]) != _desc(before["chart"]), "the author sees her entry"


def test_appears_with_says_how_many_entries_together_and_draws_only_visible_companions(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    reader = signed_in(served, world.users["reader"])
    page = reader.get(f"/p/{world.project}/entity", params={"name": "Marta", "lang": "en"}).text
    assert 'id="measure"' not in page and "Jaccard" not in page and "PMI" not in page
    shown = world.visible_to("reader")
    assert f"appear together in {len(shown)} entries" in _section(page, "with-title"), "Cádiz, in every one"
    picture = _svg(page, "companions-picture")
    named = {html.unescape(n) for n in re.findall(r"<title>([^<:]+):", picture)}
    assert named == {"Cádiz"} | {"Persona" + world.words[key] for key in shown}
    links = {unquote(html.unescape(h)) for h in re.findall(r'<a class="picture-link" href="([^"]+)"', picture)}
    assert links == {f"/p/{world.project}/entity?name={n}" for n in named}
    assert f"Cádiz: appear together in {len(shown)} entries" in _desc(picture)
    for key, word in world.words.items():
        assert (word in page) == (key in shown), key

    before = _album(reader, world, "Marta")
    _hide(
        world,
        ingest,
        [{"entry_id": f"{world.project}/h-with", "occurred_on": "2006-01-02", "persons": ["Marta", "Escondida"]}],
    )
    assert _album(reader, world, "Marta") == before
    assert "Escondida" in _album(signed_in(served, world.users["coauthor"]), world, "Marta")["with"]


def test_the_picture_draws_eight_companions_and_the_entries_come_newest_first_a_page_at_a_time(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    owner = {"project_id": world.project, "author": world.users["owner"], "intimacy": "public"}
    rows = [
        {
            **owner,
            "entry_id": f"{world.project}/abuela-{i:02d}",
            "occurred_on": f"2010-{i // 28 + 1:02d}-{i % 28 + 1:02d}",
            "persons": ["Abuela", f"Primo{i:02d}"],
            "text": f"Con la abuela, día {i}.",
        }
        for i in range(25)
    ]
    assert not ingest(rows).errors
    reader = signed_in(served, world.users["reader"])
    first = reader.get(f"/p/{world.project}/entity", params={"name": "Abuela"}).text
    picture = _svg(first, "companions-picture")
    assert picture.count('<a class="picture-link"') == 8
    newest = [r["entry_id"] for r in sorted(rows, key=lambda r: r["occurred_on"], reverse=True)]
    assert _entries(first) == newest[:20]
    older = re.search(r'<a href="([^"]+)" rel="next">', first)
    assert older
    second = reader.get(html.unescape(older.group(1))).text
    assert _entries(second) == newest[20:] and 'rel="next"' not in second

    before = (_album(reader, world, "Abuela"), second)
    _hide(
        world,
        ingest,
        [
            {"entry_id": f"{world.project}/h-abuela-{i}", "occurred_on": f"2010-01-{i + 10}", "persons": ["Abuela"]}
            for i in range(3)
        ],
    )
    assert (_album(reader, world, "Abuela"), reader.get(html.unescape(older.group(1))).text) == before

    marta = reader.get(f"/p/{world.project}/entity", params={"name": "Marta"}).text
    visible = sorted(world.visible_to("reader"), key=lambda k: _date(*k), reverse=True)
    assert _entries(marta) == [world.entry_ids[k] for k in visible]


def test_a_season_counts_once_in_its_middle_month_and_a_year_in_no_month(
    served: str, world: WebWorld, graph: Graph, ingest: Callable[..., Any]
) -> None:
    dated = {
        "summer": "2009-06-21/2009-09-22",
        "year": "2010",
        "winter": "2011-12-21/2012-03-20",
        "long": "2013-01-01/2014-06-30",
        "month": "2015-03",
    }
    base = {"project_id": world.project, "author": world.users["owner"], "intimacy": "public"}
    rows = [{**base, "entry_id": f"{world.project}/d-{k}", "occurred_on": d, "text": k} for k, d in dated.items()]
    assert not ingest(rows).errors
    reader = Viewer(user_id=world.users["reader"])

    def bars() -> dict[tuple[int | None, int | None], int]:
        return {(b.year, b.month): b.entries for b in entry_histogram(graph, reader, world.project)}

    counted = bars()
    assert counted[(2009, 8)] == 1 and (2009, None) not in counted, "summer 2009: August, its middle"
    assert counted[(2010, None)] == 1 and not any(y == 2010 and m for y, m in counted)
    assert counted[(2012, 2)] == 1 and not any(y == 2011 for y, _ in counted), "a winter in its middle's year"
    assert counted[(2013, None)] == 1 and not any(y == 2014 for y, _ in counted)
    assert counted[(2015, 3)] == 1

    browser = signed_in(served, world.users["reader"])
    page = browser.get(f"/p/{world.project}/timeline", params={"year": 2009, "lang": "en"}).text
    months = dict(MONTH_BAR.findall(page.split('id="months-title"', 1)[1]))
    assert months["Aug"] == "1" and sum(int(n) for n in months.values()) == 1
    year = browser.get(f"/p/{world.project}/timeline", params={"year": 2010, "lang": "en"}).text
    assert "Without a month: 1" in year

    _hide(world, ingest, [{"entry_id": f"{world.project}/h-summer", "occurred_on": dated["summer"], "text": "x"}])
    assert bars() == counted
    author = Viewer(user_id=world.users["coauthor"])
    mine = {(b.year, b.month): b.entries for b in entry_histogram(graph, author, world.project)}
    assert mine[(2009, 8)] == 2, "its author counts it, in the same month"


def test_a_year_a_month_and_a_person_without_entries_say_so(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    base = {"project_id": world.project, "author": world.users["owner"], "intimacy": "public", "text": "Un día."}
    tia = 'Tía "Rosa" <b>&'
    rows = [
        {**base, "entry_id": f"{world.project}/solo", "occurred_on": "2008-02-02", "persons": ["Solitaria"]},
        {**base, "entry_id": f"{world.project}/tia", "occurred_on": "2008-02-03", "persons": ["Abuelo", tia]},
    ]
    assert not ingest(rows).errors
    reader = signed_in(served, world.users["reader"])
    timeline = f"/p/{world.project}/timeline"
    assert "No hay entradas en 1970." in reader.get(timeline, params={"year": 1970, "lang": "es"}).text
    assert (
        "No hay entradas en marzo de 1970."
        in reader.get(timeline, params={"year": 1970, "month": 3, "lang": "es"}).text
    )
    assert "Aucune entrée en 1970." in reader.get(timeline, params={"year": 1970, "lang": "fr"}).text
    assert "No entries in" not in reader.get(timeline, params={"year": 2005, "lang": "en"}).text

    alone = reader.get(f"/p/{world.project}/entity", params={"name": "Solitaria", "lang": "es"}).text
    assert "Nadie más aparece con Solitaria en las entradas que puedes ver." in alone
    assert 'id="companions-picture"' not in alone

    abuelo = reader.get(f"/p/{world.project}/entity", params={"name": "Abuelo"}).text
    picture = _svg(abuelo, "companions-picture")
    assert "<b>" not in picture and "Tía &quot;Rosa&quot; &lt;b&gt;&amp;" in picture
