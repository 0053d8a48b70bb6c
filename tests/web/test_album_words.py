"""Plain words in the reader's language: dates and ranges said as people say them (`api/web/when.py`, a season named
from the span the date reader gives it in either hemisphere), a refused form's reasons as sentences, error pages in
the usual frame with a sentence and a way back (an unknown path too, /v1 excepted), the chosen language kept in a
cookie, and the API's docs served from local files."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from datetime import date
from typing import Any

import httpx
import pytest
from markupsafe import escape
from pydantic import ValidationError
from starlette.requests import Request

from api.actions.refusals import Invalid
from api.models.core import EntryIn
from api.web.form_errors import reasons
from api.web.i18n import COOKIE, KEPT_SECONDS, LANGUAGES
from api.web.when import when
from api.web.words import STRINGS
from graph.db import Graph
from graph.members import update_project
from queries.search.understanding.parse import understand
from tests.web_world import WebWorld, form_csrf, signed_in

LANG = {code: n for n, code in enumerate(LANGUAGES)}
SHAPES: dict[str, tuple[str, str, str]] = {
    "2009-02-17": ("17 de febrero de 2009", "17 February 2009", "17 février 2009"),
    "2009-02-01": ("1 de febrero de 2009", "1 February 2009", "1er février 2009"),
    "2008-07": ("julio de 2008", "July 2008", "juillet 2008"),
    "2008": ("2008", "2008", "2008"),
    "2008-01-01/2008-12-31": ("2008", "2008", "2008"),
    "2009-03-03/2009-03-09": ("del 3 al 9 de marzo de 2009", "3–9 March 2009", "du 3 au 9 mars 2009"),
    "2009-03-03..2009-03-09": ("del 3 al 9 de marzo de 2009", "3–9 March 2009", "du 3 au 9 mars 2009"),
    "2009-02-28/2009-03-03": (
        "del 28 de febrero al 3 de marzo de 2009",
        "28 February – 3 March 2009",
        "du 28 février au 3 mars 2009",
    ),
    "2008-12-28/2009-01-03": (
        "del 28 de diciembre de 2008 al 3 de enero de 2009",
        "28 December 2008 – 3 January 2009",
        "du 28 décembre 2008 au 3 janvier 2009",
    ),
    "2009-03/2009-05": ("de marzo a mayo de 2009", "March–May 2009", "de mars à mai 2009"),
    "2009-04/2009-06": ("de abril a junio de 2009", "April–June 2009", "d’avril à juin 2009"),
    "2008-11/2009-02": (
        "de noviembre de 2008 a febrero de 2009",
        "November 2008 – February 2009",
        "de novembre 2008 à février 2009",
    ),
    "2008/2010": ("de 2008 a 2010", "2008–2010", "de 2008 à 2010"),
    "2027-01-04T23:59:00+00:00": (
        "4 de enero de 2027, 23:59 UTC",
        "4 January 2027, 23:59 UTC",
        "4 janvier 2027 à 23:59 UTC",
    ),
    "2027-01-05T00:59:00.123456789+01:00": (
        "4 de enero de 2027, 23:59 UTC",
        "4 January 2027, 23:59 UTC",
        "4 janvier 2027 à 23:59 UTC",
    ),
    "2010-06-01T20:00": ("1 de junio de 2010, 20:00", "1 June 2010, 20:00", "1er juin 2010 à 20:00"),
}
SEASON_PHRASES = {
    "es": ("primavera de 2008", "verano de 2008", "otoño de 2008", "invierno de 2008"),
    "en": ("spring 2008", "summer 2008", "autumn 2008", "winter 2008"),
    "fr": ("printemps 2008", "été 2008", "automne 2008", "hiver 2008"),
}


def _words(key: str, lang: str = "es") -> str:
    return STRINGS[key][LANG[lang]]


def _html(key: str, lang: str = "es") -> str:
    return str(escape(_words(key, lang)))


def _never_asked() -> str:
    raise AssertionError("the hemisphere is read only for a season's span")


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_shape_an_entry_carries_is_said_in_words_of_each_language(shape: str, lang: str) -> None:
    assert when(shape, lang, _never_asked) == SHAPES[shape][LANG[lang]]


def test_a_start_and_an_end_given_apart_read_as_their_range() -> None:
    assert when("2009-03-03", "es", _never_asked, "2009-03-09") == "del 3 al 9 de marzo de 2009"
    assert when("2008-07-01", "en", _never_asked, "2008-07-31") == "July 2008"
    assert when("2009-02-17", "fr", _never_asked, "2009-02-17") == "17 février 2009"


@pytest.mark.parametrize("hemisphere", ["north", "south"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_season_is_named_back_from_the_span_the_date_reader_gives_it(hemisphere: str, lang: str) -> None:
    asked: list[str] = []

    def where() -> str:
        asked.append(hemisphere)
        return hemisphere

    for n, phrase in enumerate(SEASON_PHRASES[lang], start=1):
        read = understand(phrase, [], date(2026, 1, 1), hemisphere=hemisphere).temporal
        assert read is not None and read.precision == "season", phrase
        assert when(f"{read.start}/{read.end}", lang, where) == phrase, (hemisphere, phrase)
        assert len(asked) == n, "a season's span asks the hemisphere"


def test_the_same_days_are_summer_in_the_north_and_winter_in_the_south() -> None:
    north = understand("verano de 2008", [], date(2026, 1, 1), hemisphere="north").temporal
    assert north is not None
    span = f"{north.start}/{north.end}"
    assert (when(span, "es", "north"), when(span, "es", "south")) == ("verano de 2008", "invierno de 2008")
    assert (when(span, "en", "north"), when(span, "fr", "south")) == ("summer 2008", "hiver 2008")


@pytest.mark.parametrize(
    "odd",
    [None, "", "   ", 2008, "nope", "circa 2008", "2009-13", "2009-02-30", "2010/2009", "2008-06-21T25:00", "08/2009"],
)
def test_what_is_not_a_date_comes_back_unchanged(odd: object) -> None:
    for lang in LANGUAGES:
        assert when(odd, lang, _never_asked) == odd


def _request(lang: str) -> Request:
    return Request(
        {"type": "http", "method": "POST", "path": "/", "headers": [], "query_string": f"lang={lang}".encode()}
    )


def _refused(body: dict[str, Any]) -> ValidationError:
    try:
        EntryIn.model_validate({"project_id": "p", "text": "x", **body})
    except ValidationError as exc:
        return exc
    raise AssertionError(f"{body} was accepted")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refusal_reads_as_sentences_of_the_page_language_never_as_the_api_says_it(lang: str) -> None:
    def w(key: str) -> str:
        return _words(key, lang)

    cases: list[tuple[ValidationError | Invalid, str]] = [
        (_refused({"text": ""}), w("form_empty_text")),
        (_refused({"title": "t" * 600}), w("form_title_too_long").format(n=500)),
        (_refused({"intimacy": "secret"}), w("form_unknown_level")),
        (
            _refused({"places": [f"p{n}" for n in range(201)]}),
            w("form_too_many_names").format(field=w("places"), n=200),
        ),
        (
            Invalid([{"loc": ["body"], "msg": "Value error, month must be in 1..12", "type": "value_error"}]),
            w("form_bad_date"),
        ),
        (
            Invalid([{"loc": ["body"], "msg": "Value error, range ends before it starts: '2010/2009'"}]),
            w("form_date_backwards"),
        ),
        (Invalid("a witness link opens one chapter"), w("form_not_saved")),
    ]
    for exc, sentence in cases:
        said = reasons(exc, _request(lang))
        assert said == [sentence], said
        for api_words in ("Value error", "String should", "List should", "Input should", "body", "422", "witness link"):
            assert api_words not in said[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_entry_form_says_why_in_the_page_language(served: str, world: WebWorld, lang: str) -> None:
    coauthor = signed_in(served, world.users["coauthor"])
    coauthor.headers["Accept-Language"] = lang
    form = coauthor.get(f"/p/{world.project}/write")
    typed = {"text": "Hojaldre en Tarifa.", "occurred_on": "2009-13-01", "csrf": form_csrf(form)}
    refused = coauthor.post(f"/p/{world.project}/write", data=typed)
    assert refused.status_code == 422 and f'lang="{lang}"' in refused.text
    assert _html("form_bad_date", lang) in refused.text and "Hojaldre en Tarifa." in refused.text
    empty = coauthor.post(f"/p/{world.project}/write", data={**typed, "text": "", "occurred_on": "2009-07"})
    assert empty.status_code == 422 and _html("form_empty_text", lang) in empty.text
    for page in (refused.text, empty.text):
        for api_words in ("Value error", "month must be", "String should", "(422)", "ValidationError"):
            assert api_words not in page


def _menu(project: str) -> str:
    return f'href="/p/{project}/timeline"'


def test_an_unknown_page_is_a_page_in_the_browser_language_and_the_api_keeps_its_json(
    served: str, world: WebWorld
) -> None:
    reader = signed_in(served, world.users["reader"])
    for lang in LANGUAGES:
        unknown = reader.get("/no/such/page", headers={"Accept-Language": lang})
        assert unknown.status_code == 404 and unknown.headers["content-type"].startswith("text/html")
        assert _html("no_such_page", lang) in unknown.text and f'lang="{lang}"' in unknown.text
        assert _menu(world.project) in unknown.text, "signed in: the menu of the reader's only project"
        assert f'<p><a href="/p/{world.project}">{_html("back", lang)}</a></p>' in unknown.text, "a way back"
    gone = reader.get(f"/e/{world.project}/no-such-entry", headers={"Accept-Language": "es"})
    hidden = reader.get(f"/e/{world.entry_ids[('owner', 'private')]}", headers={"Accept-Language": "es"})
    assert gone.status_code == hidden.status_code == 404 and gone.text == hidden.text
    assert _menu(world.project) in gone.text and _html("not_found") in gone.text and "(404)" not in gone.text
    with httpx.Client(base_url=served, timeout=60) as anonymous:
        stranger = anonymous.get("/nowhere", headers={"Accept-Language": "fr"})
        assert stranger.status_code == 404 and "/timeline" not in stranger.text
        assert _html("no_such_page", "fr") in stranger.text
        api = anonymous.get("/v1/unknown")
        assert api.status_code == 404 and api.headers["content-type"] == "application/json"
        assert api.json() == {"detail": "Not Found"}


def test_a_bad_witness_link_says_so_to_a_visitor(served: str) -> None:
    with httpx.Client(base_url=served, timeout=60) as visitor:
        for lang in LANGUAGES:
            bad = visitor.get("/w/wit1.forged.link", headers={"Accept-Language": lang})
            assert bad.status_code == 401 and bad.headers["referrer-policy"] == "no-referrer"
            assert _html("witness_link_bad", lang) in bad.text
            assert "invalid witness link" not in bad.text and "(401)" not in bad.text


def test_the_chosen_language_is_remembered_until_another_is_chosen(served: str, world: WebWorld) -> None:
    reader = signed_in(served, world.users["reader"])
    reader.headers["Accept-Language"] = "es"
    assert 'lang="es"' in reader.get(f"/p/{world.project}/timeline").text
    chosen = reader.get(f"/p/{world.project}/timeline", params={"lang": "fr"})
    cookie = chosen.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=fr;") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert f"Max-Age={KEPT_SECONDS}" in cookie
    for path in (f"/p/{world.project}/timeline", f"/p/{world.project}/people", "/no/such/page"):
        assert 'lang="fr"' in reader.get(path).text, path
    assert 'lang="en"' in reader.get(f"/p/{world.project}/timeline", params={"lang": "en"}).text
    assert 'lang="en"' in reader.get(f"/p/{world.project}/people").text, "the last choice holds"


def test_a_season_reads_in_words_in_chips_and_entries_in_the_project_hemisphere(
    served: str, world: WebWorld, graph: Graph, ingest: Callable[..., Any]
) -> None:
    span = "2006-06-21/2006-09-22"
    entry_id = f"{world.project}/summer"
    row = {"entry_id": entry_id, "project_id": world.project, "author": world.users["owner"], "intimacy": "circle"}
    assert not ingest([{**row, "occurred_on": span, "title": "Verano", "text": "Cádiz con Marta, estival."}]).errors
    reader = signed_in(served, world.users["reader"])
    found = reader.get(f"/p/{world.project}", params={"q": "Marta en el verano de 2006", "lang": "es"})
    chip = r'<span class="chip(?: unmet)?">(?:<s>)?{}(?:</s>)? <a'
    assert re.search(chip.format("verano de 2006"), found.text), found.text.split("understood")[-1][:600]
    assert "2006-06-21 – 2006-09-22" not in found.text
    english = reader.get(f"/p/{world.project}", params={"q": "Marta en el verano de 2006", "lang": "en"})
    assert re.search(chip.format("summer 2006"), english.text)
    assert ">verano de 2006</time>" in reader.get(f"/e/{entry_id}", params={"lang": "es"}).text
    update_project(graph, world.project, hemisphere="south")
    assert ">invierno de 2006</time>" in reader.get(f"/e/{entry_id}", params={"lang": "es"}).text
    assert ">winter 2006</time>" in reader.get(f"/e/{entry_id}", params={"lang": "en"}).text


def _sha256(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def test_the_api_docs_load_only_this_site_assets(served: str) -> None:
    with httpx.Client(base_url=served, timeout=60) as anyone:
        for path in ("/docs", "/redoc"):
            docs = anyone.get(path)
            assert docs.status_code == 200
            assets = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
            assert assets and all(a.startswith("/") and not a.startswith("//") for a in assets), assets
            assert "http" not in docs.text.split("<body", 1)[-1].replace("window.location.origin", "")
            for asset in assets:
                assert anyone.get(asset).status_code == 200, asset
            assert "default-src 'self'" in docs.headers["content-security-policy"]
        swagger = anyone.get("/docs")
        policy = swagger.headers["content-security-policy"]
        script_src = next(p for p in policy.split(";") if p.strip().startswith("script-src"))
        inline = re.findall(r"<script>(.*?)</script>", swagger.text, re.DOTALL)
        assert inline and all(_sha256(s) in script_src for s in inline) and "unsafe-inline" not in script_src
        page_policy = anyone.get("/signin").headers["content-security-policy"]
        assert "sha256" not in page_policy and "unsafe-inline" not in page_policy, "every other page stays strict"
