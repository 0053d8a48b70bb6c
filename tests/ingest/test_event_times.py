"""The times an entry's sentences tell, read against the day it was written: a set of sentences in Spanish, English
and French written for this (`event_time_sentences.jsonl`: relative, vague and absolute times, and sentences naming
none, each with the interval it means from three writing days), the weights of year-less and ambiguous words, and on
the real Neo4j the intervals kept with the chunks and the entry, matched by a question's date for whoever may see
the entry and for no one else."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.event_times import AMBIGUOUS_WEIGHT, YEARLESS_WEIGHT, event_times
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions
from tests.conftest import SUMMARY

SENTENCES = Path(__file__).with_name("event_time_sentences.jsonl")
EXACT_AT_LEAST = 0.95


def test_the_sentence_set_resolves_to_the_intervals_it_means() -> None:
    rows = [json.loads(line) for line in SENTENCES.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 150 and {r["lang"] for r in rows} == {"es", "en", "fr"}
    missed: Counter[str] = Counter()
    for r in rows:
        told = [t for t in event_times(r["text"], date.fromisoformat(r["written"])) if t.weight >= YEARLESS_WEIGHT]
        got = [(t.start.isoformat(), t.end.isoformat()) for t in told]
        wanted = [] if r["start"] is None else [(r["start"], r["end"])]
        if got != wanted:
            missed[f"{r['lang']} {r['kind']}"] += 1
    exact = 1 - sum(missed.values()) / len(rows)
    SUMMARY.append(f"event times: {len(rows)} sentences, {exact:.3f} exact intervals; missed {dict(missed)}")
    assert exact >= EXACT_AT_LEAST, missed


def test_a_yearless_time_is_its_latest_occurrence_and_an_ambiguous_word_weighs_little() -> None:
    written = date(2010, 6, 2)
    august = event_times("En agosto estuvimos en la playa.", written)
    assert [(t.start, t.end, t.weight) for t in august] == [(date(2009, 8, 1), date(2009, 8, 31), YEARLESS_WEIGHT)]
    anchored = event_times("En verano, en 2008, Pep se fue a Berlín.", written)
    assert [(t.start, t.end, t.weight) for t in anchored] == [(date(2008, 6, 21), date(2008, 9, 22), 1.0)]
    name = event_times("Mayo vino a cenar con nosotros.", written)
    assert name and all(t.weight == AMBIGUOUS_WEIGHT for t in name)
    several = event_times("Ayer llamó Pep. El verano pasado estuvo en Berlín.", written)
    assert [(t.start, t.end) for t in several] == [
        (date(2010, 6, 1), date(2010, 6, 1)),
        (date(2009, 6, 21), date(2009, 9, 22)),
    ]
    assert event_times("Yesterday we moved.", date(2011, 3, 1))[0].start == date(2011, 2, 28), "against the writing day"


CHUNK_TIMES = """
MATCH (c:Chunk)-[:OF]->(e:Entry {id: $id})
RETURN e.told_starts AS starts, e.told_ends AS ends, c.event_starts AS chunk_starts, c.event_weights AS weights
"""


def test_an_entry_keeps_what_it_tells_and_a_question_date_meets_either_clock_for_those_who_may_see_it(
    graph: Graph,
    settings: Settings,
    embedder: CheckedEmbedder,
    prefix: str,
    ingest: Callable[..., Any],
) -> None:
    project = f"{prefix}clocks"
    owner, reader = f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    rows = [
        ("told", "circle", "2010-06-02", "Ayer corrimos la carrera solidaria del barrio con Pep."),
        ("hidden", "private", "2010-06-02", "Ayer corrí sola la carrera solidaria, sin decírselo a nadie."),
        ("written", "circle", "2010-06-01", "Hoy la carrera solidaria del barrio, con medalla para Pep."),
        ("vague", "circle", "2009", "Ayer fue la carrera solidaria, no sé qué día escribo esto."),
        ("other", "circle", "2012-03-10", "La carrera solidaria de este año se suspendió por la lluvia."),
    ]
    report = ingest(
        [
            {
                "entry_id": f"{project}/{key}",
                "project_id": project,
                "author": owner,
                "intimacy": level,
                "occurred_on": day,
                "text": text,
            }
            for key, level, day, text in rows
        ]
    )
    assert not report.errors
    kept = graph.read(CHUNK_TIMES, {"id": f"{project}/told"})[0]
    assert [d.to_native() for d in kept["starts"]] == [date(2010, 6, 1)] == [d.to_native() for d in kept["ends"]]
    assert [d.to_native() for d in kept["chunk_starts"]] == [date(2010, 6, 1)] and kept["weights"] == [1.0]
    vague = graph.read(CHUNK_TIMES, {"id": f"{project}/vague"})[0]
    assert vague["starts"] is None and vague["chunk_starts"] is None, "no writing day: no relative time is read"

    def found(viewer: str, q: str) -> set[str]:
        answer = hybrid_search(
            graph, embedder, settings, Viewer(viewer), q, Scope(project_id=project), SearchOptions(k=10, explain=True)
        )
        return {r.entry_id.rsplit("/", 1)[1] for r in answer.results}

    question = "la carrera solidaria del 1 de junio de 2010"
    assert found(reader, question) == {"told", "written"}, "told that day, or written that day"
    assert found(owner, question) == {"told", "hidden", "written"}
    assert "other" not in found(owner, "la carrera solidaria en 2010")
