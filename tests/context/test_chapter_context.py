"""Chapter context and drafts on the real Neo4j: the bundle stays within its token budget, cites only entries its
caller may see, picks periods by id, name or summary, and the language-model paths (summaries and drafts) work and
fall back against a local fake chat server."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.cli import main
from graph.db import Graph
from graph.entries import get_visible_entry
from graph.ids import period_id
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from inference.providers.llm import ChatClient
from ingest.summary_jobs import Summaries
from queries.context.chapter import chapter_context, draft
from queries.context.tokens import counter_for
from tests.fake_llm import fake_llm
from tests.summary_world import BERLIN, CADIZ, MARKERS, build, hidden_markers


@pytest.fixture()
def world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, Any]:
    return build(graph, prefix, ingest)


def _as(world: dict[str, Any], key: str) -> Viewer:
    return Viewer(user_id=world["users"][key])


def _text(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False)


def test_the_bundle_never_exceeds_its_budget_and_cites_only_visible_entries(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, world: dict[str, Any]
) -> None:
    count, tokenizer = counter_for(embedder)
    assert tokenizer.startswith("tokenizer:")  # the embedder's own tokenizer, not the approximation
    summaries = Summaries(graph, embedder)
    for key in ("reader", "coauthor"):
        viewer = _as(world, key)
        for budget in (1, 7, 30, 90, 250, 4000):
            ctx = chapter_context(
                graph, embedder, settings, summaries, viewer, world["project"], "los veranos en Cádiz", budget
            )
            recount = (
                count(ctx.project["summary"])
                + sum(count(p["summary"]) for p in ctx.periods)
                + sum(count(e["text"]) for e in ctx.entries)
            )
            assert ctx.used_tokens == recount <= budget, (key, budget, ctx.used_tokens)
            leaked = [m for m in hidden_markers(key) if m in _text(ctx.as_dict())]
            assert not leaked, (key, budget, leaked)
            for e in ctx.entries:
                assert get_visible_entry(graph, viewer, e["entry_id"]) is not None
            assert [e["citation"] for e in ctx.entries] == [f"E{i}" for i in range(1, len(ctx.entries) + 1)]
            dates = [e["occurred_on"] for e in ctx.entries]
            assert dates == sorted(dates)
        assert ctx.entries, "a large budget holds entries"


def test_periods_are_matched_by_id_by_name_and_by_summary(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, world: dict[str, Any]
) -> None:
    summaries = Summaries(graph, embedder)
    reader = _as(world, "reader")
    berlin = period_id(world["project"], BERLIN)
    by_id = chapter_context(graph, embedder, settings, summaries, reader, world["project"], berlin, 2000)
    assert [p["id"] for p in by_id.periods] == [berlin]
    assert {e["entry_id"].rsplit("/", 1)[-1] for e in by_id.entries} == {"b1", "b3"}
    assert by_id.periods[0]["start"] == "2009-01-10" and by_id.periods[0]["end"] == "2009-03-03"
    by_name = chapter_context(graph, embedder, settings, summaries, reader, world["project"], "toda la era Cádiz", 2000)
    assert [p["name"] for p in by_name.periods] == [CADIZ]
    by_meaning = chapter_context(
        graph,
        embedder,
        settings,
        summaries,
        reader,
        world["project"],
        "nieve, un piso con estufa de hierro y salchichas en la estación",
        2000,
    )
    assert by_meaning.periods and by_meaning.periods[0]["name"] == BERLIN


def test_the_outline_draft_cites_only_the_bundle(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, world: dict[str, Any]
) -> None:
    ctx = chapter_context(
        graph, embedder, settings, Summaries(graph, embedder), _as(world, "reader"), world["project"], "Cádiz", 2000
    )
    result = draft(ctx, "Cádiz", None)
    assert result.producer == "outline"
    assert set(result.citations.values()) == {e["entry_id"] for e in ctx.entries}
    assert all(f"[{c}]" in result.text for c in result.citations)
    assert result.text.index("2008-07-02") < result.text.index("2008-07-15")


def test_the_bundle_carries_each_periods_events_with_their_entries_and_the_outline_tells_them(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, world: dict[str, Any]
) -> None:
    summaries = Summaries(graph, embedder)
    viewer = _as(world, "owner")
    ctx = chapter_context(graph, embedder, settings, summaries, viewer, world["project"], "Cádiz", 4000)
    assert ctx.periods, ctx.warnings
    period = ctx.periods[0]
    stored = summaries.for_viewer(viewer, world["project"], period["id"])
    assert stored is not None and period["events"], period
    assert [e["text"] for e in period["events"]] == stored["text"].splitlines()[: len(period["events"])]
    assert [e["entry_id"] for e in period["events"]] == stored["cites"][: len(period["events"])]
    markers = {e["entry_id"]: e["citation"] for e in ctx.entries}
    assert all(e["citation"] == markers.get(e["entry_id"]) for e in period["events"])
    text = draft(ctx, "Cádiz", None).text
    for event in period["events"]:
        assert event["text"] in text, "the outline tells every event of the period"
        if event["citation"]:
            assert f"{event['text']} [{event['citation']}]" in text
    starts = [p["start"] or "" for p in ctx.periods]
    assert starts == sorted(starts), "periods in date order"


def test_an_llm_draft_loses_every_citation_outside_the_bundle(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, world: dict[str, Any]
) -> None:
    ctx = chapter_context(
        graph, embedder, settings, Summaries(graph, embedder), _as(world, "reader"), world["project"], "Cádiz", 2000
    )
    with fake_llm(lambda messages: "Llegamos a Cádiz [E1] y Marta nadó [E2]; papá lloró [E9] [E99].") as fake:
        result = draft(ctx, "Cádiz", ChatClient(fake.url, "fake-model"))
        prompt = fake.last_prompt()
    assert result.producer == "llm:fake-model"
    assert "[E9]" not in result.text and "[E99]" not in result.text and "[E1]" in result.text
    assert set(result.citations) <= {e["citation"] for e in ctx.entries}
    assert not [m for m in hidden_markers("reader") if m in prompt], "the model was shown a hidden entry"
    with fake_llm() as fake:
        fake.status = 503
        failed = draft(ctx, "Cádiz", ChatClient(fake.url, "fake-model"))
    assert failed.producer == "outline" and "HTTP 503" in (failed.fallback_reason or "")


def test_abstractive_summaries_record_their_producer_and_fall_back_to_extractive(
    graph: Graph, embedder: CheckedEmbedder, world: dict[str, Any]
) -> None:
    cadiz = period_id(world["project"], CADIZ)
    with fake_llm(lambda messages: "En julio de 2008 Marta aprendió a nadar en la Caleta, en Cádiz.") as fake:
        summaries = Summaries(graph, embedder, ChatClient(fake.url, "fake-model"))
        report = summaries.refresh(world["project"])
        prompts = [("\n".join(m["content"] for m in r["messages"])) for r in fake.requests]
    assert report.abstractive == report.built > 0
    reader = Summaries(graph, embedder).for_viewer(_as(world, "reader"), world["project"], cadiz)
    assert reader is not None and reader["producer"] == "llm:fake-model" and "Caleta" in reader["text"]
    # Each prompt holds only its variant's entries: the shared circle variants never saw an intimate entry.
    circle_prompts = [p for p in prompts if MARKERS["c1"] in p and MARKERS["c3"] not in p]
    assert circle_prompts and not [p for p in circle_prompts if MARKERS["c5"] in p and MARKERS["c4"] in p]

    with fake_llm() as fake:
        fake.status = 500
        summaries = Summaries(graph, embedder, ChatClient(fake.url, "fake-model"))
        graph.write("MATCH (s:Summary {project_id: $p}) SET s.stale = true", {"p": world["project"]})
        report = summaries.refresh_stale(world["project"])
    assert report.built > 0 and report.abstractive == 0 and len(report.fallbacks) == report.built
    reader = Summaries(graph, embedder).for_viewer(_as(world, "reader"), world["project"], cadiz)
    assert reader is not None and reader["producer"] == "extractive"
    assert "HTTP 500" in (reader["fallback_reason"] or "") and MARKERS["c1"] in reader["text"]


def test_the_http_routes_answer_with_the_callers_variant(
    client: TestClient, auth: Callable[[str], dict[str, str]], world: dict[str, Any]
) -> None:
    p, u = world["project"], world["users"]
    summary = client.get(f"/v1/projects/{p}/summary", headers=auth(u["reader"]))
    assert summary.status_code == 200, summary.text
    assert summary.json()["audience"] == f"circle+own:{u['reader']}" and summary.json()["level"] == 2
    periods = client.get(f"/v1/projects/{p}/periods", headers=auth(u["coauthor"])).json()
    assert [(x["name"], x["automatic"]) for x in periods] == [(CADIZ, False), (BERLIN, False), ("2010-05", True)]
    reader_periods = client.get(f"/v1/projects/{p}/periods", headers=auth(u["reader"])).json()
    assert "2010-05" not in [x["name"] for x in reader_periods], "an automatic chapter of hidden entries is absent"
    assert all(x["summary"]["level"] == 1 for x in periods)
    assert not [m for m in hidden_markers("coauthor") if m in _text({"p": periods})]
    assert client.get(f"/v1/projects/{p}/summary", headers=auth(world["outsider"])).status_code == 403
    body = {"project_id": p, "theme": "Cádiz", "budget_tokens": 120}
    ctx = client.post("/v1/context/chapter", json=body, headers=auth(u["reader"]))
    assert ctx.status_code == 200, ctx.text
    assert ctx.json()["used_tokens"] <= 120 and not [m for m in hidden_markers("reader") if m in ctx.text]
    assert client.post("/v1/context/chapter", json=body, headers=auth(world["outsider"])).status_code == 403
    assert (
        client.post(
            "/v1/context/chapter", json={**body, "budget_tokens": 0}, headers=auth(world["outsider"])
        ).status_code
        == 422
    )  # the body is checked first
    drafted = client.post("/v1/chapters/draft", json={**body, "budget_tokens": 2000}, headers=auth(u["reader"]))
    assert drafted.status_code == 200, drafted.text
    assert drafted.json()["producer"] == "outline"
    cited = set(drafted.json()["citations"].values())
    assert cited and cited <= {e["entry_id"] for e in drafted.json()["context"]["entries"]}


def test_the_commands_print_the_same_bodies(world: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    p, u = world["project"], world["users"]
    assert main(["summaries", "refresh", "--project", p, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["built"] == 13
    assert main(["summary", "--project", p, "--period", BERLIN, "--as", u["reader"], "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["audience"] == "circle" and MARKERS["b1"] in body["text"] and MARKERS["b2"] not in body["text"]
    assert main(["chapter", "--project", p, "--theme", "Berlín", "--budget", "300", "--as", u["reader"], "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["used_tokens"] <= 300 and body["periods"][0]["name"] == BERLIN
    assert main(["chapter", "--project", p, "--theme", "Berlín", "--as", world["outsider"], "--json"]) == 4
    assert "not a member" in capsys.readouterr().err
    assert main(["summary", "--project", p, "--period", "Nowhere", "--as", u["reader"]]) == 2
    assert main(["summary", "--project", p, "--period", BERLIN, "--as", world["outsider"]]) == 4
