"""The house in numbers: page sizes, modules and lines per room, import circles and upward imports, named Cypher
statements, and how many project modules one search's route loads (docs/architecture.md, "The house in numbers").

    .venv/bin/python bench/house_numbers.py [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

ROOMS = (
    "api",
    "api/models",
    "api/routes",
    "api/commands",
    "api/mcp",
    "api/web",
    "api/web/routes",
    "queries",
    "queries/search",
    "queries/search/understanding",
    "queries/context",
    "queries/entities",
    "queries/telemetry",
    "ingest",
    "inference",
    "inference/providers",
    "inference/dates",
    "graph",
)
LAYERS = ("graph", "inference", "ingest", "queries", "api")


def _room(path: str) -> dict[str, int]:
    files = [p for p in (REPO / path).glob("*.py") if p.name != "__init__.py"]
    return {"modules": len(files), "lines": sum(len(p.read_text(encoding="utf-8").splitlines()) for p in files)}


def _route_modules() -> int:
    """Project modules loaded by importing the search route, in a fresh interpreter."""
    code = f"import sys; import api.routes.search; print(sum(1 for m in sys.modules if m.split('.')[0] in {LAYERS!r}))"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def measure() -> dict[str, object]:
    import networkx as nx

    from api.cypher_doc import named_statements
    from tests.house.test_layers import BELOW, IMPORTS

    upward = [(a, b) for a, b in IMPORTS.edges if b.split(".")[0] not in BELOW[a.split(".")[0]]]
    return {
        "readme_bytes": (REPO / "README.md").stat().st_size,
        "benchmarks_bytes": (REPO / "docs" / "BENCHMARKS.md").stat().st_size,
        "rooms": {room: _room(room) for room in ROOMS},
        "import_circles": sum(1 for c in nx.strongly_connected_components(IMPORTS) if len(c) > 1),
        "upward_imports": len(upward),
        "named_statements": len(named_statements()),
        "search_route_modules": _route_modules(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    figures = measure()
    for key, value in figures.items():
        if key == "rooms":
            for room, size in value.items():  # type: ignore[attr-defined]
                print(f"  {room:30} {size['modules']:3} modules {size['lines']:6} lines")
        else:
            print(f"{key:30} {value}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
