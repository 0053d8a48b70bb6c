"""Live interview context on the real Neo4j and the real embedder: related entries and `ask_about` come only from
what the caller may see, nothing they observe changes when hidden entries come and go, a visible write is seen on
the next call, and the route and the command answer like the rest of the service."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest

from api.cli import main
from graph.db import Graph
from graph.entries import delete_entry
from graph.members import set_member
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.context.live import WINDOW_CHARS, LiveCache, live_context, segments, window

TRANSCRIPT = (
    "Bueno, pues aquel verano fuimos otra vez a la playa de Cádiz. La abuela hizo paella en la arena y "
    "Josep se quemó la espalda. Luego vino Lucía con el perro, y alguien habló de Marta y de Sevilla, "
    "pero no me acuerdo bien de qué. Comimos paella hasta la noche."
)


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    """A project where a reader sees three entries naming Josep and three naming Cádiz, one naming Lucía, one naming
    Sevilla; Marta is named only by the owner's private entry."""
    p = f"{prefix}live"
    users = {r: f"{prefix}{r}" for r in ("owner", "reader")}
    set_member(graph, p, users["owner"], "owner")
    set_member(graph, p, users["reader"], "reader")
    rows = [
        (
            "paella",
            "circle",
            "La abuela hizo paella en la playa de Cádiz aquel verano; comimos en la arena.",
            ["Josep"],
            ["Cádiz"],
        ),
        (
            "tren",
            "public",
            "El viaje en tren a Berlín con Josep: nieve, museos y frío en diciembre.",
            ["Josep"],
            ["Berlín", "Cádiz"],
        ),
        ("jardin", "circle", "Josep plantó tomates en el jardín de la casa del pueblo.", ["Josep"], ["Cádiz"]),
        ("perro", "public", "Lucía trajo al perro a casa por primera vez; se escondió bajo la mesa.", ["Lucía"], []),
        ("feria", "circle", "La feria de abril en Sevilla, con trajes y mucho baile.", [], ["Sevilla"]),
        (
            "secreto",
            "private",
            "Marta me contó su secreto en la playa de Cádiz, comiendo paella.",
            ["Marta"],
            ["Cádiz"],
        ),
    ]
    report = ingest(
        [
            {
                "entry_id": f"{p}/{key}",
                "project_id": p,
                "author": users["owner"],
                "intimacy": level,
                "occurred_on": "2008-07-12",
                "text": text,
                "persons": persons,
                "places": places,
            }
            for key, level, text, persons, places in rows
        ]
    )
    assert not report.errors
    return {"project": p, **users, "outsider": f"{prefix}outsider"}


def _observed(ctx: Any) -> tuple[Any, ...]:
    return (
        [(e.entry_id, e.score, e.snippet_md) for e in ctx.entries],
        [(a.kind, a.name, a.entity_id, a.entries, a.mentions) for a in ctx.ask_about],
    )


def test_related_entries_and_ask_about_come_from_what_the_caller_may_see(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, str]
) -> None:
    cache = LiveCache()
    reader = live_context(graph, embedder, Viewer(user_id=world["reader"]), world["project"], TRANSCRIPT, cache)
    ids = [e.entry_id for e in reader.entries]
    assert ids[0] == f"{world['project']}/paella"
    assert f"{world['project']}/secreto" not in ids and len(ids) == 5
    assert [e.score for e in reader.entries] == sorted((e.score for e in reader.entries), reverse=True)
    asked = {a.name: a.entries for a in reader.ask_about}
    # Josep and Cádiz have three visible entries each (known enough); Marta is named only by an entry the reader
    # cannot see.
    assert asked == {"Lucía": 1, "Sevilla": 1}
    assert "Marta" not in json.dumps([e.__dict__ for e in reader.entries], ensure_ascii=False)

    owner = live_context(graph, embedder, Viewer(user_id=world["owner"]), world["project"], TRANSCRIPT, cache)
    assert {a.name: a.entries for a in owner.ask_about} == {"Lucía": 1, "Sevilla": 1, "Marta": 1}
    assert f"{world['project']}/secreto" in [e.entry_id for e in owner.entries]


def test_nothing_observed_changes_when_hidden_entries_come_and_go(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, str], ingest: Callable[..., Any]
) -> None:
    cache = LiveCache()
    viewer = Viewer(user_id=world["reader"])
    before = _observed(live_context(graph, embedder, viewer, world["project"], TRANSCRIPT, cache))
    builds = cache.builds
    hidden = [
        {
            "entry_id": f"{world['project']}/h{i}",
            "project_id": world["project"],
            "author": world["owner"],
            "intimacy": level,
            "text": TRANSCRIPT,
            "persons": ["Lucía", "Marta", "Josep"],
            "places": ["Sevilla"],
        }
        for i, level in enumerate(("private", "intimate"))
    ]
    assert not ingest(hidden).errors
    after = live_context(graph, embedder, viewer, world["project"], TRANSCRIPT, cache)
    assert _observed(after) == before
    assert cache.builds == builds  # hidden writes do not even rebuild the reader's index
    for row in hidden:
        delete_entry(graph, row["entry_id"])
    assert _observed(live_context(graph, embedder, viewer, world["project"], TRANSCRIPT, LiveCache())) == before


def test_a_visible_write_is_seen_on_the_very_next_call(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, str], client: Any, auth: Callable[[str], dict[str, str]]
) -> None:
    cache = LiveCache()
    viewer = Viewer(user_id=world["reader"])
    project = world["project"]
    first = live_context(graph, embedder, viewer, project, TRANSCRIPT, cache)
    assert {a.name for a in first.ask_about} == {"Lucía", "Sevilla"}
    owner = auth(world["owner"])
    resp = client.post(
        "/v1/entries?wait=true",
        headers=owner,
        json={
            "entry_id": f"{project}/nuevo",
            "project_id": project,
            "intimacy": "circle",
            "text": TRANSCRIPT,
            "persons": ["Lucía"],
            "places": ["Sevilla"],
        },
    )
    assert resp.status_code == 201, resp.text
    added = live_context(graph, embedder, viewer, project, TRANSCRIPT, cache)
    assert added.entries[0].entry_id == f"{project}/nuevo"
    assert {a.name: a.entries for a in added.ask_about} == {"Lucía": 2, "Sevilla": 2}

    resp = client.patch(f"/v1/entries/{project}/nuevo?wait=true", headers=owner, json={"intimacy": "private"})
    assert resp.status_code == 200, resp.text
    relevelled = live_context(graph, embedder, viewer, project, TRANSCRIPT, cache)
    assert _observed(relevelled) == _observed(first)

    resp = client.patch(f"/v1/entries/{project}/jardin?wait=true", headers=owner, json={"text": TRANSCRIPT})
    assert resp.status_code == 200, resp.text
    edited = live_context(graph, embedder, viewer, project, TRANSCRIPT, cache)
    assert edited.entries[0].entry_id == f"{project}/jardin"

    assert client.delete(f"/v1/entries/{project}/perro", headers=owner).status_code == 200
    deleted = live_context(graph, embedder, viewer, project, TRANSCRIPT, cache)
    assert f"{project}/perro" not in [e.entry_id for e in deleted.entries]
    # Lucía is now named only by the entry made private: for the reader she is a name the project never heard.
    assert {a.name: a.entries for a in deleted.ask_about} == {"Sevilla": 1}


def test_the_window_is_the_transcripts_end_and_its_segments_do_not_move_when_it_slides() -> None:
    long = " ".join(f"palabra{i} y luego." if i % 7 == 0 else f"palabra{i}" for i in range(2000))
    tail, cut = window(long)
    assert cut and len(tail) <= WINDOW_CHARS and long.endswith(tail)
    assert window("  corto  ") == ("corto", False)
    # A cut whose only space is the window's first character (one long word after it) keeps that word.
    assert window("a " + "x" * 1999)[0] == "x" * 1999
    whole = segments(long)
    slid = segments(long[137:], drop_first=True)
    assert slid == whole[-len(slid) :] and len(slid) > 0.95 * len(whole)


def test_the_route_answers_members_only_and_422_before_403(
    client: Any, auth: Callable[[str], dict[str, str]], world: dict[str, str]
) -> None:
    body = {"project_id": world["project"], "transcript": TRANSCRIPT}
    ok = client.post("/v1/context/live", headers=auth(world["reader"]), json=body)
    assert ok.status_code == 200, ok.text
    out = ok.json()
    assert len(out["entries"]) == 5 and {a["name"] for a in out["ask_about"]} == {"Lucía", "Sevilla"}
    assert out["window_tokens"] > 0 and out["latency_ms"]["total"] > 0
    assert client.post("/v1/context/live", headers=auth(world["outsider"]), json=body).status_code == 403
    assert (
        client.post("/v1/context/live", headers=auth(world["outsider"]), json={**body, "transcript": ""}).status_code
        == 422
    )
    assert client.post("/v1/context/live", headers=auth(world["reader"]), json={**body, "extra": 1}).status_code == 422


def test_the_command_prints_the_api_body(
    world: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(TRANSCRIPT))
    assert main(["live", "--project", world["project"], "--as", world["reader"], "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["entries"][0]["entry_id"] == f"{world['project']}/paella"
    assert {a["name"] for a in body["ask_about"]} == {"Lucía", "Sevilla"}
    monkeypatch.setattr("sys.stdin", io.StringIO(TRANSCRIPT))
    assert main(["live", "--project", world["project"], "--as", world["outsider"]]) == 4
    assert "not a member" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("   "))
    assert main(["live", "--project", world["project"], "--as", world["reader"]]) == 2


def test_in_the_service_a_write_is_seen_within_the_check_interval_without_waiting_for_it(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, str], ingest: Callable[..., Any]
) -> None:
    """With check_seconds > 0 an answer never waits for the stamp: the warm index answers, a background check finds
    the write and swaps in a rebuilt index for the calls after it."""
    import time

    cache = LiveCache(check_seconds=0.2)
    viewer = Viewer(user_id=world["reader"])
    live_context(graph, embedder, viewer, world["project"], TRANSCRIPT, cache)
    assert cache.builds == 1
    assert not ingest(
        [
            {
                "entry_id": f"{world['project']}/nuevo",
                "project_id": world["project"],
                "author": world["owner"],
                "intimacy": "public",
                "text": TRANSCRIPT,
            }
        ]
    ).errors
    time.sleep(0.3)
    seen, deadline = False, time.monotonic() + 30
    while not seen and time.monotonic() < deadline:
        ctx = live_context(graph, embedder, viewer, world["project"], TRANSCRIPT, cache)
        seen = ctx.entries[0].entry_id == f"{world['project']}/nuevo"
        time.sleep(0.2)
    assert seen and cache.builds == 2
