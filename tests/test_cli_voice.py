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
from ingest.embedders import CheckedEmbedder


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_entity_with_honours_kind_and_limit_like_the_api(capsys: pytest.CaptureFixture[str], prefix: str,
                                                          graph: Graph, embedder: CheckedEmbedder,
                                                          settings: Settings, ingest: Callable[..., Any]) -> None:
    p, ana = f"{prefix}v", f"{prefix}ana"
    set_member(graph, p, ana, "owner")
    ingest([{"entry_id": f"{p}/e{i}", "project_id": p, "author": ana, "text": f"Día {i} con Pep.",
             "persons": ["Pep", *(["Marta"] if i < 3 else []), *(["Lola"] if i < 1 else [])],
             "places": ["Berlín"] if i < 2 else []} for i in range(4)])
    code, out, _ = _run(capsys, "entity", "with", "--project", p, "--name", "Pep", "--as", ana, "--json")
    assert code == 0 and [c["name"] for c in json.loads(out)["with"]] == ["Marta", "Berlín", "Lola"]
    code, out, _ = _run(capsys, "entity", "with", "--project", p, "--name", "Pep", "--as", ana, "--kind", "person",
                        "--limit", "1", "--json")
    body = json.loads(out)
    assert code == 0 and [(c["name"], c["together"]) for c in body["with"]] == [("Marta", 3)]
    with TestClient(create_app(Services(settings, graph=graph, embedder=embedder))) as client:
        api = client.get(f"/v1/projects/{p}/analytics/cooccurrence", params={"entity": "Pep", "kind": "person",
                                                                           "limit": 1},
                         headers={"Authorization": f"Bearer {auth.issue(settings, ana)}"}).json()
    assert api == body, "the CLI prints exactly the API's body"
    code, out, _ = _run(capsys, "entity", "with", "--project", p, "--name", "Pep", "--as", ana, "--kind", "place")
    assert code == 0 and "Berlín" in out and "Marta" not in out and not out.lstrip().startswith("{")
    code, _, err = _run(capsys, "entity", "with", "--project", p, "--name", "Pep", "--as", ana, "--limit", "0")
    assert code == 2 and "--limit: 0 is not within 1..100" in err and "Traceback" not in err


def test_an_unexpected_failure_is_one_line_without_a_traceback(capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
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
        capsys: pytest.CaptureFixture[str], prefix: str) -> None:
    from queries.search import SearchOptions

    code, out, err = _run(capsys, "understand", "el verano pasado", "--project", f"{prefix}nope")
    assert code == 2 and f"no such project: {prefix}nope" in err and out == ""
    with pytest.raises(ValueError, match="unknown channels \\['bogus'\\]"):
        SearchOptions(channels=("dense", "bogus"))
