"""Long work is never silent: where stderr is a log or a pipe (not a terminal), commands print a plain progress line
every few seconds and a last one at the end, and stdout keeps only the result (so --json stays parseable)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from api.cli import main
from api.commands import common
from api.commands.common import LineProgress


def test_ingest_reports_progress_lines_when_stderr_is_not_a_terminal(
    tmp_path: Path, prefix: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(common, "LineProgress", lambda total, label, every=5.0: LineProgress(total, label, every=0.0))
    project = f"{prefix}prog"
    path = tmp_path / "e.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(
                {
                    "entry_id": f"{project}/e{i}",
                    "project_id": project,
                    "author": f"{prefix}a",
                    "text": f"Entrada número {i} del diario.",
                }
            )
            for i in range(5)
        )
        + "\n",
        encoding="utf-8",
    )
    code = main(["ingest", str(path), "--owner", f"{prefix}a", "--json"])
    captured = capsys.readouterr()
    assert code == 0
    json.loads(captured.out)
    lines = [line for line in captured.err.splitlines() if line.startswith("ingest: ")]
    assert lines, captured.err
    assert re.fullmatch(r"ingest: 5/5 \(100 %\), \d+ s", lines[-1])


def test_line_progress_waits_its_interval(capsys: pytest.CaptureFixture[str]) -> None:
    with LineProgress(1000, "embed", every=3600) as bar:
        for _ in range(1000):
            bar.update(1)
        assert capsys.readouterr().err == "", "nothing before the interval has passed"
    assert capsys.readouterr().err.strip().startswith("embed: 1000/1000 (100 %)")


def test_the_last_line_is_not_printed_twice(capsys: pytest.CaptureFixture[str]) -> None:
    """A last update after the interval prints the line; closing then adds nothing (it was the same line twice)."""
    with LineProgress(7, "re-linking", every=0.0) as bar:
        bar.update(7)
    assert capsys.readouterr().err.splitlines() == ["re-linking: 7/7 (100 %), 0 s"]
    with LineProgress(3, "ingest", every=3600) as bar:
        bar.update(2)
        bar.update(1)
    assert capsys.readouterr().err.splitlines() == ["ingest: 3/3 (100 %), 0 s"], "the end still gets its line"
