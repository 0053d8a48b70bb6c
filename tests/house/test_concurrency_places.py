"""Where the service makes thread pools and context variables: only in the places named in `PLACES`, each with its
reason. A pool made at module level lives as long as the process and is shared by every database handle; a context
variable carries state along a call path that no signature shows. Both are decided once, here, not slipped in: a new
`ThreadPoolExecutor(` or `ContextVar(` anywhere else in graph/ inference/ ingest/ queries/ api/ fails this test until
it is named below, and a named place that no longer makes one fails until its line is removed."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAYERS = ("graph", "inference", "ingest", "queries", "api")
# The constructors looked for, by the last part of their dotted name (`concurrent.futures.ThreadPoolExecutor(` too).
MADE = {"ThreadPoolExecutor", "ProcessPoolExecutor", "ThreadPool", "ContextVar"}

# (module, what it makes) -> why it may. A pool moved to another module: move its line.
PLACES: dict[tuple[str, str], str] = {
    ("graph/generations.py", "ContextVar"): "`read_once`: one request's generation lookups share one snapshot",
    ("queries/search/visible_view.py", "ContextVar"): "`listings_after`: view listings start when the search answers",
    ("queries/search/run.py", "ThreadPoolExecutor"): "module level: the channels of one search run side by side",
    ("queries/search/early_vector.py", "ThreadPoolExecutor"): "module level: the query embedded before any read",
    ("graph/purge.py", "ThreadPoolExecutor"): "local `with` pools: two private servers started and stopped at once",
}


def _made_here(root: Path = REPO) -> dict[tuple[str, str], list[str]]:
    """(module, constructor) -> where in it (`line N, module level` or `line N, in f`), for every call of one of
    `MADE`, and every import that renames one (`import ThreadPoolExecutor as Pool` would hide the calls)."""
    found: dict[tuple[str, str], list[str]] = {}
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*.py")):
            module = path.relative_to(root).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
            for node in ast.walk(tree):
                made = None
                if isinstance(node, ast.Call):
                    made = ast.unparse(node.func).rpartition(".")[2]
                elif isinstance(node, ast.Import | ast.ImportFrom):
                    renamed = [a.name.rpartition(".")[2] for a in node.names if a.asname and a.asname != a.name]
                    made = next((name for name in renamed if name in MADE), None)
                if made not in MADE:
                    continue
                line = getattr(node, "lineno", 0)
                inside = [f.name for f in functions if f.lineno <= line <= (f.end_lineno or f.lineno)]
                where = f"line {line}, in {inside[-1]}" if inside else f"line {line}, module level"
                found.setdefault((module, str(made)), []).append(where)
    return found


def test_thread_pools_and_context_variables_are_made_only_in_their_places() -> None:
    found = _made_here()
    unnamed = sorted(f"{module}: {made} ({'; '.join(found[module, made])})" for module, made in found.keys() - PLACES)
    gone = sorted(f"({module!r}, {made!r})" for module, made in PLACES.keys() - found.keys())
    problems = []
    if unnamed:
        problems.append(
            "made outside the named places (pass an executor or a value instead, or add the place with its reason "
            "to PLACES in tests/house/test_concurrency_places.py): " + ", ".join(unnamed)
        )
    if gone:
        problems.append("named in PLACES but no longer made there (remove the line): " + ", ".join(gone))
    assert not problems, "\n".join(problems)


def test_the_walk_finds_a_pool_or_variable_made_anywhere(tmp_path: Path) -> None:
    """A pool at module level, one inside a function, a context variable and a renaming import are all found."""
    (tmp_path / "queries").mkdir()
    (tmp_path / "queries" / "made.py").write_text(
        "import concurrent.futures\n"
        "from contextvars import ContextVar\n"
        "from concurrent.futures import ThreadPoolExecutor as Pool\n"
        "POOL = concurrent.futures.ThreadPoolExecutor(2)\n"
        "VAR = ContextVar('x')\n"
        "def work():\n"
        "    with Pool(2) as pool:\n"
        "        return pool\n",
        encoding="utf-8",
    )
    assert _made_here(tmp_path) == {
        ("queries/made.py", "ThreadPoolExecutor"): ["line 3, module level", "line 4, module level"],
        ("queries/made.py", "ContextVar"): ["line 5, module level"],
    }
