"""docs/configuration.md is the settings objects, rendered: it fails here when the page is not what
`api/settings_doc.py` renders now, when a setting has no group or meaning, when the code names a `MEMORA_*`
variable that no setting reads, when a setting is read by no code, and when the README or a page of docs/ names a
variable that does not exist."""

from __future__ import annotations

import re
from pathlib import Path

from api import settings_doc

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "configuration.md"
VARIABLE = re.compile(r"\bMEMORA_[A-Z0-9_]*[A-Z0-9_]")
CODE = ("graph", "inference", "ingest", "queries", "api")
# Variables that are not settings of the service: read by the benchmark scripts and the Makefile, by the client
# examples of tests/client_use, or by the test suite (its Hypothesis profile).
NOT_SETTINGS = {
    "MEMORA_BENCH_DATA",
    "MEMORA_BASE_URL",
    "MEMORA_OWNER_TOKEN",
    "MEMORA_READER_TOKEN",
    "MEMORA_PROJECT",
    "MEMORA_TEST_PROFILE",
}
# Pages other engineers keep by hand with figures of their own runs; their names are checked by their authors.
UNCHECKED_PAGES = {"BENCHMARKS.md"}


def _known(name: str, variables: set[str]) -> bool:
    """A full variable name, or a family written as a prefix (`MEMORA_AUTH_*`, `MEMORA_NEO4J_*_TIMEOUT`)."""
    if name in variables:
        return True
    return name.endswith("_") and any(v.startswith(name) for v in variables)


def test_the_configuration_page_is_what_the_settings_render() -> None:
    assert PAGE.read_text(encoding="utf-8") == settings_doc.render(), (
        f"docs/configuration.md is out of date: regenerate it with `{settings_doc.COMMAND}` (or `make docs`)"
    )


def test_every_setting_has_a_group_and_a_meaning() -> None:
    assert settings_doc.problems() == []


def test_the_neo4j_connection_variables_are_documented() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for name in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD"):
        assert f"`{name}`" in page
        assert name in settings_doc.variables()


def test_every_variable_the_code_names_is_a_setting() -> None:
    variables = settings_doc.variables()
    unknown = {}
    for package in CODE:
        for path in sorted((REPO / package).rglob("*.py")):
            for name in set(VARIABLE.findall(path.read_text(encoding="utf-8"))):
                if not _known(name, variables):
                    unknown.setdefault(name, []).append(path.relative_to(REPO).as_posix())
    assert not unknown, (
        f"variables named in the code that no settings object reads (add them to the settings): {unknown}"
    )


def test_every_setting_is_read_by_the_code() -> None:
    """A setting nothing reads is a promise the service does not keep: delete it, or use it."""
    sources = {
        path: path.read_text(encoding="utf-8")
        for package in CODE
        for path in (REPO / package).rglob("*.py")
        if path.name != "settings_doc.py"
    }
    unread = []
    for key, (_, name, _) in settings_doc.fields().items():
        reads = re.compile(rf"\.{name}\b")
        if not any(reads.search(text) for text in sources.values()):
            unread.append(key)
    assert unread == []


def test_the_readme_and_the_docs_name_only_variables_that_exist() -> None:
    variables = settings_doc.variables() | NOT_SETTINGS
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    unknown = {}
    for page in pages:
        if page.name in UNCHECKED_PAGES:
            continue
        for name in set(VARIABLE.findall(page.read_text(encoding="utf-8"))):
            if not _known(name, variables):
                unknown.setdefault(name, []).append(page.relative_to(REPO).as_posix())
    assert not unknown, f"documented variables that no settings object reads: {unknown}"
