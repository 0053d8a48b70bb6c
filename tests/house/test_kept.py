"""Where the process keeps things: what it keeps about a database's content lives on the database handle
(`Graph.kept`, graph/kept.py), which the service owns. Module level may keep only what is the same for every
database, each named here with the reason; a new module-level cache fails this test until it is moved to a room or
named below."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from graph.db import Graph
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import query_vectors, result_cache
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

REPO = Path(__file__).resolve().parents[2]
LAYERS = ("graph", "inference", "ingest", "queries", "api")
CONTAINERS = {"dict", "set", "list", "OrderedDict", "ViewerLRU", "defaultdict", "deque", "WeakKeyDictionary"}

QUESTION = "¿cuándo fuimos de viaje al sur con mi padre?"
PROCESS_WIDE = {
    "graph/db.py:_drivers": "one connection pool per server and user, for every handle",
    "graph/db.py:_bookmarks": "a routing driver's one bookmark manager (read-your-writes in the process)",
    "graph/plan_cache.py:rewritten": "a memo of a pure function of a statement's text",
    "graph/settings/__init__.py:get_settings": "the environment, read once",
    "inference/embedder_specs.py:_cache": "loaded models",
    "inference/embedders.py:_cache": "loaded models",
    "inference/providers/base.py:get_embedder_settings": "the environment, read once",
    "ingest/addressing.py:_never": "stop words of the loaded languages, built once",
    "ingest/embedding_jobs.py:_worker_ids": "this process's lease owner name",
    "ingest/recognition.py:_LOCKS": "locks, not copies: one recognition per project at a time in the process",
    "ingest/spacy_pipelines.py:_pipelines": "loaded pipelines",
    "ingest/spacy_pipelines.py:_reported": "which missing pipelines were already logged",
    "queries/search/keyword.py:scored": "a memo of a pure function of a statement's text",
    "queries/search/ranker.py:load_ranker": "the ranker's weights file, read once",
    "queries/search/relevance.py:load": "the relevance calibration file, read once",
    "queries/search/relevance.py:warn_other_model": "a calibration read on another model, said once",
    "queries/search/rerank.py:_SCORERS": "loaded reranker models",
    "queries/search/result_cache.py:_digests": "a memo of a pure function of the settings object",
    "queries/search/understanding/entities.py:_cached_matcher": "a memo of a pure function of its argument",
    "queries/search/word_forms.py:forms": "a memo of a pure function of a word",
    "inference/dates/text.py:_FOLD_CACHE": "a memo of a pure function of a word",
    "queries/telemetry/search_log.py:_salts": "the installation's salt file, read once",
}


def _module_level_keeping() -> set[str]:
    """`path:name` of every module-level empty container and every cached function of the service's layers."""
    found = set()
    for layer in LAYERS:
        for path in (REPO / layer).rglob("*.py"):
            where = path.relative_to(REPO).as_posix()
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                    value = node.value
                    empty = isinstance(value, ast.Dict | ast.Set | ast.List) and not ast.unparse(value).strip("{}[]")
                    made = (
                        isinstance(value, ast.Call)
                        and not value.args
                        and ast.unparse(value.func).rpartition(".")[2] in CONTAINERS
                    )
                    if empty or made:
                        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                        found.add(f"{where}:{ast.unparse(target)}")
                elif isinstance(node, ast.FunctionDef) and any("cache" in ast.unparse(d) for d in node.decorator_list):
                    found.add(f"{where}:{node.name}")
    return found


def test_module_level_keeps_only_what_is_the_same_for_every_database() -> None:
    found = _module_level_keeping()
    assert sorted(found - PROCESS_WIDE.keys()) == [], "keep it on Graph.kept (graph/kept.py) or name it here"
    assert sorted(PROCESS_WIDE.keys() - found) == [], "named here but gone: remove it from the list"


@pytest.mark.neo4j
def test_two_handles_on_one_database_share_nothing_they_kept(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    """Two services in one process (each with its own handle) answer alike, but neither sees the other's kept
    answers or query vectors; a handle's `clear` drops them all."""
    cached = settings.model_copy(update={"search_cache_seconds": 300.0})
    first, second = Graph(graph.driver, graph.database), Graph(graph.driver, graph.database)
    viewer = Viewer(user_id=family["owner"])

    def ask(handle: Graph) -> tuple[list[str], bool]:
        resp = hybrid_search(
            handle, embedder, cached, viewer, QUESTION, Scope(project_id=family["project"]), SearchOptions()
        )
        return [r.entry_id for r in resp.results], resp.cached

    ids, hit = ask(first)
    assert ids and not hit
    assert ask(first) == (ids, True)
    assert ask(second) == (ids, False)  # the other handle computed it afresh
    assert result_cache.kept_results(first).stats.hits == 1 and result_cache.kept_results(second).stats.hits == 0
    # each handle embedded the question itself
    assert query_vectors.kept_vectors(first).stats.misses == query_vectors.kept_vectors(second).stats.misses == 1
    assert "search.results" in first.kept.names()
    first.kept.clear()
    assert first.kept.names() == []
    assert ask(first) == (ids, False)
