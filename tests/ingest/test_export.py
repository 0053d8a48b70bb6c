"""Export and import: a project leaves as JSON Lines and comes back the same, under another id too; an
export is never mistaken for entries; the HTTP export follows the owner's visibility, streamed."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import Services, create_app
from api.auth import issue
from api.cli import main
from graph.candidates import candidate_sources, list_candidates, reject_candidate
from graph.db import Graph
from graph.entities import list_entities, upsert_entity
from graph.entity_edits import find_for_edit, rename_entity
from graph.export import VERSION
from graph.ids import period_id, sha256
from graph.members import set_member, update_project
from graph.settings import Settings
from graph.visibility import Viewer
from graph.witnesses import create_grant
from inference.embedders import CheckedEmbedder
from ingest.records import LineError, parse_line
from ingest.relink import relink_project

CHAPTER = "Verano en Cádiz"
QUERIES = ("¿qué dijo papá del piso?", "la playa de Cádiz en verano", "la jefa", "persiana rota")


@pytest.fixture()
def world(graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Callable[..., Any]) -> dict[str, str]:
    """A project with every kind of fact an export must carry: roles, a southern hemisphere, declarations of every
    audience (one private to a coauthor), vague dates, metadata, a chapter, a conversation, a witness grant and its
    witness's account."""
    p = f"{prefix}exp"
    users = {role: f"{prefix}{role}" for role in ("owner", "coauthor", "reader")}
    for role, user in users.items():
        set_member(graph, p, user, role)
    update_project(graph, p, name="Familia Export", hemisphere="south")
    upsert_entity(graph, p, "person", "Josep", ["papá", "dad"], "circle", users["owner"])
    upsert_entity(graph, p, "place", "Cádiz", ["Cadiz"], "public", users["owner"])
    upsert_entity(graph, p, "person", "Marta", ["la jefa"], "private", users["coauthor"])
    upsert_entity(graph, p, "thing", "la persiana", [], "circle", users["coauthor"])
    o, c = users["owner"], users["coauthor"]
    rows: list[dict[str, Any]] = [
        {
            "entry_id": f"{p}/e1",
            "project_id": p,
            "author": o,
            "occurred_on": "2008-07",
            "period": CHAPTER,
            "text": "Papá dijo que el piso de Lavapiés era demasiado pequeño.",
            "tags": ["piso"],
            "mood": "gris",
        },
        {
            "entry_id": f"{p}/e2",
            "project_id": p,
            "author": o,
            "occurred_on": "2008",
            "intimacy": "intimate",
            "text": "La playa de Cádiz en verano, con papá.",
            "places": ["Cádiz"],
            "persons": ["Abuela Rosa"],
        },
        {
            "entry_id": f"{p}/e3",
            "project_id": p,
            "author": c,
            "occurred_on": "2008-06-21/2008-09-22",
            "intimacy": "private",
            "text": "La jefa no sabe que rompí la persiana de Ramiro Soto.",
            "weather": None,
        },
        {
            "entry_id": f"{p}/e4",
            "project_id": p,
            "author": o,
            "intimacy": "private",
            "kind": "chronicle",
            "title": "Secreto",
            "text": "Nadie sabe lo de la persiana rota.",
            "occurred_on": "2009-01-05",
        },
        {
            "entry_id": f"{p}/s1",
            "project_id": p,
            "author": o,
            "kind": "session",
            "occurred_at": "2024-05-01T10:00:00",
            "turn": 1,
            "text": "¿Te acuerdas del verano en Cádiz con Lola?",
        },
        {
            "entry_id": f"{p}/s2",
            "project_id": p,
            "author": c,
            "kind": "session",
            "occurred_at": "2024-05-01T10:00:00",
            "turn": 2,
            "text": "¡Sí, fue precioso!",
        },
    ]
    report = ingest(rows)
    assert not report.errors and report.written == len(rows)
    # A renamed entity keeps the id its first name gave it (clients may hold it): so must a restore.
    coauthor_view = Viewer(user_id=c)
    blind = find_for_edit(graph, p, coauthor_view, "thing", "la persiana")
    assert blind is not None
    rename_entity(graph, p, blind, coauthor_view, "la persiana del salón", None)
    relink_project(graph, embedder, p, embed=True)
    grant = create_grant(graph, p, period_id(p, CHAPTER), users["owner"], timedelta(days=30), "la abuela")
    assert grant is not None
    report = ingest(
        [
            {
                "entry_id": f"{p}/w1",
                "project_id": p,
                "author": f"witness:{grant}",
                "kind": "witness",
                "period": CHAPTER,
                "text": "Yo estuve allí: papá cocinaba cada noche.",
                "occurred_on": "2008-08",
            }
        ]
    )
    assert not report.errors and report.written == 1
    # Rejected candidates are a writer's decision too: the owner's (circle) and the coauthor's (private, a name only
    # the coauthor's private entry holds).
    for user, name in ((o, "Lola"), (c, "Ramiro Soto")):
        seen = candidate_sources(graph, p, Viewer(user_id=user), name, None)
        assert seen is not None, f"spaCy no longer spots {name!r}: pick another candidate"
        reject_candidate(graph, p, seen, user)
    return {"project": p, "grant": grant, **users}


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _as(text: str, source: str, target: str, grant: str) -> str:
    """An export of `source` as the same export of `target` would read (ids carry their project; a copy's grants
    get fresh ids, while a witness's account keeps naming the grant it was written through)."""
    return (
        text.replace(f'"{source}"', f'"{target}"')
        .replace(f'"{source}/', f'"{target}/')
        .replace(f'"id":"{grant}"', f'"id":"{sha256(target, grant)[:16]}"')
    )


def _candidates(graph: Graph, project: str, user: str | None) -> list[tuple[str, str, int]]:
    """What `user` (None: the operator) is offered as candidate names, rejected ones left out."""
    viewer = None if user is None else Viewer(user_id=user)
    return [(c.name, c.kind, c.mentions) for c in list_candidates(graph, project, viewer)]


def _search_ids(client: TestClient, user: str, settings: Settings, project: str) -> list[list[str]]:
    headers = {"Authorization": f"Bearer {issue(settings, user)}"}
    out = []
    for q in QUERIES:
        resp = client.post("/v1/search", headers=headers, json={"q": q, "project_id": project, "k": 10})
        assert resp.status_code == 200, resp.text
        out.append([r["entry_id"].split("/", 1)[1] for r in resp.json()["results"]])
    return out


def test_export_import_export_is_identical_and_searches_agree(
    world: dict[str, str],
    prefix: str,
    tmp_path: Path,
    settings: Settings,
    graph: Graph,
    embedder: CheckedEmbedder,
    capsys: pytest.CaptureFixture[str],
) -> None:
    p, copy = world["project"], f"{prefix}copy"
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    code, _, err = _run(capsys, "export", "--project", p, "--out", str(first))
    assert code == 0, err
    assert f"exported {p}: 7 entries" in err
    assert stat.S_IMODE(first.stat().st_mode) == 0o600, "an operator's export holds private entries"
    text = first.read_text(encoding="utf-8")
    records = _records(text)
    head, *_, end = records
    assert head == {
        "memora_record": "project",
        "format": "memora-export",
        "version": VERSION,
        "project_id": p,
        "name": "Familia Export",
        "hemisphere": "south",
    }
    assert end == {"memora_record": "end", "entries": 7}
    by_type: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        by_type.setdefault(r.get("memora_record", "entry"), []).append(r)
    assert {(m["user_id"], m["role"]) for m in by_type["member"]} == {
        (world[r], r) for r in ("owner", "coauthor", "reader")
    }
    decl = {d["name"]: d for d in by_type["declaration"]}
    assert decl["Marta"]["audience"] == "private" and decl["Marta"]["author"] == world["coauthor"]
    assert decl["Josep"]["aliases"] == ["papá", "dad"] and decl["Cádiz"]["audience"] == "public"
    assert {"Abuela Rosa", "Josep", "Cádiz", "Marta"} <= {e["name"] for e in by_type["entity"]}
    assert {(d["name"], d["audience"], d["author"]) for d in by_type["dismissal"]} == {
        ("Lola", "circle", world["owner"]),
        ("Ramiro Soto", "private", world["coauthor"]),
    }
    [grant] = by_type["witness_grant"]
    assert grant["id"] == world["grant"] and grant["period"] == CHAPTER and grant["label"] == "la abuela"
    entries = {e["entry_id"].split("/", 1)[1]: e for e in by_type["entry"]}
    assert set(entries) == {"e1", "e2", "e3", "e4", "s1", "s2", "w1"}, "the operator's export holds everything"
    assert entries["e1"]["occurred_on"] == "2008-07" and entries["e1"]["mood"] == "gris"
    assert entries["e1"]["period"] == CHAPTER and entries["e1"]["tags"] == ["piso"]
    assert entries["e2"]["occurred_on"] == "2008" and entries["e2"]["persons"] == ["Abuela Rosa"]
    assert entries["e3"]["occurred_on"] == "2008-06-21/2008-09-22" and entries["e3"]["weather"] is None
    assert entries["s2"]["turn"] == 2 and entries["s2"]["occurred_at"] == "2024-05-01T10:00:00"
    assert entries["e4"]["title"] == "Secreto" and entries["e4"]["kind"] == "chronicle"

    code, out, err = _run(capsys, "import", str(first), "--as-project", copy)
    assert code == 0, err
    assert f"imported {copy}" in out and "entries written 7" in out
    assert _run(capsys, "export", "--project", copy, "--out", str(second))[0] == 0
    assert second.read_text(encoding="utf-8") == _as(text, p, copy, world["grant"])
    ids = {(e.kind, e.name): e.id for e in list_entities(graph, [p])}
    assert ids[("thing", "la persiana del salón")] == f"{p}/thing/la-persiana", "renamed, the id stays"
    assert {k: v.replace(p, copy, 1) for k, v in ids.items()} == {
        (e.kind, e.name): e.id for e in list_entities(graph, [copy])
    }, "the copy's entities have the same ids"
    # A rejected name stays rejected in the copy, for whoever may see the rejection (nobody is offered it again).
    for user in (None, world["owner"], world["coauthor"], world["reader"]):
        offered = _candidates(graph, copy, user)
        assert offered == _candidates(graph, p, user), user
        assert not {"Lola", "Ramiro Soto"} & {name for name, _, _ in offered}, user

    # The copy answers every viewer as the original does (dates, links, chapter, conversation context, privacy).
    with TestClient(create_app(Services(settings, graph=graph, embedder=embedder))) as client:
        for role in ("owner", "coauthor", "reader"):
            assert _search_ids(client, world[role], settings, p) == _search_ids(client, world[role], settings, copy)
        hidden = client.get(
            f"/v1/entries/{copy}/e3", headers={"Authorization": f"Bearer {issue(settings, world['owner'])}"}
        )
        assert hidden.status_code == 404, "a coauthor's private entry stays private in the copy"


def test_import_refuses_an_existing_project_and_merges_on_request(
    world: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.jsonl"
    assert _run(capsys, "export", "--project", world["project"], "--out", str(path))[0] == 0
    code, _, err = _run(capsys, "import", str(path))
    assert code == 2 and "already exists" in err and "--as-project" in err
    code, out, err = _run(capsys, "import", str(path), "--into-existing", "--json")
    assert code == 0, err
    assert json.loads(out)["written"] == 0 and json.loads(out)["unchanged"] == 7, "the same content, nothing rewritten"
    assert _run(capsys, "export", "--project", world["project"], "--out", str(path))[0] == 2, "no silent overwrite"


def test_an_export_is_not_entries_and_a_cut_export_is_refused(
    world: dict[str, str], tmp_path: Path, prefix: str, graph: Graph, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.jsonl"
    assert _run(capsys, "export", "--project", world["project"], "--out", str(path))[0] == 0
    code, _, err = _run(capsys, "ingest", str(path))
    assert code == 2 and "memora import" in err
    member_line = next(line for line in path.read_text().splitlines() if '"member"' in line)
    bad = parse_line(2, member_line)
    assert isinstance(bad, LineError) and "memora import" in bad.reason

    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(path.read_text().splitlines()[:-2]) + "\n")
    code, _, err = _run(capsys, "import", str(cut), "--as-project", f"{prefix}cut")
    assert code == 2 and "cut short" in err
    entries_only = tmp_path / "entries.jsonl"
    entries_only.write_text(path.read_text().splitlines()[-2] + "\n")
    code, _, err = _run(capsys, "import", str(entries_only), "--as-project", f"{prefix}cut")
    assert code == 2 and "memora ingest" in err
    code, _, err = _run(capsys, "import", str(path), "--as-project", "a/b")
    assert code == 2 and "not a valid project id" in err
    # An entity id of another project would make the import write into that project's node: refused.
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text(path.read_text().replace(f'"id":"{world["project"]}/thing/', '"id":"elsewhere/thing/'))
    code, _, err = _run(capsys, "import", str(foreign), "--as-project", f"{prefix}cut")
    assert code == 2 and "'elsewhere/thing/la-persiana' is not a thing of project" in err, err
    assert not graph.read("MATCH (p:Project) WHERE p.id STARTS WITH $p RETURN p", {"p": f"{prefix}cut"})


def test_the_http_export_is_the_owners_view_streamed(
    world: dict[str, str],
    prefix: str,
    tmp_path: Path,
    settings: Settings,
    graph: Graph,
    embedder: CheckedEmbedder,
    capsys: pytest.CaptureFixture[str],
) -> None:
    p = world["project"]

    def h(user: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {issue(settings, user)}"}

    with TestClient(create_app(Services(settings, graph=graph, embedder=embedder))) as client:
        for user in ("coauthor", "reader"):
            resp = client.get(f"/v1/projects/{p}/export", headers=h(world[user]))
            assert resp.status_code == 403, resp.text
            assert "owner" in resp.json()["detail"] and "export" in resp.json()["detail"], "the reason says why"
        assert client.get(f"/v1/projects/{p}/export", headers=h(f"{prefix}stranger")).status_code == 403
        assert client.get(f"/v1/projects/{prefix}none/export", headers=h(world["owner"])).status_code == 403
        assert client.get(f"/v1/projects/{p}/export").status_code == 401
        resp = client.get(f"/v1/projects/{p}/export", headers=h(world["owner"]))
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("application/x-ndjson")
        body = resp.text
    records = _records(body)
    ids = {r["entry_id"].split("/", 1)[1] for r in records if "memora_record" not in r}
    assert ids == {"e1", "e2", "e4", "s1", "s2", "w1"}, "the owner's own private entry, not a coauthor's"
    assert records[-1] == {"memora_record": "end", "entries": 6}
    assert "la jefa" not in body.lower() and "Marta" not in body, "a coauthor's private alias never leaves"
    assert "rompí la persiana" not in body
    assert [(r["name"], r["audience"]) for r in records if r.get("memora_record") == "dismissal"] == [
        ("Lola", "circle")
    ], "the owner's rejection, not the coauthor's private one"
    assert "Ramiro" not in body

    # What the owner took away restores: the owner's searches in the copy give the same entries.
    path, copy = tmp_path / "owner.jsonl", f"{prefix}owned"
    path.write_text(body, encoding="utf-8")
    code, _, err = _run(capsys, "import", str(path), "--as-project", copy)
    assert code == 0, err
    with TestClient(create_app(Services(settings, graph=graph, embedder=embedder))) as client:
        assert _search_ids(client, world["owner"], settings, p) == _search_ids(client, world["owner"], settings, copy)
