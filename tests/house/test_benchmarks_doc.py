"""docs/BENCHMARKS.md is the present figure of each benchmark with the command that reproduces it: it fails here when
the page grows past 30,000 bytes (history belongs to git), when a `## ` section of a benchmark names no command, and
when the code or a page cites a section of it (`docs/BENCHMARKS.md, "Title"` or `BENCHMARKS.md#anchor`) that the page
no longer has."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "BENCHMARKS.md"
MAX_BYTES = 30_000
# Sections that state the conditions and the targets of every other section, not a benchmark of their own.
NOT_BENCHMARKS = {"Machine and conditions", "Targets"}
# A command: environment assignments, then the virtual environment's programs, make, bash, memora, pytest or python.
COMMAND = re.compile(r"^(?:[A-Z][A-Z0-9_]*=\S*\s+)*(?:\.venv/bin/\S+|make|bash|memora|pytest|python)(?:\s|$)")
INLINE_CODE = re.compile(r"(?<!`)`([^`]+)`(?!`)")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
# Where the code and the pages cite sections of the page.
CITING = ("api", "bench", "graph", "inference", "ingest", "queries", "tests", "docs", "migrations", "demo")
CITING_FILES = ("README.md", "Makefile", "pyproject.toml")
SUFFIXES = {".py", ".md", ".toml", ".cypher", ".sh", ""}
TITLE_CITED = re.compile(r'BENCHMARKS\.md[,:]?\s*\(?\s*"([A-Z][^"(){}\[\]=]{0,80})"')
ANCHOR_CITED = re.compile(r"BENCHMARKS\.md#([a-z0-9-]+)")


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def _sections(level: str) -> dict[str, str]:
    """Title → body of each section opened by `level` ("## " or "### "), the subsections inside a `## ` included."""
    text = FENCE.sub(lambda m: m.group(0).replace("\n#", "\n\\#"), _page())  # a `#` comment in a fence is no title
    parts = re.split(rf"^{re.escape(level)}(.+)$", text, flags=re.M)
    sections = dict(zip(parts[1::2], parts[2::2], strict=True))
    if level == "## ":
        return sections
    return {title: re.split(r"^## ", body, flags=re.M)[0] for title, body in sections.items()}


def _titles() -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^#{2,6} (.+)$", FENCE.sub("", _page()), flags=re.M)]


def _anchor(title: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def _commands(body: str) -> list[str]:
    fenced = [line.strip() for block in FENCE.findall(body) for line in block.splitlines()]
    prose = FENCE.sub("", body)
    inline = [" ".join(span.split()) for span in INLINE_CODE.findall(prose)]
    return [text for text in fenced + inline if COMMAND.match(text)]


def test_the_page_is_at_most_30000_bytes() -> None:
    size = len(_page().encode("utf-8"))
    assert size <= MAX_BYTES, (
        f"docs/BENCHMARKS.md is {size} bytes, over {MAX_BYTES}: keep the latest figure of each thing measured, drop "
        "superseded runs and narratives (they stay in git)"
    )


def test_every_benchmark_section_names_its_command() -> None:
    sections = _sections("## ")
    assert sections.keys() >= NOT_BENCHMARKS, f"update NOT_BENCHMARKS: {NOT_BENCHMARKS - sections.keys()} are gone"
    without = [title for title, body in sections.items() if title not in NOT_BENCHMARKS and not _commands(body)]
    assert not without, f"sections of docs/BENCHMARKS.md without the command that reproduces them: {without}"


def test_the_command_check_tells_a_command_from_other_code() -> None:
    assert _commands("`MEMORA_HOME=$H .venv/bin/python bench/scale.py --sizes 1000`")
    assert _commands("run `make\n  bench-load` then")
    assert _commands("```bash\nMEMORA_X=1 pytest tests/graph\n```\n")
    assert not _commands("the `graph` channel, `MEMORA_DENSE_FLOOR`, `bench/scale.py`")
    assert not _commands("```\nopenapi fuzz: 1077 generated requests\n```\n")


def _citing_texts() -> list[tuple[str, str]]:
    paths = [REPO / name for name in CITING_FILES]
    for folder in CITING:
        paths += sorted(p for p in (REPO / folder).rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    texts = []
    for path in paths:
        if path in (PAGE, Path(__file__).resolve()) or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if "BENCHMARKS.md" in text:
            # A title cited across lines of a comment reads as one: drop the line breaks and comment marks.
            texts.append((str(path.relative_to(REPO)), re.sub(r"\s*\n\s*(?:#\s*)?", " ", text)))
    return texts


def _begins(title: str, cited: str) -> bool:
    """The title, or its first words ("Plan cache" for "Plan cache and warm start", "Soak" for "Soak: …")."""
    return title.startswith(cited) and not title[len(cited) : len(cited) + 1].isalnum()


def test_every_cited_section_exists() -> None:
    titles = _titles()
    anchors = {_anchor(title) for title in titles}
    missing = []
    for name, text in _citing_texts():
        for cited in TITLE_CITED.findall(text):
            cited = " ".join(cited.split())
            if not any(_begins(title, cited) for title in titles):
                missing.append(f'{name}: "{cited}"')
        missing += [f"{name}: #{anchor}" for anchor in ANCHOR_CITED.findall(text) if anchor not in anchors]
    assert not missing, f"cited in the repository, not a section of docs/BENCHMARKS.md (rename back or fix): {missing}"


def test_the_anchor_is_githubs() -> None:
    assert _anchor("Forgetting at 10,000 entries") == "forgetting-at-10000-entries"
    assert _anchor("Soak: concurrent clients through the HTTP API") == "soak-concurrent-clients-through-the-http-api"
