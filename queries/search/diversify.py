"""Diversification: five near-identical entries should not fill the page.

Classic MMR trades relevance against vector similarity to what is already chosen. Here vectors carry each entry's
context (date, people, the previous turn of a conversation), so neighbouring turns look alike to them while being
different memories; and RRF scores are nearly flat across ranks. So redundancy is measured on the entries' own words
(Jaccard overlap of their word sets) and works as a band: a candidate at least `NEAR_DUPLICATE` alike to an entry
already on the page moves after every candidate that is not; everything else keeps the fused order.
"""

from __future__ import annotations

from collections.abc import Mapping

from graph.textnorm import words
from queries.search.fusion import Fused

NEAR_DUPLICATE = 0.8


def word_set(text: str) -> frozenset[str]:
    return frozenset(words(text))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    both = len(a & b)
    return both / (len(a) + len(b) - both)


def _alike(a: frozenset[str], b: frozenset[str], threshold: float) -> bool:
    """`_jaccard(a, b) >= threshold`, without intersecting two sets whose sizes alone rule it out: the overlap is at
    most the smaller set, and the union at least the larger (nearly every pair on a page differs that much)."""
    small, large = (len(a), len(b)) if len(a) <= len(b) else (len(b), len(a))
    if small < threshold * large * (1 - 1e-12):
        return False
    return _jaccard(a, b) >= threshold


def diversify(
    candidates: list[Fused], texts: Mapping[str, frozenset[str]], k: int, threshold: float = NEAR_DUPLICATE
) -> list[Fused]:
    """The fused order with near-duplicates of earlier picks deferred to the end."""
    chosen: list[Fused] = []
    deferred: list[Fused] = []
    seen: list[frozenset[str]] = []
    for cand in candidates:
        bag = texts.get(cand.id, frozenset())
        if any(_alike(bag, other, threshold) for other in seen):
            deferred.append(cand)
            continue
        chosen.append(cand)
        seen.append(bag)
    return (chosen + deferred)[:k]
