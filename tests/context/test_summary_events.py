"""The extractive summary as a list of events: what it chooses and leaves out, the project summary built from its
periods' events, and `memora eval summaries` scoring it against the events a session tells (on the real Neo4j)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from api.cli import main
from api.summary_evaluation import content_terms, lead, recovered, score
from graph import summaries as gs
from graph.db import Graph
from graph.ids import period_id
from graph.members import set_member
from graph.summaries import audience_for
from graph.visibility import Viewer
from ingest.summarise import events, extractive_summary, render, word_count
from ingest.summary_jobs import Summaries

CHAT = [
    ("ana", "Hey Pep! Good to see you! How have you been?"),
    ("pep", "Hi Ana! Great to see you too. What's new with you?"),
    ("ana", "I adopted a grey cat from the shelter in Gràcia last week. [image: a grey cat on a sofa]"),
    ("pep", "Wow, that's amazing! What's her name?"),
    ("ana", "Her name is Lluna and she sleeps all day on my desk."),
    ("pep", "I started pottery classes in Sants on Tuesday, my first bowl cracked in the kiln."),
    ("ana", "That's so cool, you're so talented!"),
    ("pep", "Thanks! Take care, Ana."),
]


def _entries(chat: list[tuple[str, str]], day: str = "2023-05-08") -> list[dict[str, Any]]:
    return [
        {"id": f"p/e{n}", "text": text, "occurred_on": day, "author_id": who, "persons": [], "places": []}
        for n, (who, text) in enumerate(chat)
    ]


def _dated_entries(told: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """One author's entries, each written on its own day: (day, text)."""
    return [
        {"id": f"p/e{n}", "text": text, "occurred_on": day, "author_id": "ana", "persons": [], "places": []}
        for n, (day, text) in enumerate(told)
    ]


def test_events_leave_out_greetings_questions_reactions_and_annotations() -> None:
    found = events(_entries(CHAT), 150)
    text = render(found)
    assert "adopted a grey cat" in text and "pottery classes" in text
    assert "?" not in text, "a question is never an event"
    for phatic in ("Good to see you", "Wow", "so talented", "Take care"):
        assert phatic not in text, phatic
    assert "[image" not in text
    assert [e.entry_id for e in found] == [e.entry_id for e in found if e.entry_id in {"p/e2", "p/e4", "p/e5"}]
    assert all(e.who in {"ana", "pep"} for e in found), "several authors: each line says who"


def test_lines_cite_their_entries_in_date_order_once_per_date_and_never_twice_the_same() -> None:
    days = ["2023-05-09", "2023-05-08", "2023-05-10"]
    entries = [
        {**e, "occurred_on": days[n % 3]}
        for n, e in enumerate(_entries([(w, t) for w, t in CHAT if "?" not in t and "cool" not in t] * 2))
    ]
    summary = extractive_summary(entries, 60)
    lines = summary.text.splitlines()
    assert len(lines) == len(summary.cites) and word_count(summary.text) <= 60 + len(lines)
    dated = [line.split(":")[0] for line in lines if line[:4] == "2023"]
    assert dated == sorted(set(dated)), "each date once, in order"
    bodies = [line.split(": ", 2)[-1] for line in lines]
    assert len(bodies) == len(set(bodies)), "the same event twice"
    by_id = {e["id"]: e for e in entries}
    for line, cite in zip(lines, summary.cites, strict=True):
        assert line.split(": ", 2)[-1].split(" ")[0] in by_id[cite]["text"], (line, cite)


def test_one_author_is_not_named_on_every_line() -> None:
    found = events(_entries([("ana", t) for _, t in CHAT]), 150)
    assert found and all(e.who is None for e in found)


def test_coverage_counts_an_event_when_half_its_content_words_are_in_one_line() -> None:
    assert content_terms("Caroline attends the support groups") == {"caroline", "attend", "support", "group"}
    event = "Ana adopts a grey cat from the shelter."  # ana, adopt, grey, cat, shelter
    assert recovered(event, ["ana: I adopted a grey cat."])  # 4 of 5
    assert not recovered(event, ["ana: the cat.", "a grey shelter"])  # 2 and 2 of 5: never across lines
    assert score([event, "Pep sells his car."], "ana: I adopted a grey cat.").coverage == 0.5
    baseline = lead(_entries(CHAT), 12)
    assert baseline.splitlines()[0].startswith("2023-05-08: ana: Hey Pep!") and word_count(baseline) <= 12 + 4


@pytest.mark.neo4j
def test_a_project_summary_tells_of_every_period_from_their_events(
    graph: Graph, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, owner = f"{prefix}p", f"{prefix}ana"
    set_member(graph, project, owner, "owner")
    rows = []
    for month, place in enumerate(["Cádiz", "Berlín", "Oporto", "Lyon"], start=1):
        for n in range(6):
            rows.append(
                {
                    "entry_id": f"{project}/{month}-{n}",
                    "project_id": project,
                    "author": owner,
                    "occurred_on": f"2008-{month:02d}-{n + 1:02d}",
                    "period": f"Viaje a {place}",
                    "text": f"Ayer fuimos en tren a {place} y compramos {n + 2} postales para la abuela Rosa. "
                    f"Luego cenamos pescado en {place} con mis primos, que cantaron hasta tarde.",
                    "places": [place],
                }
            )
    assert not ingest(rows).errors
    viewer = Viewer(user_id=owner)
    audience = audience_for(graph, viewer, project, None)
    assert audience is not None
    built = Summaries(graph, None, period_words=60, project_words=120).build(project, None, audience, use_llm=False)
    for place in ("Cádiz", "Berlín", "Oporto", "Lyon"):
        assert place in built["text"], f"the project summary leaves {place} out: {built['text']}"
    assert built["words"] <= 120 + len(built["cites"]) and len(built["cites"]) == len(built["text"].splitlines())
    one = audience_for(graph, viewer, project, period_id(project, "Viaje a Lyon"))
    assert one is not None
    period = Summaries(graph, None, period_words=60).build(project, period_id(project, "Viaje a Lyon"), one)
    assert all(c.startswith(f"{project}/4-") for c in period["cites"]), "a period cites only its own entries"


@pytest.mark.neo4j
def test_eval_summaries_scores_each_session_against_the_lead_baseline(
    graph: Graph, prefix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = f"{prefix}conv"
    entries, events_file = tmp_path / "entries.jsonl", tmp_path / "events.jsonl"
    lines = []
    for session, chat in ((1, CHAT), (2, [("pep", "Pep: " + t) if w == "pep" else (w, t) for w, t in reversed(CHAT)])):
        for n, (who, text) in enumerate(chat):
            lines.append(
                {
                    "entry_id": f"{project}/D{session}:{n}",
                    "project_id": project,
                    "session": session,
                    "occurred_on": f"2023-05-0{session}",
                    "author": who,
                    "text": text,
                }
            )
    entries.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in lines) + "\n", encoding="utf-8")
    wanted = [
        {"project_id": project, "session": s, "events": [{"speaker": "ana", "text": "Ana adopts a grey cat."}]}
        for s in (1, 2)
    ]
    events_file.write_text("\n".join(json.dumps(w) for w in wanted) + "\n", encoding="utf-8")

    assert main(["eval", "summaries", "--entries", str(entries), "--json"]) == 2
    assert "--events" in capsys.readouterr().err
    code = main(
        ["eval", "summaries", "--entries", str(entries), "--events", str(events_file), "--budget", "30", "--json"]
    )
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["coverage"] == 1.0 and [s["session"] for s in result["sessions"]] == [1, 2]
    # Greetings open session 1 and a goodbye and reactions session 2: their first 30 words miss the cat.
    assert [s["lead_coverage"] for s in result["sessions"]] == [0.0, 0.0] and result["lead_coverage"] == 0.0
    assert result["sessions"][0]["summary"].splitlines()[0].startswith("2023-05-01: ana: I adopted a grey cat")
    for s in result["sessions"]:
        assert s["words"] <= 30 + len(s["cites"]) and all(
            c.startswith(f"{project}/D{s['session']}:") for c in s["cites"]
        )
    assert result["per_project"][project]["events"] == 2
    assert main(["eval", "--entries", str(entries)]) == 2, "retrieval needs --queries"


@pytest.mark.neo4j
def test_a_summary_stored_in_an_older_form_is_built_again_when_asked_for(
    graph: Graph, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, owner = f"{prefix}p", f"{prefix}ana"
    set_member(graph, project, owner, "owner")
    rows = [
        {
            "entry_id": f"{project}/e{n}",
            "project_id": project,
            "author": owner,
            "occurred_on": "2009-03-0" + str(n + 1),
            "text": text,
        }
        for n, text in enumerate(["Fuimos a Lisboa en tren con la abuela Rosa.", "Compramos un piano viejo en Lyon."])
    ]
    assert not ingest(rows).errors
    viewer, summaries = Viewer(user_id=owner), Summaries(graph, None)
    first = summaries.for_viewer(viewer, project, None)
    assert first is not None and first["form"] == gs.FORM and len(first["cites"]) == len(first["ranks"]) == 2
    graph.write(
        "MATCH (s:Summary {id: $id}) SET s.text = 'old prose', s.cites = null, s.form = null", {"id": first["id"]}
    )
    again = summaries.for_viewer(viewer, project, None)
    assert again is not None and again["text"] == first["text"] and again["cites"] == first["cites"]


def test_a_summary_short_of_room_keeps_its_most_telling_lines_with_their_dates() -> None:
    from queries.context.chapter import fitted

    row = {
        "text": "1995: Aprendí a montar en bici.\nMe caí contra un banco.\n2008-07: Nos mudamos a Berlín con Marta.",
        "cites": ["p/e1", "p/e2", "p/e3"],
        "ranks": [2, 1, 0],
        "dates": ["1995", "1995", "2008-07"],
    }

    def words_of(text: str) -> int:
        return len(text.split())

    text, told = fitted(row, 13, words_of)
    assert text == "1995: Me caí contra un banco.\n2008-07: Nos mudamos a Berlín con Marta."
    assert [e["entry_id"] for e in told] == ["p/e2", "p/e3"], "the least telling line goes first, not the last"
    whole, all_told = fitted(row, 100, words_of)
    assert whole == row["text"] and len(all_told) == 3
    prose, none = fitted({"text": "Una prosa de un modelo sin citas ni fechas."}, 5, words_of)
    assert prose.endswith("…") and none == []


def test_an_act_told_by_who_lived_it_wins_over_an_opinion_and_keeps_only_its_own_clause() -> None:
    long_turn = (
        "Honestly, rents in this city seem absurd to everybody nowadays, landlords included, whatever newspapers say. "
        "I ran a charity race for the food bank in Poblenou last Saturday – it was really rewarding and fun. "
        "Museums should open later on weekday evenings for working families and retired neighbours alike."
    )
    chat = [("pep", long_turn), ("ana", "Politicians rarely listen to teachers about classroom sizes.")]
    found = events(_entries(chat), 14)
    assert [e.text for e in found] == ["I ran a charity race for the food bank in Poblenou last Saturday."]
    assert found[0].who == "pep" and found[0].entry_id == "p/e0"


FILLER = """
weather patterns puzzle sailors coastal clouds drift slowly museum tickets cost plenty orange trees bloom early
bakery queues grow longer garden snails eat lettuce football scores surprise fans autumn leaves cover paths
""".strip()


def test_the_news_told_first_in_a_session_wins_over_the_same_kind_of_line_told_late() -> None:
    chat = [
        ("ana", "I adopted a grey cat from the shelter in Gràcia last week."),
        *[("pep", f"{a.capitalize()} {b} {c} {d}.") for a, b, c, d in zip(*[iter(FILLER.split())] * 4, strict=True)],
        ("pep", "I bought a blue kayak from the harbour shop in Badalona last May."),
    ]
    found = events(_entries(chat), 14)
    assert [e.entry_id for e in found] == ["p/e0"], "told first, though the late one names a month"
    one_a_day = [{**e, "occurred_on": f"2023-05-{n + 10}"} for n, e in enumerate(_entries(chat))]
    assert [e.entry_id for e in events(one_a_day, 14)] == [f"p/e{len(chat) - 1}"], "one entry a day: none is early"


def test_a_line_never_opens_on_the_conjunction_that_tied_it_to_a_clause_left_out() -> None:
    turn = (
        "The kids were bored all week long at home, so we drove to the lake at Banyoles on Sunday morning. "
        "Wow. But my brother Jordi finally moved into the new flat in Sabadell yesterday afternoon."
    )
    found = events(_entries([("ana", turn * 2)]), 60)
    assert found and all(e.text[0].isupper() for e in found)
    assert not any(e.text.split()[0].lower() in {"so", "but", "and", "because", "which"} for e in found)
    assert any("drove to the lake at Banyoles" in e.text for e in found)


def test_a_spanish_first_person_preterite_counts_as_a_told_act() -> None:
    diary = [
        ("lucia", "Mi opinión sobre los precios de los pisos en Bilbao: nadie sabe hasta cuándo durará esta locura."),
        ("lucia", "Ayudé a Jon a subir las cajas al piso nuevo de Embajadores y cenamos pizza en el suelo."),
    ]
    found = events(_entries(diary), 18)
    assert [e.entry_id for e in found] == ["p/e1"]


def test_lines_are_dated_and_ordered_by_when_they_happened_and_say_when_they_were_told_if_apart() -> None:
    told = [
        ("2020-05-04", "En 2008 la abuela Rosa vivía en Berlín con su hermana Carmen."),
        ("2019-03-02", "Fuimos a Cádiz a ver el carnaval con Pep y sus primos."),
        ("2020-05-10", "Ayer compramos un piano viejo en Lyon para la casa nueva."),
        ("2021-03-10", "El verano pasado nadamos en el río con los perros de Marta."),
    ]
    entries = _dated_entries(told)
    north = extractive_summary(entries, 200)
    assert north.text.splitlines() == [
        "2008: En 2008 la abuela Rosa vivía en Berlín con su hermana Carmen (contado el 2020-05-04).",
        "2019-03-02: Fuimos a Cádiz a ver el carnaval con Pep y sus primos.",
        "2020: El verano pasado nadamos en el río con los perros de Marta (contado el 2021-03-10).",
        "2020-05-10: Ayer compramos un piano viejo en Lyon para la casa nueva.",
    ], "a day apart is within a period's grain: the writing date, no note"
    assert north.cites == ("p/e0", "p/e1", "p/e3", "p/e2") and north.dates == (
        "2008",
        "2019-03-02",
        "2020",
        "2020-05-10",
    )
    south = extractive_summary(entries, 200, hemisphere="south")
    assert "2021-03-10: El verano pasado nadamos en el río con los perros de Marta." in south.text.splitlines(), (
        "a southern summer ended days before: it spans two years, so the line keeps its writing date"
    )


def test_when_a_line_was_told_is_said_in_its_entrys_language() -> None:
    told = [
        ("2020-05-04", "In 2008 my grandmother Rosa lived in Berlin with her sister and we visited them."),
        ("2021-06-01", "En 2009 nous habitions à Lyon avec ma tante Odile et son chien."),
        ("2022-02-02", "En 2010 mi abuelo Pep arregló el tejado de la casa del pueblo."),
    ]
    entries = _dated_entries(told)
    lines = extractive_summary(entries, 200).text.splitlines()
    assert lines == [
        "2008: In 2008 my grandmother Rosa lived in Berlin with her sister and we visited them (told on 2020-05-04).",
        "2009: En 2009 nous habitions à Lyon avec ma tante Odile et son chien (raconté le 2021-06-01).",
        "2010: En 2010 mi abuelo Pep arregló el tejado de la casa del pueblo (contado el 2022-02-02).",
    ]
