"""A chapter whose theme names a recurring time ("los veranos en Cádiz", "summers", "les étés", "las navidades"),
over HTTP against the real service and Neo4j: the entries of every year's occurrence, and of the place when the
theme names one, gathered year by year; an entry of another season, of another place or dated only by its year is
left out; an entry hidden from the viewer never appears nor changes their page; nothing in the season says so."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
from markupsafe import escape

from api.web.words import STRINGS
from tests.web_world import WebWorld, signed_in

LANGS = ("es", "en", "fr")
# word -> (date, places, level, author)
ENTRIES: dict[str, tuple[str, list[str], str, str]] = {
    "palabraverano2007": ("2007-07-15", ["Cádiz"], "circle", "owner"),
    "palabraverano2009": ("2009-08-10", ["Cádiz"], "circle", "coauthor"),
    "palabraverano2011": ("2011-07-02", ["Cádiz"], "public", "owner"),
    "palabraotono2008": ("2008-11-20", ["Cádiz"], "circle", "owner"),
    "palabrasevilla2010": ("2010-08-01", ["Sevilla"], "circle", "owner"),
    "palabraano2012": ("2012", ["Cádiz"], "circle", "owner"),
}
IN_CADIZ = {"palabraverano2007", "palabraverano2009", "palabraverano2011"}
HEADING = re.compile(r'<h2 id="period-\d+">([^<]+)</h2>')


def _rows(world: WebWorld, entries: dict[str, tuple[str, list[str], str, str]]) -> list[dict[str, Any]]:
    return [
        {
            "entry_id": f"{world.project}/season-{word}",
            "project_id": world.project,
            "author": world.users[author],
            "intimacy": level,
            "occurred_on": when,
            "text": f"Una tarde en la playa con la familia: {word} lo cuenta todo de aquel día.",
            "places": places,
        }
        for word, (when, places, level, author) in entries.items()
    ]


def _chapter(browser: httpx.Client, world: WebWorld, theme: str, lang: str = "es") -> httpx.Response:
    page = browser.get(f"/p/{world.project}/chapters", params={"theme": theme, "lang": lang})
    assert page.status_code == 200, page.text[:300]
    return page


def _cited(page: str, words: set[str]) -> set[str]:
    cited = page.split('id="cited-title"', 1)[1] if 'id="cited-title"' in page else ""
    return {w for w in words if w in cited}


def _own_words(world: WebWorld) -> set[str]:
    return set(world.words.values())


def test_the_summers_of_several_years_are_gathered_year_by_year_in_the_place_named(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    assert not ingest(_rows(world, ENTRIES)).errors
    reader = signed_in(served, world.users["reader"])
    everything = set(ENTRIES) | _own_words(world)
    page = _chapter(reader, world, "los veranos en Cádiz").text
    assert HEADING.findall(page) == ["verano de 2007", "verano de 2009", "verano de 2011"], "one a year, in order"
    assert str(escape(STRINGS["season_note"][0].format(theme="los veranos en Cádiz"))) in page
    assert _cited(page, everything) == IN_CADIZ, "summers in Cádiz only: not autumn, not Sevilla, not a whole year"

    anywhere = _chapter(reader, world, "los veranos").text
    assert HEADING.findall(anywhere) == [f"verano de {y}" for y in (2007, 2009, 2010, 2011)]
    assert _cited(anywhere, everything) == IN_CADIZ | {"palabrasevilla2010"}
    for theme, lang, summer in (("summers in Cádiz", "en", "summer"), ("les étés à Cádiz", "fr", "été")):
        said = _chapter(reader, world, theme, lang).text
        assert HEADING.findall(said) == [f"{summer} {y}" for y in (2007, 2009, 2011)], theme
        assert _cited(said, everything) == IN_CADIZ, theme


def test_a_hidden_summer_never_appears_nor_changes_anything_and_an_empty_season_says_so(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    assert not ingest(_rows(world, ENTRIES)).errors
    reader = signed_in(served, world.users["reader"])
    themes = ("los veranos en Cádiz", "las navidades en Cádiz")
    before = {theme: _chapter(reader, world, theme).text for theme in themes}
    nothing = str(escape(STRINGS["nothing_matched"][0].format(theme="las navidades en Cádiz")))
    assert nothing in before["las navidades en Cádiz"] and 'id="cited-title"' not in before["las navidades en Cádiz"]

    hidden = {
        "palabraoculta2013": ("2013-07-05", ["Cádiz"], "private", "owner"),
        "palabraintima2014": ("2014-08-01", ["Cádiz"], "intimate", "coauthor"),
        "palabranavidad2009": ("2009-12-25", ["Cádiz"], "private", "owner"),
    }
    assert not ingest(_rows(world, hidden)).errors
    for theme in themes:
        assert _chapter(reader, world, theme).text == before[theme], f"{theme}: hidden entries change nothing"
    owner = signed_in(served, world.users["owner"])
    own = _chapter(owner, world, "los veranos en Cádiz").text
    assert {"verano de 2013", "verano de 2014"} <= set(HEADING.findall(own)), "their author sees them"
    assert _cited(own, set(hidden)) == {"palabraoculta2013", "palabraintima2014"}
    christmas = _chapter(owner, world, "las navidades en Cádiz").text
    assert nothing not in christmas and _cited(christmas, set(hidden)) == {"palabranavidad2009"}
