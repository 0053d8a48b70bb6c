"""docs/cli.md is the `memora` argument parser, rendered: it fails here when a subcommand, an argument or a help
text changed and the page was not regenerated."""

from __future__ import annotations

from pathlib import Path

from api import cli_doc
from api.cli import build_parser

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def test_the_cli_page_is_what_the_parser_renders() -> None:
    assert PAGE.read_text(encoding="utf-8") == cli_doc.render(), (
        f"docs/cli.md is out of date: regenerate it with `{cli_doc.COMMAND}` (or `make docs`)"
    )


def test_every_subcommand_has_a_section_and_a_page() -> None:
    page = PAGE.read_text(encoding="utf-8")
    names = [name for name, _, _ in cli_doc._subcommands(build_parser())]
    assert names
    for name in names:
        assert f"## `memora {name}`" in page
        assert name in cli_doc.PAGES, f"add the docs/ page describing `memora {name}` to api/cli_doc.py PAGES"
