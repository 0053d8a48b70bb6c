"""Diversification keeps five near-identical entries from filling the page, and never drops the most relevant one."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search.diversify import _alike, diversify, word_set
from queries.search.door import hybrid_search
from queries.search.fusion import Fused
from queries.search.request import Scope, SearchOptions


def test_near_duplicates_are_deferred_and_everything_else_keeps_its_order() -> None:
    texts = {
        "a": word_set("Hoy en la playa de Tarifa con viento de levante y cometas."),
        "dup": word_set("Hoy en la playa de Tarifa, con viento de levante y las cometas."),
        "close": word_set("En la playa de Tarifa no había viento y las cometas se quedaron en casa."),
        "other": word_set("Cena con papá en Cádiz."),
    }
    cands = [Fused("a", 1.0), Fused("dup", 0.98), Fused("close", 0.95), Fused("other", 0.9), Fused("pending", 0.5)]
    assert [f.id for f in diversify(cands, texts, k=5)] == ["a", "close", "other", "pending", "dup"]
    assert [f.id for f in diversify(cands, texts, k=2)] == ["a", "close"]
    assert [f.id for f in diversify(cands, texts, k=5, threshold=1.01)] == [c.id for c in cands]


def test_the_size_bound_never_changes_a_verdict() -> None:
    """`_alike` skips pairs by their sizes alone: on random word sets, sizes and thresholds (exact ratios such as 4
    of 5 included) it agrees with the plain Jaccard definition every time."""
    rng = random.Random(7)
    vocabulary = [f"w{i}" for i in range(40)]
    checked = skipped = 0
    for _ in range(20_000):
        a = frozenset(rng.sample(vocabulary, rng.randint(0, 12)))
        b = frozenset(rng.sample(vocabulary, rng.randint(0, 12)))
        threshold = rng.choice([0.0, 0.25, 0.5, 0.8, 0.8 + 1e-9, 1.0, 1.01, rng.random()])
        plain = (len(a & b) / len(a | b) if a and b else 0.0) >= threshold
        assert _alike(a, b, threshold) == plain, (sorted(a), sorted(b), threshold)
        checked += 1
        skipped += min(len(a), len(b)) < threshold * max(len(a), len(b))
    assert skipped > checked // 4  # the bound is exercised, not just the fall-through
    four_of_five = frozenset("abcd"), frozenset("abcde")
    assert _alike(*four_of_five, 0.8) and not _alike(*four_of_five, 0.8 + 1e-9)


def test_search_diversifies_near_identical_entries(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    same = "Hoy en la playa de Tarifa con mucho viento de levante y las cometas de kitesurf."
    rows = [
        {"entry_id": f"{project}/dup{i}", "project_id": project, "author": owner, "text": same + " " * i}
        for i in range(5)
    ]
    rows.append(
        {
            "entry_id": f"{project}/other",
            "project_id": project,
            "author": owner,
            "text": "Surf en Bolonia al atardecer, con viento suave y muchas olas.",
        }
    )
    assert not ingest(rows).errors

    def top3(diversify: bool) -> list[str]:
        resp = hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=owner),
            "playa con viento y cometas",
            Scope(project_id=project),
            SearchOptions(k=3, diversify=diversify),
        )
        return [r.entry_id.rsplit("/", 1)[1] for r in resp.results]

    plain, diverse = top3(False), top3(True)
    assert "other" not in plain
    assert "other" in diverse and diverse[0] == plain[0]
