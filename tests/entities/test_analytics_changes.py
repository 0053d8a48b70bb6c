"""Co-occurrence measures and date ranges, month timelines, who appeared or disappeared, and the timeline picture:
exact figures on a small story, and nothing a reader gets moves when the owner adds entries hidden from them."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import auth
from api.app import Services, create_app
from api.cli import main
from api.ratelimit import UNLIMITED
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder

Get = Callable[..., Any]


def _story(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> tuple[str, str, str]:
    """Pep with Mamá monthly in 2008, with Lucía twice in March 2009, with Toni once in "2010" (a year only); Mamá
    alone every month of 2011-01..2012-08 (the story's end). N = 29 entries, all `circle`."""
    project, ana, lola = f"{prefix}story", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, lola, "reader")
    rows = [(f"2008-0{m}", ["Pep", "Mamá"]) for m in range(1, 7)]
    rows += [("2009-03-10", ["Pep", "Lucía"]), ("2009-03-20", ["Pep", "Lucía"]), ("2010", ["Pep", "Toni"])]
    rows += [(f"{2011 + i // 12}-{i % 12 + 1:02d}", ["Mamá"]) for i in range(20)]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/e{i}",
                "project_id": project,
                "author": ana,
                "occurred_on": when,
                "intimacy": "circle",
                "persons": persons,
                "text": f"Día {i} con {' y '.join(persons)}.",
            }
            for i, (when, persons) in enumerate(rows)
        ]
    ).errors
    return project, ana, lola


def _getter(client: TestClient, settings: Settings, project: str) -> Callable[..., Any]:
    def get(user: str, path: str, **params: Any) -> Any:
        return client.get(
            f"/v1/projects/{project}/analytics/{path}",
            params=params,
            headers={"Authorization": f"Bearer {auth.issue(settings, user)}"},
        )

    return get


@pytest.fixture()
def api(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> TestClient:
    """Rate limits off: a test reads every analytics answer twice, as one caller."""
    return TestClient(create_app(Services(settings.model_copy(update=UNLIMITED), graph=graph, embedder=embedder)))


def test_measures_rank_companions_differently_and_the_range_narrows_them(
    graph: Graph, api: TestClient, settings: Settings, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, _, lola = _story(graph, prefix, ingest)
    get = _getter(api, settings, project)

    def ranked(**params: Any) -> list[tuple[str, int, float]]:
        body = get(lola, "cooccurrence", entity="Pep", **params).json()
        return [(r["name"], r["together"], r["score"]) for r in body["with"]]

    # n_Pep = 9, n_Mamá = 26, n_Lucía = 2, n_Toni = 1, N = 29
    assert ranked(measure="count") == [("Mamá", 6, 6.0), ("Lucía", 2, 2.0), ("Toni", 1, 1.0)]
    default = get(lola, "cooccurrence", entity="Pep").json()
    assert default["measure"] == "jaccard" and [r["entries"] for r in default["with"]] == [2, 26, 1]
    assert [(n, t, pytest.approx(s, abs=1e-6)) for n, t, s in ranked()] == [
        ("Lucía", 2, 2 / 9),
        ("Mamá", 6, 6 / 29),
        ("Toni", 1, 1 / 9),
    ], "Jaccard: the everywhere-mother drops"
    assert [(n, pytest.approx(s, abs=1e-6)) for n, _, s in ranked(measure="pmi")] == [
        ("Lucía", math.log2(29 * 2 / (9 * 2))),
        ("Toni", math.log2(29 / 9)),
        ("Mamá", math.log2(29 * 6 / (9 * 26))),
    ]

    # vague bounds: from=2009 is 2009-01-01, to=2009-03 is 2009-03-31; the "2010" entry overlaps from=2009
    assert [(n, t) for n, t, _ in ranked(**{"from": "2009", "to": "2009-03"})] == [("Lucía", 2)]
    assert [(n, t) for n, t, _ in ranked(**{"from": "2009"}, measure="count")] == [("Lucía", 2), ("Toni", 1)]
    # in 2008-03..2008-04 PMI's N is the 2 visible entries of those months, not the project's 29
    assert ranked(**{"from": "2008-03", "to": "2008-04"}, measure="pmi") == [("Mamá", 2, 0.0)]

    bad_ranges = (({"from": "2009-13"}, "from"), ({"to": "ayer"}, "to"), ({"from": "2010", "to": "2009"}, "to"))
    for params, field in bad_ranges:
        bad = get(lola, "cooccurrence", entity="Pep", **params)
        assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", field], bad.json()
        assert not any(str(v) in bad.json()["detail"][0]["msg"] for v in params.values()), "input never echoed"
    assert get(lola, "cooccurrence", entity="Pep", measure="cosine").status_code == 422
    assert get(f"{prefix}outsider", "cooccurrence", entity="Pep", **{"from": "nope"}).status_code == 403


def test_month_timeline_and_who_appeared_or_disappeared(
    graph: Graph, api: TestClient, settings: Settings, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, _, lola = _story(graph, prefix, ingest)
    get = _getter(api, settings, project)

    months = get(lola, "timeline", entity="Pep", resolution="month").json()
    assert [(m["month"], m["entries"]) for m in months["months"]] == [
        *((f"2008-0{m}", 1) for m in range(1, 7)),
        ("2009-03", 2),
    ]
    assert months["vaguer"] == 1, "the entry dated only '2010' is on no month"
    assert [(y["year"], y["entries"]) for y in months["years"]] == [(2008, 6), (2009, 2), (2010, 1)]
    assert get(lola, "timeline", entity="Pep").json()["months"] is None

    everything = get(lola, "changes").json()
    assert everything["story_end"] == "2012-08-01" and everything["from"] is None
    assert [a["name"] for a in everything["appeared"]] == ["Mamá", "Pep", "Lucía", "Toni"]
    # Pep: 9 entries 2008-01-01..2010-01-01, mean gap 731/8 = 91.4 days, silent 943 days >= 4 x 91.4
    assert everything["disappeared"] == [
        {
            "id": everything["disappeared"][0]["id"],
            "name": "Pep",
            "kind": "person",
            "first": "2008-01-01",
            "last": "2010-01-01",
            "entries": 9,
            "mean_gap_days": 91.4,
            "silent_days": 943,
        }
    ]
    assert get(lola, "changes", factor=11).json()["disappeared"] == [], "943 < 11 x 91.4"

    y2009 = get(lola, "changes", **{"from": "2009", "to": "2009"}).json()
    assert (y2009["from"], y2009["to"]) == ("2009-01-01", "2009-12-31")
    assert [(a["name"], a["entries"]) for a in y2009["appeared"]] == [("Lucía", 2)]
    assert y2009["disappeared"] == [], "Pep's last mention is in 2010; Lucía has only 2 entries"
    y2010 = get(lola, "changes", **{"from": "2010", "to": "2010"}).json()
    assert [a["name"] for a in y2010["appeared"]] == ["Toni"]
    assert [d["name"] for d in y2010["disappeared"]] == ["Pep"]
    assert [a["name"] for a in get(lola, "changes", kind="place").json()["appeared"]] == []
    assert get(lola, "changes", **{"from": "2009-02-30"}).status_code == 422
    assert get(f"{prefix}outsider", "changes").status_code == 403


def _reader_view(get: Get, user: str) -> dict[str, Any]:
    view: dict[str, Any] = {}
    for entity in ("Pep", "Mamá", "Toni"):
        for measure in ("pmi", "jaccard"):
            view[f"with {entity} {measure}"] = get(user, "cooccurrence", entity=entity, measure=measure).json()
        view[f"with {entity} 2009"] = get(
            user, "cooccurrence", entity=entity, measure="pmi", **{"from": "2009", "to": "2012"}
        ).json()
        view[f"months {entity}"] = get(user, "timeline", entity=entity, resolution="month").json()
        for resolution in ("year", "month"):
            svg = get(user, "timeline.svg", entity=entity, resolution=resolution)
            view[f"svg {entity} {resolution}"] = (svg.status_code, svg.headers["content-type"], svg.content)
    for period in ({}, {"from": "2009", "to": "2010"}, {"from": "2012"}):
        view[f"changes {period}"] = get(user, "changes", **period).json()
    view["changes 2013"] = get(user, "changes", **{"from": "2013"}).json()
    view["hidden Secretina"] = get(user, "timeline.svg", entity="Secretina").json()
    return view


def test_hidden_entries_change_nothing_a_reader_gets(
    graph: Graph, api: TestClient, settings: Settings, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, ana, lola = _story(graph, prefix, ingest)
    get = _getter(api, settings, project)
    before, owner_before = _reader_view(get, lola), get(ana, "changes").json()
    assert before["svg Pep year"][:2] == (200, "image/svg+xml")
    assert before["svg Pep year"][2].startswith(b"<?xml") and b"<svg" in before["svg Pep year"][2]

    hidden = [
        ("private", "2013-05-02", ["Pep", "Secretina"]),
        ("intimate", "2009-03-15", ["Pep", "Mamá"]),
        ("private", "2008-02-10", ["Toni", "Lucía"]),
        ("intimate", "2012-11", ["Pep", "Toni", "Mamá"]),
        ("private", "2011-06", ["Mamá"]),
    ]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/h{i}",
                "project_id": project,
                "author": ana,
                "occurred_on": when,
                "intimacy": lvl,
                "persons": persons,
                "text": f"Secreto {i}: {' y '.join(persons)}.",
            }
            for i, (lvl, when, persons) in enumerate(hidden)
        ]
    ).errors

    after = _reader_view(get, lola)
    assert after.keys() == before.keys()
    for key in before:
        assert after[key] == before[key], key
    owner = get(ana, "changes").json()
    assert owner["story_end"] == "2013-05-02" != owner_before["story_end"], "the owner's own story moved"
    assert get(ana, "timeline.svg", entity="Pep").content != before["svg Pep year"][2]


def test_the_picture_is_drawn_without_a_plotting_library(
    graph: Graph,
    api: TestClient,
    settings: Settings,
    prefix: str,
    ingest: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project, _, lola = _story(graph, prefix, ingest)
    get = _getter(api, settings, project)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the `plot` extra were not installed
    drawn = get(lola, "timeline.svg", entity="Pep")
    assert drawn.status_code == 200 and drawn.headers["content-type"].startswith("image/svg+xml")
    assert drawn.text.startswith("<?xml") and "Pep" in drawn.text
    assert get(lola, "timeline.svg", entity="Nadie").status_code == 404


def test_cli_measures_changes_and_plot(
    graph: Graph, prefix: str, ingest: Callable[..., Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project, _, lola = _story(graph, prefix, ingest)

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(["entity", *argv, "--project", project, "--as", lola])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, _ = run("with", "--name", "Pep", "--measure", "pmi", "--from", "2009", "--json")
    body = json.loads(out)
    assert code == 0 and body["measure"] == "pmi" and [r["name"] for r in body["with"]] == ["Lucía", "Toni"]
    code, out, _ = run("changes", "--from", "2010", "--to", "2010", "--json")
    assert code == 0 and [d["name"] for d in json.loads(out)["disappeared"]] == ["Pep"]
    code, out, _ = run("changes", "--from", "2010")
    assert code == 0 and "silent_days" in out and "Pep" in out

    png = tmp_path / "pep.png"
    code, out, _ = run("timeline", "--name", "Pep", "--resolution", "month", "--plot", str(png), "--json")
    assert code == 0 and png.read_bytes().startswith(b"\x89PNG") and json.loads(out)["plot"] == str(png)
    assert json.loads(out)["vaguer"] == 1

    code, _, err = run("with", "--name", "Pep", "--from", "2009-99")
    assert code == 2 and "--from" in err and "Traceback" not in err
    code, _, err = run("timeline", "--name", "Pep", "--plot", str(tmp_path / "no" / "dir" / "x.png"))
    assert code == 2 and "cannot write" in err
