"""Retrieval evaluation: ingest a dataset into its own projects, run every query through `hybrid_search`."""

from __future__ import annotations

import hashlib
import json
import math
import statistics
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from graph.db import Graph
from graph.members import ensure_owner
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor, IngestReport
from ingest.records import LineError, read_jsonl
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions, SearchResponse

EVAL_USER = "eval-owner"
EVAL_VIEWER = Viewer(user_id=EVAL_USER)


@dataclass(frozen=True)
class EvalQuery:
    id: str
    project_id: str
    question: str
    relevant: frozenset[str]
    category: str
    now: date | None = None


def ask(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, q: EvalQuery, options: SearchOptions
) -> SearchResponse:
    """`q` searched by the door in its own project, as the evaluation user: the one call every evaluation measures."""
    scope = Scope(project_id=q.project_id)
    return hybrid_search(graph, embedder, settings, EVAL_VIEWER, q.question, scope, options, project_ids=[q.project_id])


def namespace(entries: Path, kind: str = "eval") -> str:
    """Each dataset file gets its own projects, so Spanish and English copies of one corpus never collide; each kind
    of evaluation (`eval`, `sumeval`) its own, so one's periods never touch another's copy."""
    digest = hashlib.sha256(entries.read_bytes()).hexdigest()[:8]
    return f"{kind}:{entries.parent.name}-{entries.stem}-{digest}:"


def ingest_dataset(
    graph: Graph, embedder: CheckedEmbedder, entries: Path, prefix: str, progress: Callable[[int], None] | None = None
) -> IngestReport:
    def prefixed() -> Any:
        for number, item in read_jsonl(entries):
            if isinstance(item, LineError):
                yield number, item
                continue
            yield (
                number,
                item.model_copy(update={"project_id": prefix + item.project_id, "entry_id": prefix + item.entry_id}),
            )

    report = Ingestor(graph, embedder).ingest(prefixed(), progress=progress)
    projects = {prefix + json.loads(line)["project_id"] for line in entries.open(encoding="utf-8") if line.strip()}
    for project in sorted(projects):
        ensure_owner(graph, project, EVAL_USER)
    return report


def load_queries(path: Path, prefix: str) -> list[EvalQuery]:
    out = []
    for line in path.open(encoding="utf-8"):
        if not line.strip():
            continue
        q = json.loads(line)
        out.append(
            EvalQuery(
                q["query_id"],
                prefix + q["project_id"],
                q["question"],
                frozenset(prefix + r for r in q["relevant_entry_ids"]),
                str(q.get("category_name") or q.get("category") or "all"),
                date.fromisoformat(q["now"]) if q.get("now") else None,
            )
        )
    return out


def _metrics(ranked: list[str], relevant: frozenset[str]) -> dict[str, float]:
    def hit(k: int) -> float:
        return 1.0 if any(r in relevant for r in ranked[:k]) else 0.0

    rr = next((1.0 / i for i, r in enumerate(ranked[:10], start=1) if r in relevant), 0.0)
    dcg = sum(1.0 / math.log2(i + 1) for i, r in enumerate(ranked[:10], start=1) if r in relevant)
    idcg = sum(1.0 / math.log2(i + 1) for i in range(1, min(len(relevant), 10) + 1))
    return {
        "recall@5": hit(5),
        "recall@10": hit(10),
        "recall@30": hit(30),
        "mrr@10": rr,
        "ndcg@10": dcg / idcg if idcg else 0.0,
    }


def _summary(rows: list[dict[str, float]], latencies: list[float]) -> dict[str, Any]:
    keys = ("recall@5", "recall@10", "recall@30", "mrr@10", "ndcg@10")
    out: dict[str, Any] = {"n_queries": len(rows)}
    for key in keys:
        out[key] = round(statistics.fmean(r[key] for r in rows), 4) if rows else 0.0
    if latencies:
        ordered = sorted(latencies)
        out["latency_ms"] = {
            "p50": round(ordered[len(ordered) // 2], 2),
            "p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 2),
        }
    return out


def run_eval(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    queries: list[EvalQuery],
    channels: tuple[str, ...],
    k: int = 10,
    progress: Callable[[int], None] | None = None,
    understanding: bool = True,
    diversify: bool = True,
    rerank: str = "none",
    fusion: str | None = None,
) -> dict[str, Any]:
    per_query: list[dict[str, float]] = []
    latencies: list[float] = []
    by_category: dict[str, list[dict[str, float]]] = defaultdict(list)
    for q in queries:
        options = SearchOptions(
            k=max(30, k),
            channels=channels,
            understand=understanding,
            now=q.now,
            diversify=diversify,
            rerank=rerank,
            fusion=fusion,
        )
        response = ask(graph, embedder, settings, q, options)
        m = _metrics([r.entry_id for r in response.results], q.relevant)
        per_query.append(m)
        by_category[q.category].append(m)
        latencies.append(response.latency_ms["total"])
        if progress:
            progress(1)
    result = _summary(per_query, latencies)
    result["k"] = k
    result["channels"] = list(channels)
    result["understanding"] = understanding
    result["diversify"] = diversify
    result["rerank"] = rerank
    result["fusion"] = fusion or settings.fusion
    if len(by_category) > 1:
        result["by_category"] = {c: _summary(rows, []) for c, rows in sorted(by_category.items())}
    return result


def add_entities(graph: Graph, path: Path, prefix: str, entries: Path) -> None:
    """Aliases of a dataset ("papá" -> Andrés) added to each of its projects before its entries are linked."""
    from graph.entities import upsert_entity

    items = json.loads(path.read_text(encoding="utf-8"))
    projects = {prefix + json.loads(line)["project_id"] for line in entries.open(encoding="utf-8") if line.strip()}
    for project in sorted(projects):
        for item in items:
            upsert_entity(graph, project, item["kind"], item["name"], item.get("aliases", []))
