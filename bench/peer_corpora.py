"""neo4j-graphrag's natural setup for `bench/peers.py`: its own nodes, one vector and one fulltext index per corpus.

A corpus is one evaluation project in one vector variant: `plain` (the chunk's text embedded as a passage, what a
newcomer to neo4j-graphrag would store) or `ctx` (the contextualised vector this project stores on the chunk). Its
nodes carry a label unique to the run (`MemoraPeer_<run>`, used to delete them all) and one unique to the corpus (the
indexes' label). Only chunks the evaluation user may see are copied (the `CAN_SEE` predicate), so the peers search
exactly the text our search door may rank.

Labels and index names cannot be query parameters: they are built here from a random hex run id and checked against
`_NAME` before they reach a statement; every value goes in as a parameter.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import neo4j
from neo4j_graphrag.embeddings.base import Embedder
from neo4j_graphrag.indexes import create_fulltext_index, create_vector_index, drop_index_if_exists
from neo4j_graphrag.retrievers import HybridRetriever, VectorRetriever
from neo4j_graphrag.types import RetrieverResultItem

from graph.db import Graph
from graph.visibility import CAN_SEE, Viewer, visibility_params
from inference.embedders import CheckedEmbedder

VARIANTS = ("plain", "ctx")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,80}$")
BATCH = 500
EMBED_BATCH = 64

# The chunks of one project the viewer may see, with the contextualised vector of the active model.
VISIBLE_CHUNKS = f"""
MATCH (e:Entry) WHERE e.project_id = $project_id AND {CAN_SEE}
MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
RETURN c.id AS id, e.id AS entry_id, c.text AS text, c[$prop] AS vector
ORDER BY c.id
"""

CREATE_NODES = """
UNWIND $rows AS row
CREATE (n:`{label}`:`{run_label}` {{id: row.id, entry_id: row.entry_id, text: row.text}})
WITH n, row
CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
"""

DELETE_SOME = "MATCH (n:`{run_label}`) WITH n LIMIT $limit DETACH DELETE n RETURN count(*) AS n"
COUNT_NODES = "MATCH (n:`{run_label}`) RETURN count(n) AS n"
RUN_INDEXES = "SHOW INDEXES YIELD name WHERE name STARTS WITH $prefix RETURN name"


def _checked(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise ValueError(f"not a safe schema name: {name!r}")
    return name


class PeerEmbedder(Embedder):
    """This project's embedder behind neo4j-graphrag's interface: the same model and query prefix for every system."""

    def __init__(self, inner: CheckedEmbedder) -> None:
        super().__init__()
        self.inner = inner

    def embed_query(self, text: str) -> list[float]:
        return [float(x) for x in self.inner.embed_query(text)]


def entry_item(record: neo4j.Record) -> RetrieverResultItem:
    """Keep what the metrics need (the entry a chunk belongs to) and the text a RAG caller would read."""
    node = record.get("node") or {}
    return RetrieverResultItem(
        content=node.get("text") or "", metadata={"entry_id": node.get("entry_id"), "score": record.get("score")}
    )


@dataclass
class Corpus:
    project_id: str
    variant: str
    label: str
    vector_index: str
    fulltext_index: str
    chunks: int
    entries: int
    hybrid: HybridRetriever | None = None
    vector: VectorRetriever | None = None

    @property
    def top_k(self) -> int:
        """Chunks asked for so that about 30 distinct entries come back (recall@30 needs them)."""
        return max(30, math.ceil(30 * self.chunks / max(1, self.entries)))


@dataclass
class PeerRun:
    """Everything one bench run creates for the peers, so `cleanup` can remove exactly that."""

    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:10])
    corpora: dict[tuple[str, str], Corpus] = field(default_factory=dict)

    @property
    def run_label(self) -> str:
        return _checked(f"MemoraPeer_{self.run_id}")

    @property
    def index_prefix(self) -> str:
        return _checked(f"memora_peer_{self.run_id}")

    def add_project(self, graph: Graph, embedder: CheckedEmbedder, viewer: Viewer, project_id: str, prop: str) -> None:
        """Copy one project's visible chunks into a plain and a contextualised corpus, each with its two indexes."""
        rows = [
            dict(r)
            for r in graph.read(VISIBLE_CHUNKS, {"project_id": project_id, "prop": prop, **visibility_params(viewer)})
        ]
        if not rows:
            return
        plain: list[list[float]] = []
        for start in range(0, len(rows), EMBED_BATCH):
            batch = rows[start : start + EMBED_BATCH]
            plain.extend([float(x) for x in v] for v in embedder.embed_passages([r["text"] for r in batch]))
        n = len({k[0] for k in self.corpora})
        entries = len({r["entry_id"] for r in rows})
        for variant in VARIANTS:
            label = _checked(f"{self.run_label}_{n}_{variant}")
            corpus = Corpus(
                project_id,
                variant,
                label,
                _checked(f"{self.index_prefix}_{n}_{variant}_vec"),
                _checked(f"{self.index_prefix}_{n}_{variant}_ft"),
                len(rows),
                entries,
            )
            self.corpora[(project_id, variant)] = corpus
            vectors: Iterable[list[float]] = (
                plain if variant == "plain" else ([float(x) for x in r["vector"]] for r in rows)
            )
            node_rows = [
                {"id": r["id"], "entry_id": r["entry_id"], "text": r["text"], "vector": v}
                for r, v in zip(rows, vectors, strict=True)
            ]
            statement = CREATE_NODES.format(label=label, run_label=self.run_label)
            for start in range(0, len(node_rows), BATCH):
                graph.write(statement, {"rows": node_rows[start : start + BATCH]})
            create_vector_index(
                graph.driver,
                corpus.vector_index,
                label,
                "embedding",
                embedder.dimensions,
                "cosine",
                neo4j_database=graph.database,
            )
            create_fulltext_index(graph.driver, corpus.fulltext_index, label, ["text"], neo4j_database=graph.database)

    def open(self, graph: Graph, embedder: CheckedEmbedder, await_seconds: int = 300) -> None:
        """Wait for the indexes to be online, then build the retrievers the way neo4j-graphrag's docs show."""
        graph.run_auto("CALL db.awaitIndexes($seconds)", {"seconds": await_seconds})
        peer_embedder = PeerEmbedder(embedder)
        for corpus in self.corpora.values():
            if corpus.hybrid is None:
                corpus.hybrid = HybridRetriever(
                    graph.driver,
                    corpus.vector_index,
                    corpus.fulltext_index,
                    embedder=peer_embedder,
                    result_formatter=entry_item,
                    neo4j_database=graph.database,
                )
                corpus.vector = VectorRetriever(
                    graph.driver,
                    corpus.vector_index,
                    embedder=peer_embedder,
                    result_formatter=entry_item,
                    neo4j_database=graph.database,
                )

    def cleanup(self, graph: Graph) -> None:
        """Drop this run's indexes and delete its nodes (in batches, so a large corpus never needs one huge
        transaction)."""
        for row in graph.read(RUN_INDEXES, {"prefix": self.index_prefix}):
            drop_index_if_exists(graph.driver, _checked(row["name"]), neo4j_database=graph.database)
        statement = DELETE_SOME.format(run_label=self.run_label)
        while graph.write(statement, {"limit": 5000})[0]["n"]:
            pass
        self.corpora.clear()

    def leftovers(self, graph: Graph) -> dict[str, Any]:
        """What of this run is still in the database (nothing, after `cleanup`)."""
        return {
            "nodes": int(graph.read(COUNT_NODES.format(run_label=self.run_label))[0]["n"]),
            "indexes": [r["name"] for r in graph.read(RUN_INDEXES, {"prefix": self.index_prefix})],
        }
