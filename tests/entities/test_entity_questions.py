"""The search door answers entity questions in Spanish, English and French, over what the viewer may see; other
questions get `answer: null`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.db import Graph
from graph.entity_vectors import refresh_project
from graph.members import set_member
from inference.embedders import CheckedEmbedder

ROWS = [  # key, when, chapter, intimacy, persons, places, text
    ("m1", "2008-07", "Berlín", "circle", ["Pep", "Juan"], ["Berlín"], "Pep y Juan tocaron rock en un concierto."),
    ("m2", "2009-02", "Berlín", "circle", ["Pep", "Juan", "Marta"], ["Berlín"], "Ensayo de la banda con Marta."),
    ("m3", "2009-05", "Berlín", "circle", ["Juan"], ["Viena"], "Juan compuso una canción para el disco."),
    ("b1", "2010-08", "Andalucía", "circle", ["Marta", "Lola"], ["Tarifa"], "Marta y Lola nadaron en la playa."),
    ("b2", "2011-07", "Andalucía", "circle", ["Marta", "Lola"], ["Cádiz"], "Marta y Lola tomaron el sol en el mar."),
    ("b3", "2012-08", "Andalucía", "circle", ["Lola"], ["Tarifa"], "Lola hizo surf en las olas todo el verano."),
    ("w1", "2013-03", "Madrid", "circle", ["Andrés", "Pep"], ["Madrid"], "Andrés y Pep firmaron en la oficina."),
    ("p1", "2014-08", "Madrid", "private", ["Pep", "Secretina"], ["Madrid"], "Pep y Secretina, lo que nadie sabe."),
    ("p2", "2015-08", "Madrid", "private", ["Pep", "Secretina"], ["Madrid"], "Otra vez Pep con Secretina a solas."),
    ("p3", "2016-08", "Madrid", "private", ["Marta"], ["Madrid"], "Marta volvió, pero eso es solo mío."),
]

# question, expected answer kind, entity name (None: no entity), check on the reader's item names (in order)
TABLE: list[tuple[str, str, str | None, Callable[[list[str]], bool]]] = [
    (
        "¿con quién aparece Pep?",
        "cooccurrence",
        "Pep",
        lambda n: n[0] == "Juan" and set(n) == {"Juan", "Marta", "Andrés"},
    ),
    ("¿quiénes aparecen junto a Marta?", "cooccurrence", "Marta", lambda n: n[0] == "Lola"),
    ("¿cuándo desapareció Marta?", "timeline", "Marta", lambda n: n == ["2011", "2010", "2009"]),
    (
        "¿quién es lo más importante en mi vida?",
        "importance",
        None,
        lambda n: n[0] in ("Marta", "Pep", "Lola") and "Secretina" not in n,
    ),
    ("¿qué lugares se parecen a Berlín?", "similar", "Berlín", lambda n: "Berlín" not in n and len(n) >= 3),
    ("otra época como la de Berlín", "similar", "Berlín", lambda n: set(n) == {"Andalucía", "Madrid"}),
    ("who shows up with Marta most?", "cooccurrence", "Marta", lambda n: n[0] == "Lola"),
    ("when did Juan first appear?", "timeline", "Juan", lambda n: n == ["2008", "2009"]),
    ("when did Marta leave?", "timeline", "Marta", lambda n: n[0] == "2011"),
    ("who matters most in my life?", "importance", None, lambda n: "Secretina" not in n and len(n) >= 4),
    ("places similar to Tarifa", "similar", "Tarifa", lambda n: "Tarifa" not in n and "Cádiz" in n),
    ("quels lieux ressemblent à Berlin ?", "similar", "Berlín", lambda n: "Berlín" not in n and len(n) >= 3),
    ("avec qui apparaît Pep ?", "cooccurrence", "Pep", lambda n: n[0] == "Juan"),
    ("quand Marta a-t-elle disparu ?", "timeline", "Marta", lambda n: n[0] == "2011"),
    ("qui compte le plus dans ma vie ?", "importance", None, lambda n: "Secretina" not in n),
]
OTHER = [
    "concierto de rock en Berlín",
    "what did Pep play at the concert?",
    "when will Marta leave Berlín?",
    "¿cuándo se fue Marta a Berlín?",
    "quand Marta a-t-elle quitté Berlín ?",
    "la playa con Marta en verano",
    "qu'est-ce que Lola a fait à Tarifa ?",
    "¿con quién aparece Secretina?",
    "¿con quién aparece Nadie?",
    "A la hora de elegir piso en Madrid, ¿cuál es el factor más importante a tener en cuenta?",
]


def test_entity_questions_in_three_languages(
    graph: Graph,
    prefix: str,
    ingest: Callable[..., Any],
    client: Any,
    embedder: CheckedEmbedder,
    auth: Callable[[str], dict[str, str]],
) -> None:
    project, ana, lola = f"{prefix}life", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, lola, "reader")
    assert not ingest(
        [
            {
                "entry_id": f"{project}/{k}",
                "project_id": project,
                "author": ana,
                "occurred_on": when,
                "period": chapter,
                "intimacy": lvl,
                "persons": persons,
                "places": places,
                "text": text,
            }
            for k, when, chapter, lvl, persons, places, text in ROWS
        ]
    ).errors
    refresh_project(graph, project, embedder.slug)
    private = {f"{project}/{k}" for k, *_, lvl, _p, _l, _t in ROWS if lvl == "private"}

    def ask(user: str, q: str) -> dict[str, Any]:
        r = client.post("/v1/search", json={"q": q, "project_id": project, "k": 5}, headers=auth(user))
        assert r.status_code == 200, r.text
        return dict(r.json())

    for question, kind, entity, check in TABLE:
        body = ask(lola, question)
        answer = body["answer"]
        assert answer is not None, question
        assert answer["kind"] == kind, question
        assert (answer["entity"] or {}).get("name") == entity, question
        names = [i["name"] for i in answer["items"]]
        assert check(names), (question, names)
        assert all({"id", "name", "kind", "score"} <= set(i) for i in answer["items"])
        scores = [i["score"] for i in answer["items"]]
        assert kind == "timeline" or scores == sorted(scores, reverse=True), question
        ids = [r["entry_id"] for r in body["results"]]
        assert ids and not set(ids) & private, question  # the entries behind it, visible ones only
        if entity and kind != "similar":
            assert all(entity in r["persons"] + r["places"] for r in body["results"]), question
    assert ask(lola, "otra época como la de Berlín")["answer"]["entity"]["id"] == f"{project}/period/berlin"
    assert ask(lola, "¿cuándo desapareció Marta?")["results"][0]["entry_id"] == f"{project}/b2"

    for question in OTHER:
        assert ask(lola, question)["answer"] is None, question
    # The owner's answers count the owner's private entries; the reader's never did.
    owner = ask(ana, "¿con quién aparece Pep?")["answer"]["items"]
    assert {i["name"]: i["together"] for i in owner}["Secretina"] == 2
    assert ask(ana, "¿cuándo desapareció Marta?")["answer"]["items"][0]["name"] == "2016"
    assert ask(ana, "¿con quién aparece Secretina?")["answer"]["entity"]["name"] == "Secretina"


def test_what_matters_most_with_nothing_visible_to_rank_is_searched(
    graph: Graph,
    prefix: str,
    ingest: Callable[..., Any],
    client: Any,
    auth: Callable[[str], dict[str, str]],
) -> None:
    project, ana, lola = f"{prefix}bare", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, lola, "reader")
    rows = [
        ("open", "circle", [], "lo más importante de aquel invierno fue aprender a esperar sin prisa."),
        ("shut", "private", ["Secretina"], "Secretina y yo, lo más importante y lo que nadie sabe."),
    ]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/{k}",
                "project_id": project,
                "author": ana,
                "intimacy": lvl,
                "persons": p,
                "text": t,
            }
            for k, lvl, p, t in rows
        ]
    ).errors

    def ask(user: str) -> dict[str, Any]:
        r = client.post(
            "/v1/search", json={"q": "¿qué es lo más importante?", "project_id": project, "k": 5}, headers=auth(user)
        )
        assert r.status_code == 200, r.text
        return dict(r.json())

    reader = ask(lola)
    assert reader["answer"] is None, "the only entity is in a private entry: the reader's question is searched"
    assert [r["entry_id"] for r in reader["results"]] == [f"{project}/open"]
    owner = ask(ana)["answer"]
    assert owner is not None and [i["name"] for i in owner["items"]] == ["Secretina"]


def test_a_name_written_since_the_last_refresh_is_answered_at_once(
    graph: Graph,
    prefix: str,
    ingest: Callable[..., Any],
    client: Any,
    auth: Callable[[str], dict[str, str]],
) -> None:
    """Co-occurrence and timelines are counted live: a project just written (no refresh of the entity vectors since)
    answers them, from the names the viewer may see; a name only a private entry mentions stays unknown to a reader."""
    project, ana, lola = f"{prefix}fresh", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, lola, "reader")
    rows = [
        ("a", "2008-07", "circle", ["Pep", "Juan"], "Pep y Juan tocaron rock en un concierto."),
        ("b", "2009-02", "circle", ["Pep", "Marta"], "Ensayo de la banda con Marta y Pep."),
        ("c", "2014-08", "private", ["Pep", "Secretina"], "Pep y Secretina, lo que nadie sabe."),
    ]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/{k}",
                "project_id": project,
                "author": ana,
                "occurred_on": when,
                "intimacy": lvl,
                "persons": persons,
                "text": text,
            }
            for k, when, lvl, persons, text in rows
        ]
    ).errors

    def ask(user: str, q: str) -> Any:
        r = client.post("/v1/search", json={"q": q, "project_id": project, "k": 5}, headers=auth(user))
        assert r.status_code == 200, r.text
        return r.json()["answer"]

    together = ask(lola, "¿con quién aparece Pep?")
    assert together is not None and together["kind"] == "cooccurrence"
    assert {i["name"] for i in together["items"]} == {"Juan", "Marta"}
    assert ask(lola, "when did Marta first appear?")["items"][0]["name"] == "2009"
    assert ask(lola, "¿con quién aparece Secretina?") is None  # hidden reads as unknown
    assert "Secretina" in {i["name"] for i in ask(ana, "¿con quién aparece Pep?")["items"]}
