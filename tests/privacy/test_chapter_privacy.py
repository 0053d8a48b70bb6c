"""A chapter's name and existence come only from the entries a viewer may see (graph/periods.py), and a witness grant
answers the same for a chapter only hidden or deleted entries named as for one never named (graph/witnesses.py).

Chapters share one id per slug ("Oncología (Ward 7)" and "oncologia ward 7" are one chapter), so whoever wrote first
must not decide the spelling everyone else is shown.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import Services, create_app
from api.cli import main
from graph.db import Graph
from graph.entity_vectors import refresh_project
from graph.ids import period_id
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport

SECRET = "Oncología (Ward 7)"  # the private spelling, written first
PLAIN = "oncologia ward 7"  # the visible spelling of the same chapter


@pytest.fixture()
def api(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> Iterator[TestClient]:
    uncached = settings.model_copy(update={"search_cache_seconds": 0.0})
    with TestClient(create_app(Services(uncached, graph=graph, embedder=embedder))) as client:
        yield client


def _members(graph: Graph, project: str, prefix: str) -> dict[str, str]:
    users = {role: f"{prefix}{role}" for role in ("owner", "coauthor", "reader")}
    for role, user in users.items():
        set_member(graph, project, user, role)
    return users


def _entry(project: str, name: str, author: str, intimacy: str, period: str, text: str) -> dict[str, Any]:
    return {
        "entry_id": f"{project}/{name}",
        "project_id": project,
        "author": author,
        "intimacy": intimacy,
        "period": period,
        "occurred_on": "2019-03-02",
        "text": text,
    }


def test_a_chapter_is_shown_by_the_spellings_its_viewer_may_see(
    graph: Graph,
    embedder: CheckedEmbedder,
    api: TestClient,
    prefix: str,
    capsys: pytest.CaptureFixture[str],
    auth: Callable[[str], dict[str, str]],
    ingest: Callable[..., IngestReport],
) -> None:
    project = f"{prefix}p"
    users = _members(graph, project, prefix)
    assert not ingest(
        [
            _entry(
                project,
                "secret",
                users["coauthor"],
                "private",
                SECRET,
                "Quimioterapia en la planta siete, nadie lo sabe.",
            ),
            _entry(
                project, "seen", users["owner"], "circle", PLAIN, "Visitamos a la abuela en el hospital, planta siete."
            ),
        ]
    ).errors
    refresh_project(graph, project, embedder.slug)
    chapter = period_id(project, PLAIN)
    assert chapter == period_id(project, SECRET)
    reader = auth(users["reader"])

    periods = api.get(f"/v1/projects/{project}/periods", headers=reader).json()
    assert [(p["id"], p["name"], p["entries"]) for p in periods] == [(chapter, PLAIN, 1)]
    entry = api.get(f"/v1/entries/{project}/seen", headers=reader).json()
    assert entry["period"] == PLAIN and entry["read_only"]["period_id"] == chapter
    found = api.post("/v1/search", headers=reader, json={"q": "hospital planta siete", "project_id": project}).json()
    assert [r["periods"] for r in found["results"]] == [[{"id": chapter, "name": PLAIN}]]
    context = api.post(
        "/v1/context/chapter", headers=reader, json={"project_id": project, "theme": PLAIN, "budget_tokens": 400}
    ).json()
    assert [p["name"] for p in context["periods"]] == [PLAIN]
    similar = api.get(f"/v1/projects/{project}/analytics/similar", headers=reader, params={"entity": PLAIN})
    assert similar.status_code == 200 and similar.json()["entity"]["name"] == PLAIN
    assert main(["chapter", "--project", project, "--theme", PLAIN, "--as", users["reader"], "--draft", "--json"]) == 0
    drafted = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in drafted["context"]["periods"]] == [PLAIN]
    shown = json.dumps([periods, entry, found, context, similar.json(), drafted], ensure_ascii=False)
    assert "Oncolog" not in shown and "Ward" not in shown and "Quimioterapia" not in shown

    # Its author sees their own spelling too, as the smallest of what they may see.
    own = api.get(f"/v1/projects/{project}/periods", headers=auth(users["coauthor"])).json()
    assert [p["name"] for p in own] == [min(SECRET, PLAIN)]


def test_a_writer_cannot_tell_a_hidden_chapter_exists_by_writing_its_spelling(
    graph: Graph,
    api: TestClient,
    prefix: str,
    auth: Callable[[str], dict[str, str]],
    ingest: Callable[..., IngestReport],
) -> None:
    """A coauthor writes a probe with the slug of a chapter only the owner's private entry names: what they read
    back is exactly what they read in a project where that entry does not exist."""
    with_secret, without = f"{prefix}with", f"{prefix}without"
    views = []
    for project in (with_secret, without):
        users = _members(graph, project, prefix)
        if project == with_secret:
            assert not ingest(
                [_entry(project, "secret", users["owner"], "private", SECRET, "Diagnóstico en la planta siete.")]
            ).errors
        assert not ingest(
            [_entry(project, "probe", users["coauthor"], "private", "ONCOLOGIA  ward-7", "Una prueba cualquiera.")]
        ).errors
        headers = auth(users["coauthor"])
        periods = api.get(f"/v1/projects/{project}/periods", headers=headers).json()
        for p in periods:
            p.pop("summary", None)
        probe = api.get(f"/v1/entries/{project}/probe", headers=headers).json()
        views.append(
            json.loads(
                json.dumps([periods, probe["period"], probe["read_only"]["period_id"]]).replace(project, "<project>")
            )
        )
    assert views[0] == views[1]
    assert views[0][0][0]["name"] == "ONCOLOGIA  ward-7"


def test_a_grant_answers_alike_for_a_chapter_named_only_by_hidden_or_deleted_entries_and_for_one_never_named(
    graph: Graph,
    api: TestClient,
    prefix: str,
    auth: Callable[[str], dict[str, str]],
    ingest: Callable[..., IngestReport],
) -> None:
    project = f"{prefix}p"
    users = _members(graph, project, prefix)
    assert not ingest(
        [
            _entry(project, "hidden", users["coauthor"], "private", "Lo que nadie sabe", "Secreto."),
            _entry(project, "gone", users["owner"], "circle", "Un viaje borrado", "Se borrará."),
            _entry(project, "kept", users["coauthor"], "intimate", "Verano", "Un verano."),
        ]
    ).errors
    owner = auth(users["owner"])
    assert api.delete(f"/v1/entries/{project}/gone", headers=owner).status_code == 200

    def invite(body: dict[str, str]) -> tuple[int, Any]:
        resp = api.post(f"/v1/projects/{project}/witnesses", json=body, headers=owner)
        return resp.status_code, resp.json()

    never = invite({"period": "Jamás nombrado"})
    assert never[0] == 404
    assert invite({"period": "Lo que nadie sabe"}) == never
    assert invite({"period_id": period_id(project, "Lo que nadie sabe")}) == never
    assert invite({"period": "Un viaje borrado"}) == never
    assert invite({"period": "verano"})[0] == 201  # an intimate entry the owner may see names it


def test_a_witness_account_is_filed_under_a_name_the_members_may_see(
    graph: Graph,
    api: TestClient,
    prefix: str,
    auth: Callable[[str], dict[str, str]],
    ingest: Callable[..., IngestReport],
) -> None:
    project = f"{prefix}p"
    users = _members(graph, project, prefix)
    assert not ingest(
        [
            _entry(project, "secret", users["coauthor"], "private", SECRET, "Nadie lo sabe."),
            _entry(project, "seen", users["owner"], "circle", PLAIN, "La abuela en el hospital."),
        ]
    ).errors
    owner, reader = auth(users["owner"]), auth(users["reader"])
    made = api.post(f"/v1/projects/{project}/witnesses", json={"period_id": period_id(project, PLAIN)}, headers=owner)
    assert made.status_code == 201
    written = api.post(f"/v1/w/{made.json()['token']}/entries", json={"text": "Yo la cuidé aquellas noches."})
    assert written.status_code == 201
    account = api.get(f"/v1/entries/{written.json()['entry_id']}", headers=reader).json()
    assert account["period"] == PLAIN
    periods = api.get(f"/v1/projects/{project}/periods", headers=reader).json()
    assert [(p["name"], p["entries"]) for p in periods] == [(PLAIN, 2)]
