"""Reading on from one page to the next, against `memora serve`'s app on the real Neo4j: the understood constraints
as chips that set one aside and bring it back, an entry's neighbours (the nearest visible turn or entry, never a
hidden one, and nothing moved by one), the timeline's chapter bands, and the names recognition found, reviewed by
owners and coauthors only."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import httpx

from api import auth
from graph.db import Graph
from graph.settings import Settings
from tests.web_world import CSRF, WebWorld, signed_in

CHIP = re.compile(r'<span class="chip( off)?">(?:<s>)?([^<]+?)(?:</s>)? <a href="([^"]+)"')
PREV = re.compile(r'<a rel="prev" href="/e/([^"]+)"')
NEXT = re.compile(r'<a rel="next" href="/e/([^"]+)"')


def _chips(page: str) -> dict[str, tuple[bool, str]]:
    return {label.strip(): (bool(off), html.unescape(href)) for off, label, href in CHIP.findall(page)}


def _years(page: str, world: WebWorld) -> set[str]:
    """The years of the world's entries a results page lists (the owner wrote in 2005, the coauthor in 2006)."""
    listed = page.split("</form>", 1)[-1]
    return {str(2005 + n) for n, author in enumerate(("owner", "coauthor")) if f"palabra{author}" in listed}


def test_a_chip_sets_its_constraint_aside_and_brings_it_back(served: str, world: WebWorld, settings: Settings) -> None:
    browser = signed_in(served, world.users["coauthor"])
    page = browser.get(f"/p/{world.project}", params={"q": "Marta en 2006"})
    assert page.status_code == 200
    chips = _chips(page.text)
    date = next(label for label in chips if label.startswith("2006"))
    assert "Marta" in chips and not chips[date][0] and not chips["Marta"][0]
    assert _years(page.text, world) == {"2006"}, "the date narrows the results"

    aside = browser.get(chips[date][1])
    assert aside.status_code == 200
    assert _years(aside.text, world) == {"2005", "2006"}, "set aside, the date narrows nothing"
    again = _chips(aside.text)
    assert again[date][0] and not again["Marta"][0], "the date's chip is shown set aside, Marta's still on"
    back = browser.get(again[date][1])
    assert _years(back.text, world) == {"2006"} and not any(off for off, _ in _chips(back.text).values())

    headers = {"Authorization": f"Bearer {auth.issue(settings, world.users['coauthor'])}"}
    with httpx.Client(base_url=served, headers=headers, timeout=60) as api:
        body = {"q": "Marta en 2006", "project_id": world.project, "explain": True, "k": 20}
        plain = api.post("/v1/search", json=body).json()
        ignored = api.post("/v1/search", json={**body, "ignore": ["date", "no-such-constraint"]}).json()
        assert ignored["query_understanding"]["set_aside"] == ["date"], "a value the query did not imply is no aside"
        assert {r["occurred_on"][:4] for r in plain["results"]} == {"2006"}
        assert {r["occurred_on"][:4] for r in ignored["results"]} == {"2005", "2006"}
        refused = api.post("/v1/search", json={**body, "ignore": ["x" * 301]})
        assert refused.status_code == 422
    too_many = {"q": "Marta", "ignore": [f"x{n}" for n in range(21)]}
    assert browser.get(f"/p/{world.project}", params=too_many).status_code == 422


def _conversation(world: WebWorld, ingest: Callable[..., Any], levels: list[str], at: str = "2010-06-01T20:00") -> None:
    ingest(
        [
            {
                "entry_id": f"{world.project}/turn-{n}",
                "project_id": world.project,
                "author": world.users["owner"],
                "intimacy": level,
                "occurred_at": at,
                "turn": n,
                "text": f"Turno {n} de la conversación sobre el piso.",
            }
            for n, level in enumerate(levels)
        ]
    )


def _around(browser: httpx.Client, entry_id: str) -> tuple[list[str], list[str]]:
    page = browser.get(f"/e/{entry_id}")
    assert page.status_code == 200
    return PREV.findall(page.text), NEXT.findall(page.text)


def test_an_entrys_neighbours_are_the_nearest_it_may_see_and_hidden_ones_move_nothing(
    served: str, world: WebWorld, ingest: Callable[..., Any], graph: Graph, settings: Settings
) -> None:
    p = world.project
    _conversation(world, ingest, ["circle", "circle", "circle"])
    reader = signed_in(served, world.users["reader"])
    owner = signed_in(served, world.users["owner"])
    before = {n: _around(reader, f"{p}/turn-{n}") for n in (0, 2)}
    assert before[0] == ([], [f"{p}/turn-1"]) and before[2] == ([f"{p}/turn-1"], [])

    _conversation(world, ingest, ["circle", "private", "circle"])  # the middle turn hidden from the reader
    assert _around(reader, f"{p}/turn-0") == ([], [f"{p}/turn-2"]), "the hidden turn is skipped"
    assert _around(reader, f"{p}/turn-2") == ([f"{p}/turn-0"], [])
    assert _around(owner, f"{p}/turn-0") == ([], [f"{p}/turn-1"]), "its author still reads on through it"
    assert reader.get(f"/e/{p}/turn-1").status_code == 404

    # Without a conversation, the neighbours in time: the reader sees the circle and public entries of 2005 and 2006.
    dated = sorted(
        (f"{2005 + n}-0{m + 3}-1{m}", world.entry_ids[(author, level)])
        for n, author in enumerate(("owner", "coauthor"))
        for m, level in enumerate(("private", "intimate", "circle", "public"))
        if (author, level) in world.visible_to("reader")
    )
    order = [entry_id for _, entry_id in dated]
    for i, entry_id in enumerate(order):
        prev, nxt = _around(reader, entry_id)
        assert prev == order[i - 1 : i] if i else prev == [], entry_id
        if i + 1 < len(order):
            assert nxt == [order[i + 1]], entry_id

    headers = {"Authorization": f"Bearer {auth.issue(settings, world.users['reader'])}"}
    with httpx.Client(base_url=served, headers=headers, timeout=60) as api:
        seen = api.get(f"/v1/neighbours/{order[1]}").json()
        assert (seen["by"], seen["before"]["entry_id"], seen["after"]["entry_id"]) == ("date", order[0], order[2])
        hidden = api.get(f"/v1/neighbours/{world.entry_ids[('owner', 'private')]}")
        missing = api.get(f"/v1/neighbours/{p}/no-such-entry")
        assert hidden.status_code == missing.status_code == 404 and hidden.json() == missing.json()
        assert api.get(f"/v1/neighbours/{p}/turn-0").json()["by"] == "thread"


def test_the_timeline_shows_each_chapter_as_a_band_over_the_years_of_what_the_viewer_sees(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    rows = [
        {
            "entry_id": f"{world.project}/band-{level}-{year}",
            "project_id": world.project,
            "author": world.users["owner"],
            "intimacy": level,
            "period": "Los años de Cádiz" if level == "circle" else "Secreto",
            "occurred_on": f"{year}-05-01",
            "text": f"Un año más en Cádiz, {year}.",
        }
        for level, years in (("circle", (2007, 2008)), ("private", (2009,)))
        for year in years
    ]
    assert not ingest(rows).errors
    band = re.compile(r'<span class="band band-\d">([^<]+)</span>')
    reader = signed_in(served, world.users["reader"])
    page = reader.get(f"/p/{world.project}/timeline").text
    by_year = {
        year: band.findall(page.split(f'<span class="label">{year}</span>', 1)[1].split("</li>", 1)[0])
        for year in (2005, 2007, 2008)
    }
    assert by_year == {2005: [], 2007: ["Los años de Cádiz"], 2008: ["Los años de Cádiz"]}
    assert "Secreto" not in page and '<span class="label">2009</span>' not in page
    months = reader.get(f"/p/{world.project}/timeline", params={"year": 2007}).text
    assert "Los años de Cádiz" in months.split('id="months-title"', 1)[1].split("</section>", 1)[0]
    owner = signed_in(served, world.users["owner"]).get(f"/p/{world.project}/timeline").text
    assert "Secreto" in owner.split('<span class="label">2009</span>', 1)[1].split("</li>", 1)[0]


def test_writers_confirm_reject_or_merge_a_found_name_and_readers_cannot(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    texts = {
        "remedios": "Fuimos a la playa con Remedios y después al puerto.",
        "eulalia": "Otra tarde en el huerto con Eulalia, regando los tomates.",
        "martita": "Comimos con Martita en casa de la abuela.",
        "secret": "Ayer hablé con Leocadia sobre la herencia del abuelo.",
    }
    rows = [
        {
            "entry_id": f"{world.project}/found-{key}",
            "project_id": world.project,
            "author": world.users["owner"],
            "intimacy": "private" if key == "secret" else "circle",
            "occurred_on": "2011-02-03",
            "text": text,
        }
        for key, text in texts.items()
    ]
    assert not ingest(rows).errors
    people = f"/p/{world.project}/people"
    reader = signed_in(served, world.users["reader"])
    assert 'id="review"' not in reader.get(people).text
    token = CSRF.findall(reader.get(people).text)[-1]
    data = {"csrf": token, "kind": "person", "name": "Remedios", "decision": "reject"}
    refused = reader.post(f"/p/{world.project}/candidates", data=data)
    assert refused.status_code == 403

    coauthor = signed_in(served, world.users["coauthor"])
    page = coauthor.get(people).text
    review = re.findall(r"<strong>([^<]+)</strong>", page.split('id="review"', 1)[1])
    assert {"Remedios", "Eulalia", "Martita"} <= set(review) and "Leocadia" not in page
    token = CSRF.findall(page)[-1]

    def decide(name: str, decision: str, into: str = "") -> httpx.Response:
        data = {"csrf": token, "kind": "person", "name": name, "decision": decision, "into": into}
        return coauthor.post(f"/p/{world.project}/candidates", data=data)

    assert decide("Martita", "merge", "Nadie Conocido").status_code == 422
    assert "<strong>Martita</strong>" in coauthor.get(people).text, "a refused merge changes nothing"
    assert decide("Leocadia", "confirm").status_code == 404, "a name only in a hidden entry is no candidate for her"
    for name, decision, into in (("Remedios", "confirm", ""), ("Eulalia", "reject", ""), ("Martita", "merge", "Marta")):
        done = decide(name, decision, into)
        assert done.status_code == 303 and done.headers["location"].endswith("/people#review"), done.text[:300]
    after = coauthor.get(people).text
    left = re.findall(r"<strong>([^<]+)</strong>", after.split('id="review"', 1)[1] if 'id="review"' in after else "")
    assert not {"Remedios", "Eulalia", "Martita"} & set(left), "each decided once, gone from the list"
    assert "Remedios" in after.split('id="kind-person"', 1)[1], "confirmed: a known person"
    marta = coauthor.get(f"/p/{world.project}/entity", params={"name": "Martita"})
    assert marta.status_code == 200 and "<h1>Marta " in marta.text, "merged: Martita answers as Marta"
    owner = signed_in(served, world.users["owner"]).get(people).text
    assert "<strong>Leocadia</strong>" in owner, "a name in the owner's private entry is hers to review"


def test_a_reply_is_shown_with_the_message_it_answers_never_a_hidden_one(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    owner, coauthor = world.users["owner"], world.users["coauthor"]

    def turn(n: int, author: str, text: str, intimacy: str = "circle") -> dict[str, Any]:
        return {
            "entry_id": f"{world.project}/chat{n}",
            "project_id": world.project,
            "author": author,
            "occurred_at": f"2024-03-01T10:0{n}",
            "session": "chat",
            "turn": n,
            "intimacy": intimacy,
            "text": text,
        }

    ingest(
        [
            turn(1, owner, "¿Y al final aceptaste lo de la <cooperativa> de Gràcia?"),
            turn(2, coauthor, "sí!! empiezo el lunes en la cooperativa"),
        ]
    )
    reader = signed_in(served, world.users["reader"])
    page = reader.get(f"/p/{world.project}", params={"q": "cooperativa lunes"}).text
    quoted = re.search(r'<blockquote class="replies-to">(.*?)</blockquote>', page, re.S)
    assert quoted and f'href="/e/{world.project}/chat1"' in quoted.group(1)
    assert "&lt;cooperativa&gt; de Gràcia" in quoted.group(1) and "<cooperativa>" not in page, "escaped"
    ingest([turn(1, owner, "¿Y al final aceptaste lo de la cooperativa secreta?", intimacy="private")])
    hidden = reader.get(f"/p/{world.project}", params={"q": "cooperativa lunes"}).text
    assert "replies-to" not in hidden and "secreta" not in hidden


def test_a_writer_rejects_a_name_messages_gave_someone_and_readers_stop_seeing_it(
    served: str, world: WebWorld, ingest: Callable[..., Any]
) -> None:
    owner, coauthor = world.users["owner"], world.users["coauthor"]
    pair = [owner, coauthor]
    ingest(
        [
            {
                "entry_id": f"{world.project}/hey{n}",
                "project_id": world.project,
                "author": coauthor,
                "persons": pair,
                "occurred_at": f"2024-05-01T09:0{n}",
                "session": "hey",
                "turn": n,
                "text": text,
            }
            for n, text in enumerate(["Hey Kate! How was the trip?", "Thanks Kate, lovely photos."], start=1)
        ]
    )
    path = f"/p/{world.project}/entity"
    reader = signed_in(served, world.users["reader"])
    seen = reader.get(path, params={"name": owner}).text
    assert "Kate" in seen and 'action="/p/' + world.project + '/called"' not in seen, "a reader may not reject"
    writer = signed_in(served, coauthor)
    page = writer.get(path, params={"name": owner})
    token = CSRF.search(page.text)
    entity = re.search(r'name="entity" value="([^"]+)"', page.text)
    assert token and entity and 'name="name" value="Kate"' in page.text
    done = writer.post(
        f"/p/{world.project}/called", data={"csrf": token.group(1), "entity": entity.group(1), "name": "Kate"}
    )
    assert done.status_code == 303 and done.headers["location"].startswith(path)
    assert "In messages" in seen and "In messages" not in reader.get(path, params={"name": owner}).text
    forged = writer.post(f"/p/{world.project}/called", data={"csrf": "x", "entity": entity.group(1), "name": "Kate"})
    assert forged.status_code == 403


def test_a_date_nothing_visible_meets_is_crossed_out_and_said(served: str, world: WebWorld) -> None:
    browser = signed_in(served, world.users["reader"])
    page = browser.get(f"/p/{world.project}", params={"q": "Marta en 1970", "lang": "es"}).text
    unmet = re.search(r'<span class="chip unmet"><s>([^<]+)</s>', page)
    assert unmet and "1970" in unmet.group(1), page.split("<main", 1)[-1][:1500]
    assert "Nada de lo que puedes ver cumple lo tachado" in page
    met = browser.get(f"/p/{world.project}", params={"q": "Marta en 2006", "lang": "es"}).text
    assert "chip unmet" not in met and "cumple lo tachado" not in met
