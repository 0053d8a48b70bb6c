"""The search page admits when nothing matched: the closest (or latest) entries come under a label that says so,
in the reader's language; a question that matches shows plain results, and the API says the same as `matched`."""

from __future__ import annotations

import httpx
import pytest
from markupsafe import escape

from api import auth
from api.web.i18n import COOKIE, LANGUAGES
from api.web.words import STRINGS
from graph.db import Graph
from graph.settings import Settings
from tests.web_world import WebWorld, signed_in

pytestmark = pytest.mark.neo4j


def said(key: str, lang: str) -> str:
    return str(escape(STRINGS[key][LANGUAGES.index(lang)]))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nonsense_is_answered_with_the_closest_entries_under_a_label(
    served: str, world: WebWorld, graph: Graph, lang: str
) -> None:
    reader = signed_in(served, world.users["reader"], graph)
    reader.cookies.set(COOKIE, lang)
    page = reader.get(f"/p/{world.project}", params={"q": "qwertyuiop"})
    assert page.status_code == 200
    assert said("nothing_matched_close", lang) in page.text and said("closest", lang) in page.text
    assert 'class="results weak"' in page.text, "the entries are still offered"
    real = reader.get(f"/p/{world.project}", params={"q": "el viaje en tren a Cádiz con Marta"})
    assert said("nothing_matched_close", lang) not in real.text and said("results", lang) in real.text


def test_the_api_says_whether_anything_matched(served: str, world: WebWorld, settings: Settings) -> None:
    headers = {"Authorization": f"Bearer {auth.issue(settings, world.users['reader'])}"}
    with httpx.Client(base_url=served, headers=headers, timeout=60) as api:
        for q, matched in (("qwertyuiop", False), ("el viaje en tren a Cádiz con Marta", True)):
            body = api.post("/v1/search", json={"q": q, "project_id": world.project}).json()
            assert body["matched"] is matched and body["results"], q
            assert all(0.0 <= r["relevance"] <= 1.0 for r in body["results"])
