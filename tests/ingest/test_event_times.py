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

from graph.analytics import co_occurrence, timeline
from graph.db import Graph
from graph.entities import upsert_entity
from graph.members import set_member
from graph.settings import Settings
from graph.timelines import timeline_months
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.dates import DateRange
from ingest.event_times import AMBIGUOUS_WEIGHT, YEARLESS_WEIGHT, event_times, times_told
from queries.listing import EntryFilters, list_entries
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


def test_a_yearless_calendar_day_is_its_occurrence_nearest_the_writing_day() -> None:
    def day(text: str, written: date) -> list[tuple[date, float]]:
        return [(t.start, t.weight) for t in event_times(text, written) if t.precision == "day"]

    plan = "I managed to plan a vacation to Athens on the 10th of February for a week."
    assert day(plan, date(2024, 1, 27)) == [(date(2024, 2, 10), YEARLESS_WEIGHT)], "a plan two weeks ahead"
    assert day(plan, date(2024, 3, 2)) == [(date(2024, 2, 10), YEARLESS_WEIGHT)], "three weeks back"
    assert day("El 3 de diciembre fuimos al cine.", date(2024, 1, 10)) == [(date(2023, 12, 3), YEARLESS_WEIGHT)]
    assert day("Le 3 décembre, nous irons au cinéma.", date(2024, 11, 20)) == [(date(2024, 12, 3), YEARLESS_WEIGHT)]
    leap = day("On 29 February we married.", date(2025, 3, 3))
    assert leap == [(date(2024, 2, 29), YEARLESS_WEIGHT)], "a day a year lacks is its nearest year that has it"
    assert day("On 29 February we married.", date(2027, 3, 1)) == [(date(2024, 2, 29), YEARLESS_WEIGHT)], "not 2028"
    days = [(t.start, t.end) for t in event_times("Del 3 al 5 de marzo iremos a Roma.", date(2024, 2, 20))]
    assert days == [(date(2024, 3, 3), date(2024, 3, 5))], "days of a month: their nearest occurrence, ahead too"
    ahead = [(t.start, t.end) for t in event_times("From 28 to 30 December we ski.", date(2024, 12, 20))]
    assert ahead == [(date(2024, 12, 28), date(2024, 12, 30))]
    for text, written, span in (
        ("Del 3 de marzo al 5 de marzo iremos a Roma.", date(2024, 2, 20), (date(2024, 3, 3), date(2024, 3, 5))),
        ("Del 28 de febrero al 3 de marzo iremos a Roma.", date(2024, 2, 20), (date(2024, 2, 28), date(2024, 3, 3))),
        ("Del 28 de diciembre al 3 de enero, esquí.", date(2024, 12, 20), (date(2024, 12, 28), date(2025, 1, 3))),
    ):
        assert [(t.start, t.end) for t in event_times(text, written)] == [span], text
    for text, span in (
        ("Del 28 al 3 de marzo iremos a Roma.", (date(2024, 2, 28), date(2024, 3, 3))),
        ("I'm off March 3-5, see you after.", (date(2024, 3, 3), date(2024, 3, 5))),
        ("3–5 de marzo: Roma.", (date(2024, 3, 3), date(2024, 3, 5))),
    ):
        assert [(t.start, t.end, t.precision) for t in event_times(text, date(2024, 2, 20))] == [(*span, "range")], text
    score = event_times("We won 3-2 on March 5.", date(2024, 2, 20))
    assert [(t.start, t.end) for t in score] == [(date(2024, 3, 5), date(2024, 3, 5))], "a score is no range of days"
    months = event_times("De julio a septiembre, en el pueblo.", date(2024, 6, 2))
    assert [(t.start, t.end) for t in months] == [(date(2023, 7, 1), date(2023, 9, 30))], "months: the latest begun"
    halloween = event_times("Por Halloween vino Pep a cenar.", date(2024, 9, 1))
    assert [t.start for t in halloween] == [date(2023, 10, 31)], "a holiday keeps the last one begun"
    month = event_times("En agosto iremos a la playa.", date(2010, 6, 2))
    assert [(t.start, t.end) for t in month] == [(date(2009, 8, 1), date(2009, 8, 31))], "a month: the latest begun"


def test_an_entry_without_a_writing_day_keeps_the_times_that_need_none() -> None:
    text = "Ayer llamó Pep. En el verano de 2008 fuimos a Berlín. En agosto, la playa. Hace dos años, el piso."

    def read(occurred: DateRange | None) -> list[tuple[date, date, str]]:
        return [(t.start, t.end, t.precision) for t in times_told(text, occurred)]

    summer = (date(2008, 6, 21), date(2008, 9, 22), "season")
    assert read(None) == [summer], "undated: only the time that names its own year"
    assert read(DateRange(date(2011, 1, 1), date(2011, 12, 31), "year")) == [summer], "a year is no writing day"
    assert read(DateRange(date(2011, 7, 1), date(2011, 7, 31), "month")) == [
        (date(2011, 6, 30), date(2011, 7, 30), "approx"),  # yesterday: any day of that month
        summer,
        (date(2010, 8, 1), date(2010, 8, 31), "month"),  # the same August from any day of July 2011
        (date(2009, 1, 1), date(2009, 12, 31), "year"),
    ]
    day = read(DateRange(date(2011, 7, 14), date(2011, 7, 14), "day"))
    assert day[0] == (date(2011, 7, 13), date(2011, 7, 13), "day")


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
        ("told", "circle", "2010-06-03", "Anteayer corrimos la carrera solidaria del barrio con Pep."),
        ("hidden", "private", "2010-06-02", "Ayer corrí sola la carrera solidaria, sin decírselo a nadie."),
        ("written", "circle", "2010-06-01", "Hoy la carrera solidaria del barrio, con medalla para Pep."),
        ("vague", "circle", "2009", "Ayer fue la carrera solidaria, no sé qué día escribo esto."),
        ("other", "circle", "2012-03-10", "La carrera solidaria de este año se suspendió por la lluvia."),
        ("june", "circle", "2011-09-02", "En junio corrimos otra vez la carrera solidaria del barrio."),
        ("undated", "circle", None, "El 1 de junio de 2010 corrimos la carrera solidaria, y ayer la recordamos."),
    ]
    report = ingest(
        [
            {
                "entry_id": f"{project}/{key}",
                "project_id": project,
                "author": owner,
                "intimacy": level,
                **({"occurred_on": day} if day else {}),
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
    undated = graph.read(CHUNK_TIMES, {"id": f"{project}/undated"})[0]
    assert [d.to_native() for d in undated["starts"]] == [date(2010, 6, 1)], "the day it names, not yesterday"

    clock: dict[str, str] = {}

    def found(viewer: str, q: str) -> set[str]:
        answer = hybrid_search(
            graph, embedder, settings, Viewer(viewer), q, Scope(project_id=project), SearchOptions(k=10, explain=True)
        )
        assert answer.query_understanding is not None
        clock.clear()
        clock.update({i.rsplit("/", 1)[1]: c for i, c in answer.query_understanding["clock"].items()})
        return {r.entry_id.rsplit("/", 1)[1] for r in answer.results}

    question = "la carrera solidaria del 1 de junio de 2010"
    assert found(reader, question) == {"told", "written", "undated"}, "told that day, or written that day"
    assert clock == {"told": "told", "written": "written", "undated": "told"}
    assert found(owner, question) == {"told", "hidden", "written", "undated"}
    assert "other" not in found(owner, "la carrera solidaria en 2010")
    every_june = found(reader, "la carrera solidaria en junio")
    assert {"told", "written", "june"} <= every_june and "other" not in every_june, "a recurring date, either clock"
    assert (clock["june"], clock["written"]) == ("told", "written"), "June 2011 told in September, June 2010 written"


MENTION_TIMES = """
MATCH (e:Entry {id: $id})-[m:MENTIONS]->(x)
RETURN x.name AS name, [d IN coalesce(m.told_starts, []) | toString(d)] AS starts
"""


def test_a_mention_is_dated_by_what_its_sentence_tells_and_timelines_read_either_clock(
    graph: Graph, prefix: str, ingest: Callable[..., Any], client: Any, auth: Callable[[str], dict[str, str]]
) -> None:
    project = f"{prefix}mentions"
    owner, reader = f"{prefix}owner", f"{prefix}reader"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    pilar = upsert_entity(graph, project, "person", "Pilar", ["la abuela"]).id
    rows = [
        (
            "berlin",
            "circle",
            "2020-05-04",
            "En 2008 la abuela vivía en Berlín. Hoy Juan cocina. Juan no vino.",
            ["Juan"],
        ),
        ("secret", "private", "2021-01-10", "En 1999 Pilar y yo nos escapamos a Lisboa.", []),
        ("luis", "private", "2021-02-01", "En 2008 Pilar y Luis se escaparon a Lisboa.", ["Luis"]),
        ("marta", "circle", "2020-06-01", "En el verano de 2008 Pilar y Marta compartían piso.", ["Marta"]),
        ("plain", "circle", "2019-03-02", "Pilar vino a comer.", []),
        ("undated", "circle", None, "En marzo de 2015 Pilar cumplió ochenta años.", []),
    ]
    report = ingest(
        [
            {
                "entry_id": f"{project}/{key}",
                "project_id": project,
                "author": owner,
                "intimacy": level,
                **({"occurred_on": day} if day else {}),
                "text": text,
                "persons": persons,
            }
            for key, level, day, text, persons in rows
        ]
    )
    assert not report.errors
    told = {r["name"]: r["starts"] for r in graph.read(MENTION_TIMES, {"id": f"{project}/berlin"})}
    assert told == {"Pilar": ["2008-01-01"], "Juan": ["2020-05-04"]}, (
        "by alias and by listed name, sentence by sentence"
    )
    assert [r["starts"] for r in graph.read(MENTION_TIMES, {"id": f"{project}/plain"})] == [[]]

    def years(user: str, time: str) -> dict[int, int]:
        return {r["year"]: r["entries"] for r in timeline(graph, Viewer(user), project, pilar, time)}

    assert years(reader, "event") == {2008: 2, 2015: 1, 2019: 1}, "an undated entry keeps the year it names"
    assert years(reader, "written") == {2019: 1, 2020: 2}
    assert years(owner, "event") == {1999: 1, 2008: 3, 2015: 1, 2019: 1}, (
        "private entries only for whoever may see them"
    )
    months, vaguer = timeline_months(graph, Viewer(reader), project, pilar, "event")
    assert [(m["month"], m["entries"]) for m in months] == [("2015-03", 1), ("2019-03", 1)] and vaguer == 2, (
        "a year, a summer"
    )

    def companions(user: str, time: str, year: date | None) -> dict[str, int]:
        rows = co_occurrence(graph, Viewer(user), project, pilar, 10, None, "count", year, year, time)
        return {r["name"]: r["together"] for r in rows}

    in_2008 = date(2008, 1, 1), date(2008, 12, 31)
    assert companions(reader, "event", None) == {"Juan": 1, "Marta": 1}, "no range: every entry, either clock"
    rows = co_occurrence(graph, Viewer(reader), project, pilar, 10, None, "count", *in_2008)
    assert [(r["name"], r["together"], r["first"], r["last"]) for r in rows] == [
        ("Marta", 1, "2008-06-21", "2008-09-22")
    ], "Juan is named in the same entry, in a sentence about the day it was written"
    owned = co_occurrence(graph, Viewer(owner), project, pilar, 10, None, "count", *in_2008)
    assert {r["name"] for r in owned} == {"Marta", "Luis"}
    by_written = co_occurrence(graph, Viewer(reader), project, pilar, 10, None, "count", *in_2008, "written")
    assert by_written == [], "nothing was written in 2008"

    def listed(user: str, time: str) -> list[str]:
        filters = EntryFilters(date_from=in_2008[0], date_to=in_2008[1], time=time)
        rows = list_entries(graph, Viewer(user), project, filters, sort="asc").rows
        return [r["entry"]["id"].rsplit("/", 1)[1] for r in rows]

    assert listed(reader, "event") == ["berlin", "marta"], "told of 2008, in the order they were written"
    assert listed(owner, "event") == ["berlin", "marta", "luis"]
    assert listed(reader, "written") == []

    base = f"/v1/projects/{project}/analytics/timeline?entity=Pilar"
    default = client.get(base, headers=auth(reader))
    assert default.status_code == 200, default.text
    assert [y["year"] for y in default.json()["years"]] == [2008, 2015, 2019], "event time by default"
    written = client.get(f"{base}&time=written&resolution=month", headers=auth(reader)).json()
    assert [m["month"] for m in written["months"]] == ["2019-03", "2020-05", "2020-06"]
    pairs = client.get(
        f"/v1/projects/{project}/analytics/cooccurrence?entity=Pilar&from=2008&to=2008&measure=count",
        headers=auth(reader),
    )
    assert [c["name"] for c in pairs.json()["with"]] == ["Marta"], pairs.text
    page = client.get(f"/v1/projects/{project}/entries?date_from=2008-01-01&date_to=2008-12-31", headers=auth(reader))
    assert [e["entry_id"].rsplit("/", 1)[1] for e in page.json()["entries"]] == ["marta", "berlin"], page.text
    wrong = client.get(f"{base}&time=told", headers=auth(reader))
    assert wrong.status_code == 422 and "time" in wrong.text
