"""docs/architecture.md, "The house in numbers", is the code counted: it fails here when the block between the page's
markers is not what `api/architecture_doc.py` renders now (a module added or removed, the longest module grown, a
statement, setting or migration added)."""

from __future__ import annotations

import pytest

from api import architecture_doc


def test_the_house_in_numbers_is_what_the_code_counts() -> None:
    page = architecture_doc.PAGE.read_text(encoding="utf-8")
    assert page == architecture_doc.updated(page), (
        f"docs/architecture.md, the house in numbers, is out of date: regenerate it with `{architecture_doc.COMMAND}`"
        " (or `make docs`)"
    )


def test_the_block_counts_every_module_once() -> None:
    folders = architecture_doc.figures().folders
    assert sum(sum(counts.values()) for counts in folders.values()) == len(architecture_doc.modules())
    assert set(folders) == set(architecture_doc.LAYERS)


def test_a_page_without_its_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="markers"):
        architecture_doc.updated("# Architecture\n\nno markers here\n")
    twice = f"{architecture_doc.BEGIN}\n{architecture_doc.END}\n{architecture_doc.BEGIN}\n{architecture_doc.END}\n"
    with pytest.raises(ValueError, match="markers"):
        architecture_doc.updated(twice)
