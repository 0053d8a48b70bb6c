"""Reciprocal Rank Fusion (k = 60), keeping each channel's rank and score for `score_breakdown`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from graph.textnorm import fold, words
from queries.search import word_forms


@dataclass(frozen=True)
class Hit:
    id: str
    score: float


@dataclass
class Fused:
    id: str
    score: float
    channels: dict[str, dict[str, float]] = field(default_factory=dict)


def rrf(lists: Mapping[str, Sequence[Hit]], k: int = 60, weights: Mapping[str, float] | None = None) -> list[Fused]:
    """score(d) = sum over channels c of w_c / (k + rank_c(d)), ranks from 1; ties broken by id for stability."""
    fused: dict[str, Fused] = {}
    for channel, hits in lists.items():
        weight = 1.0 if weights is None else weights.get(channel, 1.0)
        for rank, hit in enumerate(hits, start=1):
            item = fused.setdefault(hit.id, Fused(hit.id, 0.0))
            item.score += weight / (k + rank)
            item.channels[channel] = {"rank": rank, "score": round(hit.score, 6)}
    return sorted(fused.values(), key=lambda f: (-f.score, f.id))


# Function words of es/en/fr: they say nothing about whether keywords matched the topic.
STOPWORDS = frozenset(
    fold(w)
    for w in """
the a an of to in on at for and or is are was were did does do what when where who whom which how why with by from
that this these those it its as be been has have had his her their they she he you your my me we our us i not
el la los las lo de del y o u que qué en un una unos unas por para con es son fue fueron ser se su sus al como
cuál cuáles cuándo dónde quién quiénes cómo cuánto cuántos cuánta cuántas le les me mi mis te tu tus nos
le la les du des et est sont était un une pour par avec qui quoi quand où comment ce cette ces son sa ses au aux
""".split()
)

# Channel weights (RRF stays k = 60; a weight scales a channel's 1/(k + rank) votes). Measured on the dev sets,
# written down in docs/BENCHMARKS.md.
DENSE_WEIGHT_CONVERSATIONAL = 3.0  # a question of 6+ words: meaning matters more than exact words
DENSE_WEIGHT_SHORT = 0.5  # 1-2 words: names and keywords lead, dense still finds synonyms
FULLTEXT_WEAK_MATCH = 0.3  # keywords barely matched the best keyword hit (e.g. Spanish question, English text)
WEAK_COVERAGE = 0.3
STRUCTURED_WEIGHT_DATED = 2.0  # the query named a date: entries of that time, ranked by its people and places
THREAD_WEIGHT = 0.3  # neighbours in a conversation of the best dense hits: fill, never lead


def coverage_terms(query: str) -> list[str]:
    """The query's content words (accent- and case-folded, repeats kept) that lexical coverage looks for."""
    return [t for t in words(query) if len(t) >= 3 and t not in STOPWORDS]


def name_terms(query: str) -> list[str]:
    """The question's capitalised content words past the first of each sentence, folded: the names it asks about
    ("What did Kevin play?" -> kevin), whether or not the project knows them."""
    out: list[str] = []
    for sentence in re.split(r"[.?!¿¡]+", query):
        tokens = sentence.split()
        for raw in tokens[1:]:
            token = raw.strip("\"'«»“”‘’()[],;:")
            if token[:1].isupper() and not token.isupper() or (token.isupper() and len(token) > 1 and token.isalpha()):
                out += [t for t in words(token) if len(t) >= 3 and t not in STOPWORDS]
    return list(dict.fromkeys(out))


def coverage(terms: list[str], present: set[str]) -> float:
    """Share of `terms` (from `coverage_terms`) among the words `present` in a text."""
    return sum(1 for t in terms if t in present) / len(terms) if terms else 0.0


def lexical_coverage(query: str, text: str) -> float:
    """Share of the query's content words found in `text` (accent- and case-folded), in any of their forms."""
    terms = coverage_terms(query)
    return coverage(terms, word_forms.present(terms, set(words(text)))) if terms else 0.0


@dataclass(frozen=True)
class Cue:
    """What a channel's RRF weight may depend on, read once per search: how many words the question has, whether
    the keyword channel's best hit shares few of its content words, and whether its date still constrains."""

    words: int
    weak_keywords: bool = False
    dated: bool = False

    @classmethod
    def of(cls, query: str, top_keyword_text: str | None, dated: bool = False) -> Cue:
        n = len(query.split())
        weak = top_keyword_text is not None and n >= 3 and lexical_coverage(query, top_keyword_text) < WEAK_COVERAGE
        return cls(n, weak, dated)


def dense_weight(cue: Cue) -> float:
    """Short queries lean on keywords, long conversational ones on meaning."""
    return DENSE_WEIGHT_SHORT if cue.words < 3 else (DENSE_WEIGHT_CONVERSATIONAL if cue.words >= 6 else 1.0)


def keyword_weight(cue: Cue) -> float:
    """A keyword list whose best hit shares few content words with the query is trusted less."""
    return FULLTEXT_WEAK_MATCH if cue.weak_keywords else 1.0


def structured_weight(cue: Cue) -> float:
    """A query whose date still constrains the search (not relaxed) leans on structure."""
    return STRUCTURED_WEIGHT_DATED if cue.dated else 1.0
