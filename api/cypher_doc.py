"""docs/cypher/: every named Cypher statement of graph/, inference/, ingest/ and queries/, one file each, fully
expanded.

    .venv/bin/python -m api.cypher_doc docs/cypher      (or `make docs`)

Statements are assembled from shared fragments (the visibility predicate, the viewer prelude, the keyword fields), so
the text a reader needs is the value the module holds at run time, not its source. A file per statement, named
`<module>.<NAME>.cypher`, shows it whole; a change to one fragment shows in every statement it reaches.
tests/house/test_cypher_statements.py fails when a file differs from this rendering, and runs `EXPLAIN` on each
statement against the real Neo4j, so a statement that no longer plans fails before it is run.

A named statement is a module-level string constant whose text reads (MATCH, MERGE, CREATE, UNWIND, CALL, WITH, RETURN,
SHOW) and then returns or writes, and does not end open (a last top-level `WITH`). Fragments (a predicate, a prelude, a
subquery) are not statements; they show inside the ones that use them.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import sys
from pathlib import Path

PACKAGES = ("graph", "inference", "ingest", "queries")
COMMAND = ".venv/bin/python -m api.cypher_doc docs/cypher"
_STARTS = re.compile(r"^\s*(?://[^\n]*\n\s*)*(MATCH|OPTIONAL MATCH|MERGE|CREATE|UNWIND|CALL|WITH|RETURN|SHOW|DROP)\b")
# A Cypher string literal, quotes escaped inside: blanked before looking for keywords.
STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_CLAUSE = re.compile(
    r"\b(OPTIONAL MATCH|MATCH|WITH|UNWIND|WHERE|RETURN|CALL|SET|DELETE|DETACH DELETE|REMOVE|MERGE|"
    r"CREATE|FOREACH|ORDER BY|SKIP|LIMIT|YIELD|UNION|ON CREATE|ON MATCH|FINISH)\b"
)
_OPEN = {"WITH", "MATCH", "OPTIONAL MATCH", "UNWIND", "WHERE"}
_ENDS = re.compile(r"\b(RETURN|SET|DELETE|REMOVE|MERGE|CREATE|FOREACH|YIELD)\b")


def modules(packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """Every module of the packages that hold Cypher (or of `packages`), subpackages included, in name order."""
    names: list[str] = []
    for package_name in packages:
        package = importlib.import_module(package_name)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}.")]
    return sorted(names)


def is_statement(text: str) -> bool:
    """Reads, then returns or writes, and does not end open: a last top-level `WITH`, `MATCH`, `UNWIND` or `WHERE`
    (a prelude), or a returning subquery alone, is a piece that another statement completes."""
    last = _last_clause(text)
    alone = text.lstrip().startswith("CALL () {") and text.rstrip().endswith("}")
    return bool(_STARTS.match(text)) and bool(_ENDS.search(text)) and last not in _OPEN and not alone


def _last_clause(text: str) -> str | None:
    """The keyword of the last clause outside any brackets (subqueries, maps, lists, calls) and string literals."""
    bare = STRING.sub("''", text)
    depth, last, at = 0, None, 0
    for found in _CLAUSE.finditer(bare):
        chunk = bare[at : found.start()]
        depth += sum(map(chunk.count, "{[(")) - sum(map(chunk.count, "}])"))
        at = found.start()
        if depth == 0:
            last = found.group(1)
    return last


def named_strings(packages: tuple[str, ...] = PACKAGES) -> dict[str, str]:
    """Every module-level string constant of the Cypher packages, keyed `module.NAME` under the module that assigns
    it (a constant imported into another module is not listed again there)."""
    found: dict[str, str] = {}
    for module_name in modules(packages):
        module = importlib.import_module(module_name)
        own = _assigned(module)
        for name, value in vars(module).items():
            if isinstance(value, str) and name.isupper() and not name.startswith("_") and name in own:
                found[f"{module_name}.{name}"] = value
    return found


def named_statements(packages: tuple[str, ...] = PACKAGES) -> dict[str, str]:
    """The statements among the named strings."""
    return {key: text for key, text in sorted(named_strings(packages).items()) if is_statement(text)}


def _assigned(module: object) -> set[str]:
    """The names the module's own source assigns at top level, read once per module."""
    path = getattr(module, "__file__", None)
    if not path:
        return set()
    names: set[str] = set()
    for node in ast.parse(Path(path).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def render(statements: dict[str, str]) -> dict[str, str]:
    """File name → content: the statement as the service sends it, after a line naming where it is defined."""
    return {f"{key}.cypher": f"// {key}\n{text.strip()}\n" for key, text in statements.items()}


def write(directory: Path) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    files = render(named_statements())
    for old in directory.glob("*.cypher"):
        if old.name not in files:
            old.unlink()
    for name, content in files.items():
        (directory / name).write_text(content, encoding="utf-8")
    return len(files)


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/cypher")
    print(f"{write(target)} statements written to {target}", file=sys.stderr)
