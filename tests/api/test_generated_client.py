"""The OpenAPI document is the contract: a client generated from `/openapi.json` by openapi-python-client
type-checks (mypy --strict, with a script that uses it) and calls search, entries and analytics correctly against the
real service on loopback — including the documented error bodies."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from api import auth
from api.app import Services, create_app
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from tests.serving import serve

USE = Path(__file__).resolve().parents[1] / "client_use" / "use_client.py"
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def client_dir(tmp_path_factory: pytest.TempPathFactory, settings: Settings) -> Path:
    """The generated package `memora_client` in a temp folder (generation needs no server: the spec is the app's)."""
    generator = shutil.which("openapi-python-client", path=str(BIN)) or shutil.which("openapi-python-client")
    if generator is None:
        pytest.fail("openapi-python-client is a test dependency (pyproject's dev extra); it is not installed")
    root = tmp_path_factory.mktemp("client")
    spec = root / "openapi.json"
    spec.write_text(json.dumps(create_app(Services(settings)).openapi()), encoding="utf-8")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [generator, "generate", "--path", str(spec), "--meta", "none", "--output-path", str(root / "memora_client")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, f"the generator could not read part of the document:\n{done.stdout}"
    return root


def test_the_generated_client_type_checks_with_a_script_that_uses_it(client_dir: Path) -> None:
    """Strict everywhere but in the generator's fixed transport template (`client.py`, the same for every API, whose
    `__exit__(*args)` strict mypy rejects): everything derived from our document is checked strictly."""
    config = client_dir / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\n[mypy-memora_client.client]\ndisable_error_code = arg-type\n")
    done = subprocess.run(
        [
            str(BIN / "mypy"),
            "--config-file",
            str(config),
            "--no-incremental",
            "--cache-dir",
            str(client_dir / ".mypy"),
            "--python-version",
            "3.11",
            str(client_dir / "memora_client"),
            str(USE),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "MYPYPATH": str(client_dir)},
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture()
def served(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> Iterator[str]:
    with serve(settings, graph, embedder) as url:
        yield url


def test_the_generated_client_calls_search_entries_and_analytics(
    client_dir: Path, served: str, prefix: str, settings: Settings, graph: Graph
) -> None:
    project, owner, reader = f"{prefix}gen", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, reader, "reader")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(client_dir), os.environ.get("PYTHONPATH", "")]),
        "MEMORA_BASE_URL": served,
        "MEMORA_PROJECT": project,
        "MEMORA_OWNER_TOKEN": auth.issue(settings, owner),
        "MEMORA_READER_TOKEN": auth.issue(settings, reader),
    }
    done = subprocess.run([sys.executable, str(USE)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("all calls answered as documented"), done.stdout
