"""The dense channel's vector-index path: a project that is a small part of the index gets the same top
hits as the exact scan, and the index never lets an entry hidden from the viewer into the hits.

Vectors are written by hand (the bench embedder's index, `bench/hash_embedder.py`, gives them a home) so the case is
exact: hundreds of hidden chunks (another project's, and a coauthor's private ones inside the project) lie closer to
the query than any visible one, and the visible ones differ in similarity by less than the index's quantisation
step. A plain index path (global top-k, then the scope filter, ranked by the index's quantised scores) returns a
different top 10 here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bench.hash_embedder import HashEmbedder
from graph.db import Graph
from graph.members import set_member
from graph.schema import ensure_vector_index, vector_property
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import channels as ch
from queries.search.dense import dense
from tests.search.scopes import scope_of

WRITE = """
UNWIND $rows AS row
MERGE (p:Project {id: row.project})
CREATE (e:Entry {id: row.id, project_id: row.project, intimacy: row.intimacy, author_id: row.author,
                 kind: 'diary', body: 'vector only', created_at: datetime()})
CREATE (c:Chunk {id: row.id + '#0', entry_id: row.id, project_id: row.project, ord: 0, text: 'vector only',
                 embedding_model: $model, embedding_status: 'done', created_at: datetime()})
CREATE (c)-[:OF]->(e)
WITH c, row
CALL db.create.setNodeVectorProperty(c, $prop, row.vector)
"""
DIM = 384
LIMIT = 50
VISIBLE = 80
DECOYS = 1500


def _around(query: np.ndarray, cosine: float, rng: np.random.Generator) -> list[float]:
    """A unit vector at exactly `cosine` from the unit `query`, in a random direction."""
    r = rng.standard_normal(DIM)
    r -= r.dot(query) * query
    r /= np.linalg.norm(r)
    return [float(x) for x in cosine * query + np.sqrt(1 - cosine**2) * r]


@pytest.fixture()
def world(graph: Graph, prefix: str) -> dict[str, Any]:
    embedder = CheckedEmbedder(HashEmbedder())
    ensure_vector_index(graph, embedder.slug, embedder.dimensions)
    rng = np.random.default_rng(12)
    query = rng.standard_normal(DIM)
    query /= np.linalg.norm(query)
    project, other = f"{prefix}fam", f"{prefix}elsewhere"
    users = {r: f"{prefix}{r}" for r in ("owner", "coauthor", "reader", "stranger")}
    set_member(graph, project, users["owner"], "owner")
    set_member(graph, project, users["coauthor"], "coauthor")
    set_member(graph, project, users["reader"], "reader")
    set_member(graph, other, users["stranger"], "owner")
    rows: list[dict[str, Any]] = []
    # visible to owner and reader: similarities 0.500, 0.5001, ... (finer than the index's int8 quantisation)
    for i in range(VISIBLE):
        rows.append(
            {
                "id": f"{project}/v{i:03d}",
                "project": project,
                "intimacy": "circle",
                "author": users["owner"],
                "vector": _around(query, 0.5 + 1e-4 * i, rng),
            }
        )
    # hidden from both: far closer to the query than any visible chunk
    for i in range(DECOYS):
        mine = i % 3 == 0  # a coauthor's private entries inside the project, the rest another project's
        rows.append(
            {
                "id": f"{project if mine else other}/h{i:04d}",
                "project": project if mine else other,
                "intimacy": "private" if mine else "circle",
                "author": users["coauthor"] if mine else users["stranger"],
                "vector": _around(query, 0.9 - 1e-5 * i, rng),
            }
        )
    prop = vector_property(embedder.slug)
    for start in range(0, len(rows), 500):
        graph.write(WRITE, {"rows": rows[start : start + 500], "prop": prop, "model": embedder.model_id})
    graph.run_auto("CALL db.awaitIndexes(300)")
    hidden = {r["id"] for r in rows if "/h" in r["id"]}
    return {
        "embedder": embedder,
        "query": [float(x) for x in query],
        "project": project,
        "users": users,
        "hidden": hidden,
        "prop": prop,
    }


def _params(world: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    return scope_of(world["project"], viewer).params()


@pytest.mark.parametrize("role", ["owner", "reader"])
def test_index_path_matches_exact_for_a_small_part_of_the_index(
    graph: Graph, settings: Settings, world: dict[str, Any], role: str
) -> None:
    viewer = Viewer(user_id=world["users"][role])
    base = _params(world, viewer)
    exact, _ = ch.run_channel(
        graph,
        ch.DENSE_EXACT,
        {**base, "vector": world["query"], "prop": world["prop"], "model": world["embedder"].model_id, "limit": LIMIT},
    )
    assert len(exact) == LIMIT
    assert not {h.id for h in exact} & world["hidden"]
    forced = settings.model_copy(update={"exact_scan_max_chunks": 0, "dense_matrix_viewers": 0})
    hits, chunks = dense(graph, world["embedder"], forced, scope_of(world["project"], viewer), world["query"], LIMIT)
    assert not {h.id for h in hits} & world["hidden"]  # the scope and visibility predicate hold inside the query
    assert [h.id for h in hits[:10]] == [h.id for h in exact[:10]]
    assert [h.id for h in hits] == [h.id for h in exact]
    assert [round(h.score, 6) for h in hits] == [round(h.score, 6) for h in exact]  # exact scores, not the index's
    assert set(chunks) == {h.id for h in hits}


def test_a_stranger_gets_nothing_through_the_index(graph: Graph, settings: Settings, world: dict[str, Any]) -> None:
    viewer = Viewer(user_id=world["users"]["stranger"])  # owns the decoys' project, not a member of this one
    forced = settings.model_copy(update={"exact_scan_max_chunks": 0, "dense_matrix_viewers": 0})
    hits, _ = dense(graph, world["embedder"], forced, scope_of(world["project"], viewer), world["query"], LIMIT)
    assert hits == []


def test_crossover_bench_smoke(graph: Graph, prefix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bench import crossover

    out = tmp_path / "crossover.json"
    assert (
        crossover.main(
            [
                "--sizes",
                "40,80",
                "--others",
                "150",
                "--queries",
                "3",
                "--margins",
                "2",
                "--prefix",
                prefix,
                "--json",
                str(out),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    result = json.loads(out.read_text(encoding="utf-8"))
    rows = result["rows"]
    assert {(r["layout"], r["way"]) for r in rows} == {
        (lay, w) for lay in ("alone", "shared") for w in ("exact", "index_old", "numpy", "index m=2")
    }
    assert all(0.0 <= r["recall_at_10"] <= 1.0 and r["p50_ms"] > 0 for r in rows)
    assert all(r["recall_at_10"] == 1.0 for r in rows if r["way"] in ("exact", "numpy"))
    shared = [r for r in rows if r["layout"] == "shared"]
    assert all(r["project_share"] < 1.0 for r in shared)
    assert "| alone |" in printed and "| shared |" in printed and "index_old" in printed
    assert not graph.read("MATCH (c:Chunk) WHERE c.project_id STARTS WITH $p RETURN c LIMIT 1", {"p": prefix})
