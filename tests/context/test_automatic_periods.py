"""Automatic chapters on the real Neo4j: an entry that declares no chapter is put in its session's, else its month's,
else its year's; a declared chapter keeps priority; an edit moves the entry; a hidden entry changes nothing its
viewer sees of them; they are never shared with a witness nor given entity vectors; stored entries get them when the
rule is applied again."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from api.cli import main
from graph.automatic_periods import pending, recut
from graph.db import Graph
from graph.entity_vectors import refresh_project
from graph.members import set_member
from graph.periods import AUTO_RULE, automatic_period, is_automatic
from graph.summaries import audience_for, visible_periods
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.summary_jobs import Summaries


def test_the_rule_reads_the_entry_alone() -> None:
    may = automatic_period("p", date(2023, 5, 8), date(2023, 5, 8))
    assert may is not None and may.name == "2023-05" and is_automatic(may.id)
    week = automatic_period("p", date(2023, 5, 29), date(2023, 6, 4))
    assert week is not None and week.name == "2023", "a date across two months belongs to its year"
    assert automatic_period("p", date(2008, 6, 1), date(2009, 8, 31)) is None, "across years: no chapter"
    assert automatic_period("p", None, None) is None
    session = automatic_period("p", date(2023, 5, 8), None, 3)
    assert session is not None and session.name == "session 3", "a session wins over the date"
    assert automatic_period("p", None, None, True) is None, "a flag is not a session"
    declared_like = automatic_period("p", None, None, "Berlín")
    assert declared_like is not None and declared_like.id != "p/period/session-berlin"
    assert not is_automatic("p/period/2023-05")


def _row(project: str, name: str, author: str, **extra: Any) -> dict[str, Any]:
    return {
        "entry_id": f"{project}/{name}",
        "project_id": project,
        "author": author,
        "text": f"Hoy {name}: paseamos por el puerto de Vigo con la abuela Rosa y comimos pulpo.",
        "persons": ["Rosa"],
        "places": ["Vigo"],
        **extra,
    }


@pytest.fixture()
def chaptered(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    project, owner, reader = f"{prefix}p", f"{prefix}ana", f"{prefix}pep"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    rows = [
        _row(project, "may-1", owner, occurred_on="2023-05-02"),
        _row(project, "may-2", owner, occurred_on="2023-05-20"),
        _row(project, "june", owner, occurred_on="2023-06-11"),
        _row(project, "chat-1", owner, occurred_on="2023-05-21", session=7),
        _row(project, "declared", owner, occurred_on="2023-05-03", period="Viaje a Vigo"),
        _row(project, "undated", owner),
    ]
    assert not ingest(rows).errors
    return {"project": project, "owner": owner, "reader": reader}


def _listed(graph: Graph, project: str, user: str) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in visible_periods(graph, project, Viewer(user_id=user))}


@pytest.mark.neo4j
def test_entries_without_a_chapter_fall_in_their_session_month_or_none(graph: Graph, chaptered: dict[str, str]) -> None:
    listed = _listed(graph, chaptered["project"], chaptered["reader"])
    assert set(listed) == {"2023-05", "2023-06", "session 7", "Viaje a Vigo"}
    assert listed["2023-05"]["entries"] == 2 and listed["2023-05"]["automatic"]
    assert (listed["2023-05"]["people"], listed["2023-05"]["places"]) == (["Rosa"], ["Vigo"]), "named by who and where"
    assert (listed["2023-05"]["start"], listed["2023-05"]["end"]) == ("2023-05-02", "2023-05-20")
    assert not listed["Viaje a Vigo"]["automatic"] and listed["Viaje a Vigo"]["entries"] == 1
    assert list(listed) == ["2023-05", "Viaje a Vigo", "session 7", "2023-06"], "periods in date order"


@pytest.mark.neo4j
def test_an_entry_reads_back_without_the_chapter_it_did_not_declare(
    client: Any, auth: Callable[[str], dict[str, str]], chaptered: dict[str, str]
) -> None:
    project = chaptered["project"]
    body = client.get(f"/v1/entries/{project}/may-1", headers=auth(chaptered["owner"])).json()
    assert body["period"] is None, "written back as it reads, the entry must not declare its automatic chapter"
    assert is_automatic(body["read_only"]["period_id"])
    listed = client.get(
        f"/v1/projects/{project}/entries", params={"period": "2023-05"}, headers=auth(chaptered["reader"])
    ).json()
    assert {e["entry_id"] for e in listed["entries"]} == {f"{project}/may-1", f"{project}/may-2"}


@pytest.mark.neo4j
def test_an_edit_moves_the_entry_to_the_chapter_of_its_new_date(
    graph: Graph, chaptered: dict[str, str], ingest: Callable[..., Any]
) -> None:
    project, owner = chaptered["project"], chaptered["owner"]
    assert not ingest([_row(project, "june", owner, occurred_on="2023-05-30")]).errors
    listed = _listed(graph, project, chaptered["reader"])
    assert "2023-06" not in listed, "a chapter left without entries is gone"
    assert listed["2023-05"]["entries"] == 3
    assert not ingest([_row(project, "may-2", owner, occurred_on="2023-05-20", period="Viaje a Vigo")]).errors
    listed = _listed(graph, project, chaptered["reader"])
    assert listed["2023-05"]["entries"] == 2 and listed["Viaje a Vigo"]["entries"] == 2, "a declared chapter wins"


@pytest.mark.neo4j
def test_hidden_entries_change_nothing_a_viewer_sees_of_automatic_chapters(
    graph: Graph, chaptered: dict[str, str], ingest: Callable[..., Any]
) -> None:
    project, owner, reader = chaptered["project"], chaptered["owner"], chaptered["reader"]
    summaries = Summaries(graph, None)
    viewer = Viewer(user_id=reader)

    def seen() -> tuple[Any, ...]:
        listed = visible_periods(graph, project, viewer)
        texts = tuple((summaries.for_viewer(viewer, project, p["id"]) or {}).get("text") for p in listed)
        return tuple(sorted(tuple(sorted(p.items())) for p in listed)), texts

    before = seen()
    hidden = [
        _row(project, "secret-may", owner, occurred_on="2023-05-25", intimacy="intimate", persons=["Secretina"]),
        _row(project, "secret-july", owner, occurred_on="2023-07-04", intimacy="private"),
        _row(project, "secret-session", owner, occurred_on="2023-05-21", session=7, intimacy="intimate"),
        _row(project, "secret-long", owner, occurred_on="2023-04-28/2023-06-30", intimacy="private"),
    ]
    assert not ingest(hidden).errors
    assert seen() == before
    owner_view = _listed(graph, project, owner)
    assert owner_view["2023-05"]["entries"] == 3 and "2023-07" in owner_view and "2023" in owner_view


@pytest.mark.neo4j
def test_an_automatic_chapter_is_never_shared_with_a_witness(
    client: Any, auth: Callable[[str], dict[str, str]], chaptered: dict[str, str], graph: Graph
) -> None:
    project, owner = chaptered["project"], chaptered["owner"]
    month = _listed(graph, project, owner)["2023-05"]["id"]
    refused = client.post(f"/v1/projects/{project}/witnesses", json={"period_id": month}, headers=auth(owner))
    assert refused.status_code == 422 and "automatic" in refused.json()["detail"][0]["msg"]
    declared = _listed(graph, project, owner)["Viaje a Vigo"]["id"]
    granted = client.post(f"/v1/projects/{project}/witnesses", json={"period_id": declared}, headers=auth(owner))
    assert granted.status_code == 201


@pytest.mark.neo4j
@pytest.mark.serial  # removes the installation-wide marker and applies the rule to every project
def test_stored_entries_get_their_chapters_when_the_rule_is_applied_again(
    graph: Graph, chaptered: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    project, owner = chaptered["project"], chaptered["owner"]
    viewer = Viewer(user_id=owner)
    audience = audience_for(graph, viewer, project, None)
    assert audience is not None
    Summaries(graph, None).build(project, None, audience, use_llm=False)
    graph.write(
        """
        MATCH (e:Entry {project_id: $p}) SET e.period_rule = null, e.auto_period_name = null
        WITH e MATCH (e)-[r:IN_PERIOD]->(:Period {automatic: true}) DELETE r
        """,
        {"p": project},
    )
    graph.write("MATCH (b:Backfill {name: 'automatic_periods'}) DELETE b")
    assert set(_listed(graph, project, owner)) == {"Viaje a Vigo"}
    assert main(["migrate", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["automatic_periods"]["examined"] >= 6
    assert set(_listed(graph, project, owner)) == {"2023-05", "2023-06", "session 7", "Viaje a Vigo"}
    stale = graph.read("MATCH (s:Summary {project_id: $p, scope: 'project'}) RETURN s.stale AS stale", {"p": project})
    assert stale and all(r["stale"] for r in stale), "a summary its entries moved under is marked stale"
    rules = graph.read("MATCH (e:Entry {project_id: $p}) RETURN collect(DISTINCT e.period_rule) AS r", {"p": project})
    assert rules[0]["r"] == [AUTO_RULE]
    assert pending(graph) == 0 and recut(graph) == 0, "once done, applying the rule again reads nothing"


@pytest.mark.neo4j
def test_only_declared_chapters_get_entity_vectors(
    graph: Graph, chaptered: dict[str, str], embedder: CheckedEmbedder
) -> None:
    project = chaptered["project"]
    refresh_project(graph, project, embedder.slug)
    rows = graph.read(
        """
        MATCH (v:EntityVector)-[:VECTOR_OF]->(per:Period {project_id: $p})
        RETURN collect(DISTINCT per.automatic IS NOT NULL) AS automatic
        """,
        {"p": project},
    )
    assert rows[0]["automatic"] == [False], "the declared chapter has vectors, no automatic one does"
