"""One dev set's questions asked through the door as the evaluation user, on the projects `bench/run_evals.py`
loaded, with the active model and the search and query-embedding caches off (every search embeds and ranks, as a
question asked for the first time does): what the in-process A/B benches of the search door share."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from api.cli import connect
from api.evaluation import EVAL_USER, EvalQuery, load_queries, namespace
from bench.run_evals import dataset_files
from graph.db import Graph
from graph.settings import Settings, get_settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.embedding_jobs import active_embedder
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions, SearchResponse


@dataclass(frozen=True)
class DevQuestions:
    graph: Graph
    embedder: CheckedEmbedder
    settings: Settings
    asked: list[EvalQuery]

    def ask(self, q: EvalQuery, options: SearchOptions) -> SearchResponse:
        viewer, scope = Viewer(user_id=EVAL_USER), Scope(project_id=q.project_id)
        return hybrid_search(self.graph, self.embedder, self.settings, viewer, q.question, scope, options)


def dev_questions(data: Path, only: str) -> DevQuestions:
    settings = get_settings().model_copy(update={"search_cache_seconds": 0.0, "query_embed_cache_size": 0})
    graph = connect(settings)
    entries, queries, _ = dataset_files(data)[only]
    return DevQuestions(graph, active_embedder(graph, settings), settings, load_queries(queries, namespace(entries)))
