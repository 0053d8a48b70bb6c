"""Recognition at ingest: each entry's language is detected, French goes through the statistical spaCy pipeline and
Spanish through the rule pipeline, and names that are not known entities become candidates, counted over the entries
the viewer may see, linking nothing until a writer confirms them."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from graph.candidates import list_candidates
from graph.db import Graph
from graph.entities import Entity, list_visible_entities, upsert_entity
from graph.lexicon import ProjectLexicon
from graph.members import set_member
from graph.visibility import Viewer
from ingest import spacy_pipelines
from ingest.language import detect_language
from ingest.pipeline import IngestReport
from ingest.recognition import recognize

FR = (
    "Hier, ma tante Claire est venue avec Jean-Pierre Dubois à Lyon. Nous avons dîné chez Paul, puis nous "
    "sommes partis."
)
ES = (
    "Ayer fui con mi tía Carmen a la casa de Pep, y luego comimos con Marta Puig en Cuenca. El lunes vino "
    "Josep López a vernos."
)
EN = "Yesterday my aunt Mary and I went to Tom's house, where we met John Smith and the rest of the family in London."


def found(text: str, lexicon: ProjectLexicon | None = None, listed: list[str] | None = None) -> dict[str, str]:
    rec = recognize([(text, lexicon or ProjectLexicon("p"), listed or [])])[0]
    return {s.name: s.kind for s in rec.spotted}


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (ES, "es"),
        (EN, "en"),
        (FR, "fr"),
        ("¿Dónde está el libro que me prestaste? No lo encuentro por ninguna parte.", "es"),
        ("Je ne sais pas où il est parti avec les enfants.", "fr"),
        ("Pep, Marta, Berlín", None),
    ],
)
def test_the_language_of_an_entry_is_detected(text: str, lang: str | None) -> None:
    assert detect_language(text) == lang


def test_french_goes_through_the_statistical_pipeline() -> None:
    nlp, name = spacy_pipelines.pipeline("fr")
    assert name == "fr_core_news_sm" and "ner" in nlp.pipe_names
    names = found(FR)
    assert names.get("Jean-Pierre Dubois") == "person" and names.get("Claire") == "person"
    assert names.get("Lyon") == "place"


def test_spanish_goes_through_the_rule_pipeline() -> None:
    nlp, name = spacy_pipelines.pipeline("es")
    assert name == "rules:es" and "entity_ruler" in nlp.pipe_names
    names = found(ES)
    assert names["Carmen"] == "person", "the kinship word is not part of the name"
    assert names["casa de Pep"] == "place" and names["Cuenca"] == "place"
    assert names["Marta Puig"] == "person" and names["Josep López"] == "person"
    assert "Ayer" not in names and "El" not in names and "lunes" not in {n.lower() for n in names}


def test_a_name_after_going_somewhere_or_after_an_article_is_a_place() -> None:
    es = found(
        "Volvimos a Bilbao en tren. Jon vino de Madrid con regalos. Cenamos en el Casco Viejo y paseamos por el "
        "Peine del Viento. Luego vi a Marta y llamé a Pep."
    )
    assert {n: es.get(n) for n in ("Bilbao", "Madrid", "Casco Viejo", "Peine del Viento")} == dict.fromkeys(
        ("Bilbao", "Madrid", "Casco Viejo", "Peine del Viento"), "place"
    ), es
    assert es.get("Marta") == "person" and es.get("Pep") == "person", "the personal «a» is not going anywhere"
    assert not [n for n in es if n.lower().startswith(("volv", "vino"))], "the verb is not part of the name"
    en = found("Last spring we moved to Lisbon, and Mary came from Boston. I talked to Peter about it.")
    assert (en.get("Lisbon"), en.get("Boston"), en.get("Peter")) == ("place", "place", "person"), en


def test_known_and_listed_names_are_not_candidates() -> None:
    lexicon = ProjectLexicon("p")
    lexicon.add(Entity("p/person/josep", "p", "person", "Josep", ("Pep",)))
    names = found(ES, lexicon, listed=["Carmen"])
    assert "Carmen" not in names, "listed by the entry"
    assert "Josep López" not in names, "a longer name around a known person is that person"
    assert names["casa de Pep"] == "place", "a place named after a known person is still a place"


def test_english_uses_rules_and_a_missing_pipeline_is_reported_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    settings = spacy_pipelines.get_settings().model_copy(update={"spacy_pipelines": "en=en_core_web_absent"})
    monkeypatch.setattr(spacy_pipelines, "get_settings", lambda: settings)
    monkeypatch.setattr(spacy_pipelines, "_pipelines", {})
    monkeypatch.setattr(spacy_pipelines, "_reported", set())
    with caplog.at_level(logging.WARNING, logger="ingest.spacy_pipelines"):
        names = found(EN)
        found(EN)
    assert [r.message for r in caplog.records].count(caplog.records[0].message) == 1
    assert "en_core_web_absent" in caplog.records[0].message
    assert spacy_pipelines.loaded() == {"en": "rules:en"}
    assert names["Mary"] == "person" and names["John Smith"] == "person"
    assert names["Tom's house"] == "place" and names["London"] == "place"


@pytest.fixture()
def diary(graph: Graph, prefix: str, ingest: Callable[..., IngestReport]) -> dict[str, str]:
    """Ana owns, Bea coauthors, Carl reads. Eulalia is named only in Ana's private entry; Remedios in that private
    entry and in a circle one; Jacqueline only in a French circle entry; Marta is declared."""
    p = f"{prefix}rec"
    users = {k: f"{prefix}{k}" for k in ("ana", "bea", "carl")}
    set_member(graph, p, users["ana"], "owner")
    set_member(graph, p, users["bea"], "coauthor")
    set_member(graph, p, users["carl"], "reader")
    upsert_entity(graph, p, "person", "Marta", [], audience="circle", author_id=users["ana"])
    rows = [
        ("e1", "private", "2011-03-01", "Ayer hablé con mi tía Eulalia y con la prima Remedios sobre la herencia."),
        ("e2", "circle", "2011-03-05", "Fuimos a la playa con Remedios y con Marta, y comimos en el puerto."),
        ("e3", "circle", "2011-03-09", "Hier, nous avons vu Jacqueline Moreau à Marseille avec les enfants."),
    ]
    report = ingest(
        [
            {
                "entry_id": f"{p}/{eid}",
                "project_id": p,
                "author": users["ana"],
                "intimacy": level,
                "occurred_on": day,
                "text": text,
            }
            for eid, level, day, text in rows
        ]
    )
    assert not report.errors and report.written == 3
    return {"project": p, **users}


def as_dicts(graph: Graph, project: str, user: str | None) -> dict[str, dict[str, Any]]:
    viewer = Viewer(user_id=user) if user else None
    return {c.name: c.as_dict() for c in list_candidates(graph, project, viewer)}


def test_candidates_are_counted_over_visible_entries_only(graph: Graph, diary: dict[str, str]) -> None:
    p = diary["project"]
    mine = as_dicts(graph, p, diary["ana"])
    assert mine["Eulalia"] == {"name": "Eulalia", "kind": "person", "mentions": 1, "examples": [f"{p}/e1"]}
    assert mine["Remedios"]["mentions"] == 2 and mine["Remedios"]["examples"] == [f"{p}/e2", f"{p}/e1"]
    assert mine["Jacqueline Moreau"]["kind"] == "person" and mine["Marseille"]["kind"] == "place"
    assert "Marta" not in mine, "a declared entity is no candidate"
    for user in (diary["bea"], diary["carl"]):
        theirs = as_dicts(graph, p, user)
        assert "Eulalia" not in theirs, "named only in an entry hidden from them"
        assert theirs["Remedios"] == {"name": "Remedios", "kind": "person", "mentions": 1, "examples": [f"{p}/e2"]}
    assert set(as_dicts(graph, p, None)) == set(mine), "the operator sees every entry"


def test_candidates_link_nothing(graph: Graph, diary: dict[str, str]) -> None:
    p = diary["project"]
    names = {e.name for e in list_visible_entities(graph, [p], Viewer(user_id=diary["ana"]))}
    assert names == {"Marta"}
    linked = graph.read("MATCH (:Entry {id: $id})-[:MENTIONS]->(n) RETURN collect(n.name) AS names", {"id": f"{p}/e2"})[
        0
    ]["names"]
    assert linked == ["Marta"]
    langs = graph.read("MATCH (e:Entry {project_id: $p}) RETURN e.id AS id, e.language AS lang ORDER BY id", {"p": p})
    assert [r["lang"] for r in langs] == ["es", "es", "fr"]


def test_hidden_entries_added_or_deleted_change_nothing_others_see(
    graph: Graph, diary: dict[str, str], ingest: Callable[..., IngestReport]
) -> None:
    p = diary["project"]
    before = {u: as_dicts(graph, p, diary[u]) for u in ("bea", "carl")}
    report = ingest(
        [
            {
                "entry_id": f"{p}/e9",
                "project_id": p,
                "author": diary["ana"],
                "intimacy": "private",
                "occurred_on": "2011-04-01",
                "text": "Otra vez con Remedios y con el primo Eulogio en Teruel.",
            }
        ]
    )
    assert report.written == 1
    assert as_dicts(graph, p, diary["ana"])["Remedios"]["mentions"] == 3
    assert {u: as_dicts(graph, p, diary[u]) for u in ("bea", "carl")} == before
    graph.write("MATCH (e:Entry) WHERE e.id IN $ids DETACH DELETE e", {"ids": [f"{p}/e1", f"{p}/e9"]})
    assert {u: as_dicts(graph, p, diary[u]) for u in ("bea", "carl")} == before
    assert "Eulalia" not in as_dicts(graph, p, diary["ana"])
