"""The room list of docs/architecture.md ("Rooms") names every module of the service's layers, and only modules that
exist: a module added, moved or deleted without its line in the list fails here, with the names to add or remove.

How the list is read (the fenced block under "## Rooms"): a line indented less than eight spaces opens an item at
depth indentation // 2; when its first word ends in `/` it is a folder (`queries/`, `  search/`, `    understanding/`),
otherwise the item is a module line of the folder one level up (`  app.py` is in `api/`). Lines indented more continue
the item above. Every `name.py` on a line belongs to the folder that line is in; a name written with a layer's folder
(`inference/dates/text.py`) is taken as written. `__init__.py` files are not listed: a package is named by its folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from api.architecture_doc import LAYERS, modules

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "architecture.md"
ITEM_INDENT = 8  # a line indented at least this much continues the item above
FOLDER = re.compile(r"[a-z0-9_]+/$")
MODULE = re.compile(r"(?<![\w/.*-])((?:[a-z0-9_]+/)*[a-z0-9_]+\.py)\b")


def rooms_block(page: str) -> list[str]:
    """The lines of the first fenced block of the "Rooms" section."""
    section = page.split("\n## Rooms\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```", 2)[1].splitlines()[1:]


def named_modules(lines: list[str]) -> dict[str, int]:
    """Path of every module the block names → the line (1-based, within the block) that first names it."""
    folders: list[str] = []
    named: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        stripped = line.lstrip(" ")
        if not stripped:
            continue
        indent = len(line) - len(stripped)
        if indent < ITEM_INDENT:
            depth = indent // 2
            first = stripped.split()[0]
            folders = folders[:depth] + [first] if FOLDER.fullmatch(first) else folders[:depth]
        for name in MODULE.findall(line):
            path = name if name.split("/")[0] in LAYERS else "".join(folders) + name
            named.setdefault(path, number)
    return named


def test_the_parser_reads_folders_modules_and_continuations() -> None:
    block = [
        "api/         the doors",
        "  app.py       assembles; auth.py, jwt_auth.py",
        "  routes/      one per resource: search.py,",
        "               entries.py",
        "  web/         session.py",
        "    routes/      signin.py",
        "  deps.py      back in api/",
        "queries/     reading; uses inference/dates/text.py",
        "  listing.py   a listing; entry_histogram.py",
        "graph/       db.py,",
        "             schema.py",
    ]
    assert sorted(named_modules(block)) == [
        "api/app.py",
        "api/auth.py",
        "api/deps.py",
        "api/jwt_auth.py",
        "api/routes/entries.py",
        "api/routes/search.py",
        "api/web/routes/signin.py",
        "api/web/session.py",
        "graph/db.py",
        "graph/schema.py",
        "inference/dates/text.py",
        "queries/entry_histogram.py",
        "queries/listing.py",
    ]


def test_the_room_list_names_every_module_and_only_modules_that_exist() -> None:
    named = named_modules(rooms_block(PAGE.read_text(encoding="utf-8")))
    in_layers = {path: line for path, line in named.items() if path.split("/")[0] in LAYERS}
    present = set(modules())
    missing = sorted(present - in_layers.keys())
    gone = sorted(f"{path} (line {in_layers[path]} of the block)" for path in in_layers.keys() - present)
    problems = []
    if missing:
        problems.append(
            "add to the room list of docs/architecture.md (under its folder, with its one job in a few words): "
            + ", ".join(missing)
        )
    if gone:
        problems.append("remove from the room list of docs/architecture.md (no such module): " + ", ".join(gone))
    assert not problems, "\n".join(problems)
