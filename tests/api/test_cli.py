"""The `memora` command line runs the same code paths as the API: ingest with per-line errors, search as a user
(its JSON is the API's body), tokens the API accepts, membership and entity management."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api import auth
from api.cli import main
from graph.settings import Settings


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_ingest_search_and_manage_from_the_command_line(
    tmp_path: Path, prefix: str, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    project, ana, lola = f"{prefix}cli", f"{prefix}ana", f"{prefix}lola"
    lines = [
        {
            "entry_id": f"{project}/e1",
            "project_id": project,
            "author": ana,
            "intimacy": "circle",
            "text": "Papá arregló la persiana del piso de Lavapiés.",
        },
        {
            "entry_id": f"{project}/e2",
            "project_id": project,
            "author": ana,
            "intimacy": "private",
            "text": "Secreto: la persiana la rompí yo.",
        },
    ]
    path = tmp_path / "entries.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in lines) + "\n{not json\n", encoding="utf-8")

    code, out, err = _run(
        capsys,
        "entity",
        "add",
        "--project",
        project,
        "--kind",
        "person",
        "--name",
        "Josep",
        "--alias",
        "papá",
        "--json",
    )
    assert code == 0 and json.loads(out)["aliases"] == ["papá"]
    code, out, err = _run(capsys, "ingest", str(path), "--owner", ana)
    assert code == 3, "a bad line makes the exit code non-zero"
    assert "written 2" in out and "line 3: invalid JSON" in out
    assert _run(capsys, "member", "add", "--project", project, "--user", lola, "--role", "reader")[0] == 0

    code, out, _ = _run(capsys, "search", "persiana", "--project", project, "--as", lola, "--json")
    body = json.loads(out)
    assert code == 0 and [r["entry_id"] for r in body["results"]] == [f"{project}/e1"]
    assert body["total_candidates"] == 1 and "persons" in body["results"][0]
    assert body["results"][0]["persons"] == ["Josep"]
    code, out, _ = _run(capsys, "search", "persiana", "--project", project, "--as", ana, "--json")
    assert {r["entry_id"] for r in json.loads(out)["results"]} == {f"{project}/e1", f"{project}/e2"}

    code, _, err = _run(capsys, "search", "persiana", "--project", project, "--as", f"{prefix}nobody")
    assert code == 4 and "not a member" in err

    code, out, _ = _run(capsys, "token", lola)
    assert code == 0 and auth.verify(settings, out.strip()) == lola
    code, out, _ = _run(
        capsys, "understand", "qué dijo papá el verano pasado", "--project", project, "--now", "2026-11-30", "--json"
    )
    parsed = json.loads(out)
    assert parsed["persons"] == [{"id": f"{project}/person/josep", "name": "Josep"}]
    assert parsed["temporal"]["start"] == "2026-06-21"
    code, out, _ = _run(capsys, "entity", "timeline", "--project", project, "--name", "papá", "--as", lola, "--json")
    assert code == 0 and json.loads(out)["years"] == [], "the entries naming Josep are undated"
    assert json.loads(out)["entity"]["name"] == "Josep", "the same keys as the API's TimelineOut"
    code, out, _ = _run(capsys, "entity", "timeline", "--project", project, "--name", "papá", "--as", lola)
    assert code == 0 and out.splitlines()[0] == "entity:" and "Josep" in out and "years" in out
    code, _, err = _run(capsys, "entity", "with", "--project", project, "--name", "papá")
    assert code == 2 and "--as" in err
    code, out, _ = _run(capsys, "entity", "top", "--project", project, "--as", lola, "--json")
    assert code == 0 and [r["name"] for r in json.loads(out)] == ["Josep"]
    code, out, _ = _run(capsys, "entity", "top", "--project", project, "--as", lola)
    assert code == 0 and out.split()[:2] == ["id", "name"] and "Josep" in out, "a table by default"
    code, out, _ = _run(capsys, "embeddings", "status", "--json")
    status = json.loads(out)
    assert code == 0 and set(status) >= {"model", "pending", "done", "failed"}


def test_a_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(capsys, "ingest", str(tmp_path / "nope.jsonl"))
    assert code == 2 and "no such file" in err


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """A user mistake caught by the parser: exit 2 and a message on stderr, no traceback."""
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "Traceback" not in err
    return err


def test_user_mistakes_are_clear_errors(capsys: pytest.CaptureFixture[str], prefix: str) -> None:
    assert "not a date: '2023-13-01'" in _usage_error(capsys, "search", "x", "--as", "u", "--from", "2023-13-01")
    assert "not a date" in _usage_error(capsys, "search", "x", "--as", "u", "--to", "ayer")
    err = _usage_error(capsys, "search", "x", "--as", "u", "--channels", "dense,bogus")
    assert "'bogus'" in err and "dense, fulltext, structured" in err
    err = _usage_error(capsys, "eval", "--entries", "e.jsonl", "--queries", "q.jsonl", "--channels", "dense,bogus")
    assert "'bogus'" in err and "dense, fulltext, structured" in err
    assert "1 to 100" in _usage_error(capsys, "search", "x", "--as", "u", "--k", "0")
    assert "not a date" in _usage_error(capsys, "understand", "en verano", "--now", "2026-02-30")
    code, _, err = _run(capsys, "search", "x", "--as", f"{prefix}u", "--from", "2024-01-02", "--to", "2024-01-01")
    assert code == 2 and "--to is before --from" in err
    code, out, err = _run(capsys, "token", "")
    assert code == 2 and out == "" and "user id" in err
    code, out, err = _run(capsys, "token", "ana", "--ttl", "-5")
    assert code == 2 and out == "" and "--ttl" in err


def test_cli_channel_choices_are_the_search_channels() -> None:
    import argparse

    from api.commands.search import channel_list
    from queries.search.channel_set import askable

    assert channel_list(",".join(askable())) == askable()
    with pytest.raises(argparse.ArgumentTypeError, match="choose from " + ", ".join(askable())):
        channel_list("dense,bogus")


def test_understand_reads_well_and_honours_the_projects_hemisphere(
    capsys: pytest.CaptureFixture[str], prefix: str, graph: Any
) -> None:
    from graph.members import set_member, update_project

    project = f"{prefix}south"
    set_member(graph, project, f"{prefix}ana", "owner")
    update_project(graph, project, hemisphere="south")
    code, out, _ = _run(
        capsys, "understand", "la playa el verano pasado", "--project", project, "--now", "2026-11-30", "--json"
    )
    assert code == 0 and json.loads(out)["temporal"]["start"] == "2025-12-21", "summer in the south"
    code, out, _ = _run(
        capsys,
        "understand",
        "la playa el verano pasado",
        "--project",
        project,
        "--now",
        "2026-11-30",
        "--hemisphere",
        "north",
        "--json",
    )
    assert json.loads(out)["temporal"]["start"] == "2026-06-21", "an explicit --hemisphere wins"
    code, out, _ = _run(capsys, "understand", "la playa en verano", "--project", project, "--now", "2026-11-30")
    assert code == 0 and "{" not in out and "'id'" not in out
    assert "date: any year's 'verano' (latest: 2025-12-21 … 2026-03-20, season)" in out
    assert "to embed: 'la playa'" in out and "layer: structured" in out


def test_search_header_and_warnings_in_human_output(
    capsys: pytest.CaptureFixture[str], prefix: str, graph: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import queries.search.door as qs
    from graph.members import set_member

    project, ana = f"{prefix}h", f"{prefix}ana"
    set_member(graph, project, ana, "owner")
    path = tmp_path / "e.jsonl"
    path.write_text(
        json.dumps(
            {
                "entry_id": f"{project}/e1",
                "project_id": project,
                "author": ana,
                "text": "La persiana del salón, otra vez rota.",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    assert _run(capsys, "ingest", str(path), "--owner", ana)[0] == 0
    seen: list[Any] = []
    real = qs.hybrid_search

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(real(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(qs, "hybrid_search", spy)
    code, out, _ = _run(
        capsys, "search", "persiana", "--project", project, "--as", ana, "--person", "Zorro", "--explain"
    )
    assert code == 0
    header = out.splitlines()[0]
    assert header.endswith(f"{seen[0].latency_ms['total']} ms)"), "the body's measured total, as written there"
    assert "warning: no visible person named 'Zorro'" in out
    assert "relaxed:" in out and "{'" not in out
    code, out, _ = _run(capsys, "search", "persiana", "--project", project, "--as", ana, "--json")
    body = json.loads(out)
    assert body["latency_ms"]["total"] == seen[1].latency_ms["total"] and body["warnings"] == []
