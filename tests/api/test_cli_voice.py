"""One CLI voice: readable text by default, the API's JSON (same keys) under --json, and the options the API has
(`entity with --limit --kind`, and `kind` on the co-occurrence route)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import auth
from api.app import Services, create_app
from api.cli import main
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_entity_with_honours_kind_and_limit_like_the_api(
    capsys: pytest.CaptureFixture[str],
    prefix: str,
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    ingest: Callable[..., Any],
) -> None:
    p, ana = f"{prefix}v", f"{prefix}ana"
    set_member(graph, p, ana, "owner")
    ingest(
        [
            {
                "entry_id": f"{p}/e{i}",
                "project_id": p,
                "author": ana,
                "text": f"Día {i} con Pep.",
                "persons": ["Pep", *(["Marta"] if i < 3 else []), *(["Lola"] if i < 1 else [])],
                "places": ["Berlín"] if i < 2 else [],
            }
            for i in range(4)
        ]
    )
    code, out, _ = _run(capsys, "entity", "with", "--project", p, "--name", "Pep", "--as", ana, "--json")
    assert code == 0 and [c["name"] for c in json.loads(out)["with"]] == ["Marta", "Berlín", "Lola"]
    code, out, _ = _run(
        capsys,
        "entity",
        "with",
        "--project",
        p,
        "--name",
        "Pep",
        "--as",
        ana,
        "--kind",
        "person",
        "--limit",
        "1",
        "--json",
    )
    body = json.loads(out)
    assert code == 0 and [(c["name"], c["together"]) for c in body["with"]] == [("Marta", 3)]
    with TestClient(create_app(Services(settings, graph=graph, embedder=embedder))) as client:
        api = client.get(
            f"/v1/projects/{p}/analytics/cooccurrence",
            params={"entity": "Pep", "kind": "person", "limit": 1},
            headers={"Authorization": f"Bearer {auth.issue(settings, ana)}"},
        ).json()
    assert api == body, "the CLI prints exactly the API's body"
    code, out, _ = _run(capsys, "entity", "with", "--project", p, "--name", "Pep", "--as", ana, "--kind", "place")
    assert code == 0 and "Berlín" in out and "Marta" not in out and not out.lstrip().startswith("{")
    code, _, err = _run(capsys, "entity", "with", "--project", p, "--name", "Pep", "--as", ana, "--limit", "0")
    assert code == 2 and "--limit: 0 is not within 1..100" in err and "Traceback" not in err


@pytest.mark.neo4j  # `memora migrate` connects before the failure it provokes
def test_an_unexpected_failure_is_one_line_without_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug must not print a stack trace at a user (it may hold entry text); -v keeps the trace for whoever debugs."""

    def boom(*_: object) -> None:
        raise ValueError("the secret entry text\nsecond line")

    monkeypatch.setattr("graph.schema.migrate", boom)
    code, out, err = _run(capsys, "migrate")
    assert code == 1 and "Traceback" not in err and err.count("\n") == 1
    assert err.startswith("memora: unexpected error: ValueError: the secret entry text second line")
    with pytest.raises(ValueError):
        main(["-v", "migrate"])


def test_understand_names_a_missing_project_and_search_refuses_unknown_channels(
    capsys: pytest.CaptureFixture[str], prefix: str
) -> None:
    from queries.search.channel_set import asked

    code, out, err = _run(capsys, "understand", "el verano pasado", "--project", f"{prefix}nope")
    assert code == 2 and f"no such project: {prefix}nope" in err and out == ""
    with pytest.raises(ValueError, match="unknown channels \\['bogus'\\]"):
        asked(("dense", "bogus"))


def test_a_project_a_file_created_without_owner_is_named_with_its_repair(
    capsys: pytest.CaptureFixture[str], prefix: str, graph: Graph, tmp_path: Any
) -> None:
    """`memora ingest` may create a project (files name their project); without --owner nobody owns it, so the CLI
    says so and how to repair it, and `member list` does not call an existing project missing."""
    p, ana = f"{prefix}orphan", f"{prefix}ana"
    path = tmp_path / "e.jsonl"
    path.write_text(
        json.dumps({"entry_id": f"{p}/e1", "project_id": p, "author": ana, "text": "Hola."}) + "\n", encoding="utf-8"
    )
    code, _, err = _run(capsys, "ingest", str(path))
    assert code == 0 and f"note: {p} has no owner" in err and f"--project {p} --user USER --role owner" in err
    code, out, err = _run(capsys, "member", "list", "--project", p, "--json")
    assert code == 0 and json.loads(out) == [] and f"{p} has no members" in err and "no such project" not in err
    code, _, err = _run(capsys, "member", "list", "--project", f"{prefix}never")
    assert code == 2 and f"no such project: {prefix}never" in err
    code, _, _ = _run(capsys, "member", "add", "--project", p, "--user", ana, "--role", "owner")
    assert code == 0
    code, _, err = _run(capsys, "ingest", str(path))
    assert code == 0 and "has no owner" not in err


def test_entries_lists_a_conversation_turn_under_its_day(
    capsys: pytest.CaptureFixture[str], prefix: str, graph: Graph, ingest: Callable[..., Any]
) -> None:
    """A turn dated only by `occurred_at` is sorted by its day; the text listing shows that day, not "undated"."""
    p, ana = f"{prefix}talk", f"{prefix}ana"
    set_member(graph, p, ana, "owner")
    ingest(
        [
            {
                "entry_id": f"{p}/t{i}",
                "project_id": p,
                "author": ana,
                "kind": "session",
                "turn": i,
                "occurred_at": "2024-05-01T10:00:00Z",
                "text": f"Turno {i}.",
            }
            for i in range(2)
        ]
        + [
            {"entry_id": f"{p}/none", "project_id": p, "author": ana, "text": "Sin fecha."},
            {"entry_id": f"{p}/vague", "project_id": p, "author": ana, "text": "Agosto.", "occurred_on": "2019-08"},
        ]
    )
    code, out, _ = _run(capsys, "entries", "--project", p, "--as", ana, "--sort", "asc")
    rows = [line.split()[:2] for line in out.strip().splitlines()]
    assert code == 0 and rows == [
        ["2019-08", f"{p}/vague"],
        ["2024-05-01", f"{p}/t0"],
        ["2024-05-01", f"{p}/t1"],
        ["undated", f"{p}/none"],
    ]
    code, _, err = _run(capsys, "entries", "--project", p, "--as", ana, "--limit", "0")
    assert code == 2 and err.splitlines()[-1].endswith("argument --limit: 0 is not within 1..100"), "not 100 choices"
