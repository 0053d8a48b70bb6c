"""Entities and authors in a query: the project's names and aliases matched as whole words, accent- and
case-insensitively, longest first, with small typos tolerated; and authorship phrases ("solo lo que escribió Pep").

Several entities sharing the matched words are all returned, marked ambiguous. Typos: single tokens of >= 5 letters
that are not words of the parser's word lists (word_lists.py) or plurals of the alias, rapidfuzz ratio >= 85 (difflib
without rapidfuzz).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from graph.textnorm import words
from inference.dates import temporal_words as tw
from inference.dates.temporal import DateCandidate
from inference.dates.text import QueryText, Token, select

from . import word_lists as wl
from .results import EntityMatch, KnownEntity

try:
    from rapidfuzz import fuzz as _fuzz
    from rapidfuzz import process as _process

    _HAVE_RAPIDFUZZ = True
except ImportError:  # pragma: no cover - exercised only without the optional dependency
    _HAVE_RAPIDFUZZ = False

FUZZY_MIN_LEN = 5
FUZZY_CUTOFF = 85.0

_ARTICLES = frozenset({"el", "la", "los", "las", "the", "le", "les", "l", "un", "una", "a", "an", "une"})
_TEMPORAL_WORDS = (
    set(tw.MONTHS)
    | set(tw.SEASONS)
    | set(tw.WEEKDAYS)
    | set(tw.UNITS)
    | set(tw.NUMBERS)
    | {w for k in tw.DECADE_WORDS for w in k.split()}
)
_NO_FUZZY = frozenset(
    wl.DANGLING
    | wl.QUESTION_WORDS
    | wl.CLITICS
    | wl.PAST_WORDS
    | wl.EMOTION_POSITIVE_WORDS
    | wl.EMOTION_NEGATIVE_WORDS
    | wl.EMOTION_INQUIRY
    | wl.NEGATORS
    | _TEMPORAL_WORDS
    | {w for ws in wl.LANGUAGE_WORDS.values() for w in ws}
)


@dataclass(frozen=True)
class EntityHit:
    """An entity mention over word tokens [i, j)."""

    i: int
    j: int
    entities: tuple[KnownEntity, ...]
    exact: bool
    display: str


class EntityMatcher:
    """Alias index built once per entity list, so each query costs a few dict lookups per token."""

    def __init__(self, entities: Iterable[KnownEntity]) -> None:
        self.entities = tuple(entities)
        index: dict[tuple[str, ...], dict[str, tuple[KnownEntity, str]]] = {}
        for ent in self.entities:
            for form in (ent.name, *ent.aliases):
                toks = tuple(words(form))
                if not toks:
                    continue
                variants = [toks]
                if ent.kind not in ("person", "place") and toks[0] in _ARTICLES and len("".join(toks[1:])) >= 3:
                    variants.append(toks[1:])
                for v in variants:
                    index.setdefault(v, {}).setdefault(ent.id, (ent, form))
        self._index = {k: tuple(v.values()) for k, v in index.items()}
        self._firsts = frozenset(k[0] for k in self._index)
        self._max = max((len(k) for k in self._index), default=0)
        self._fuzzy: dict[str, tuple[tuple[KnownEntity, str], ...]] = {
            k[0]: v for k, v in self._index.items() if len(k) == 1 and len(k[0]) >= FUZZY_MIN_LEN
        }
        self._fuzzy_keys = list(self._fuzzy)

    def find(self, toks: Sequence[str], joinable: Sequence[bool], blocked: frozenset[int]) -> list[EntityHit]:
        """All exact hits (longest per start) plus fuzzy single-token hits on uncovered tokens."""
        hits: list[EntityHit] = []
        covered: set[int] = set()
        n = len(toks)
        for i in range(n):
            if i in blocked or toks[i] not in self._firsts:
                continue
            for j in range(min(n, i + self._max), i, -1):
                if any(k in blocked for k in range(i, j)) or not all(joinable[k] for k in range(i, j - 1)):
                    continue
                owners = self._index.get(tuple(toks[i:j]))
                if owners:
                    hits.append(EntityHit(i, j, tuple(e for e, _ in owners), True, owners[0][1]))
                    covered.update(range(i, j))
                    break
        if not self._fuzzy_keys:
            return hits
        for i, tok in enumerate(toks):
            if i in covered or i in blocked or len(tok) < FUZZY_MIN_LEN or tok.isdigit() or tok in _NO_FUZZY:
                continue
            best = [k for k in self._fuzzy_best(tok) if tok not in (k + "s", k + "es")]
            if best:
                owners = tuple(o for key in best for o in self._fuzzy[key])
                unique = tuple({e.id: e for e, _ in owners}.values())
                hits.append(EntityHit(i, i + 1, unique, False, owners[0][1]))
        return hits

    def _fuzzy_best(self, tok: str) -> list[str]:
        if _HAVE_RAPIDFUZZ:
            found = _process.extract(tok, self._fuzzy_keys, scorer=_fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=None)
            scored = [(score, key) for key, score, _ in found]
        else:
            from difflib import SequenceMatcher

            scored = [(100.0 * SequenceMatcher(None, tok, k).ratio(), k) for k in self._fuzzy_keys]
            scored = [(s, k) for s, k in scored if s >= FUZZY_CUTOFF]
        if not scored:
            return []
        top = max(s for s, _ in scored)
        return [k for s, k in scored if s == top]


@lru_cache(maxsize=32)
def _cached_matcher(entities: tuple[KnownEntity, ...]) -> EntityMatcher:
    return EntityMatcher(entities)


def matcher_for(entities: Sequence[KnownEntity] | EntityMatcher) -> EntityMatcher:
    """Reuse a matcher per distinct entity tuple (an lru cache), or pass a prebuilt one through."""
    if isinstance(entities, EntityMatcher):
        return entities
    key = tuple(entities)
    try:
        return _cached_matcher(key)
    except TypeError:
        return EntityMatcher(key)


_AUTHOR_BEFORE = re.compile(
    r"(?<!\w)(?:(?:solo|solamente|unicamente)\s+)?(?:(?:las\s+|los\s+)?(?:entradas|notas|cosas|textos|recuerdos"
    r"|paginas)\s+)?(?:(?:lo|las|los|la|el)\s+)?que\s+(?:escribio|ha\s+escrito|habia\s+escrito|escribiera|anoto"
    r"|redacto)\s+$"
    r"|(?<!\w)(?:(?:solo|solamente|unicamente)\s+)?(?:(?:las\s+|los\s+)?(?:entradas|notas|textos|cosas|recuerdos)"
    r"\s+)?(?:escrit[oa]s?|redactad[oa]s?)\s+por\s+$"
    r"|(?<!\w)(?:(?:only|just)\s+)?(?:(?:the\s+)?(?:entries|notes|things|posts|stuff|memories)\s+)?(?:that\s+)?"
    r"(?:were\s+)?(?:written|authored)\s+by\s+$"
    r"|(?<!\w)(?:(?:seulement|uniquement|juste)\s+)?(?:(?:les\s+)?(?:entrees|notes|textes|souvenirs)\s+)?"
    r"(?:ce\s+qu'\s*|ce\s+que\s+)(?:a|avait)\s+ecrit\s+$"
    r"|(?<!\w)(?:(?:seulement|uniquement|juste)\s+)?(?:(?:les\s+)?(?:entrees|notes|textes|souvenirs)\s+)?"
    r"ecrit(?:e|s|es)?\s+par\s+$"
)
_AUTHOR_AROUND = re.compile(
    r"(?<!\w)(?:(?:solo|solamente|unicamente)\s+)?(?:lo|las\s+\w+|los\s+\w+)\s+que\s+$"
    r"|(?<!\w)(?:(?:only|just)\s+)?(?:what|whatever|the\s+(?:entries|notes|things)(?:\s+that)?)\s+$"
    r"|(?<!\w)(?:(?:seulement|uniquement|juste)\s+)?ce\s+que\s+$"
)
_AUTHOR_AFTER = re.compile(
    r"\s+(?:escribio|ha\s+escrito|habia\s+escrito|escribiera|wrote|has\s+written|had\s+written|writes"
    r"|(?:a|avait)\s+ecrit)(?!\w)"
)


Mention = tuple[EntityHit, tuple[int, int], list[int]]


def entity_mentions(
    toks: list[Token],
    tx: QueryText,
    matcher: EntityMatcher,
    tag_spans: list[tuple[int, int]],
    temporal: list[DateCandidate],
) -> tuple[list[Mention], list[DateCandidate]]:
    """Entity hits with their folded span and token indices.

    A capitalised exact entity name beats a bare month/season/holiday word ("qué dijo Julio" is a person, "de julio
    a septiembre" is a range); anything else overlapping a date loses to the date.
    """
    folded = tx.folded
    word_pos = [k for k, tok in enumerate(toks) if tok.word]
    joinable = [_joinable(folded[toks[a].end : toks[b].start]) for a, b in pairwise(word_pos)]
    blocked = frozenset(w for w, k in enumerate(word_pos) if any(a <= toks[k].start < b for a, b in tag_spans))
    hits = select(
        matcher.find([toks[k].text for k in word_pos], joinable, blocked),
        lambda h: (toks[word_pos[h.i]].start, toks[word_pos[h.j - 1]].end),
        lambda h: int(h.exact),
    )
    mentions: list[Mention] = []
    for h in hits:
        s, e = toks[word_pos[h.i]].start, toks[word_pos[h.j - 1]].end
        clash = [c for c in temporal if c.start < e and c.end > s]
        if clash and not (h.exact and all(c.weak for c in clash) and tx.slice(s, s + 1).isupper()):
            continue
        temporal = [c for c in temporal if c not in clash]
        mentions.append((h, (s, e), word_pos[h.i : h.j]))
    return mentions, temporal


def _joinable(gap: str) -> bool:
    """Words of one alias may be separated by spaces, apostrophes, hyphens or dots only."""
    return all(ch.isspace() or ch in "'-." for ch in gap)


def author_span(folded: str, s: int, e: int) -> tuple[int, int] | None:
    """Span of an authorship phrase around a person mention ("solo lo que escribió Pep", "what Pep wrote")."""
    window = folded[max(0, s - 60) : s]
    m = _AUTHOR_BEFORE.search(window)
    if m:
        return s - (len(window) - m.start()), e
    m = _AUTHOR_AROUND.search(window)
    after = _AUTHOR_AFTER.match(folded, e)
    if m and after:
        return s - (len(window) - m.start()), after.end()
    return None


def add_unique(bucket: list[EntityMatch], em: EntityMatch) -> None:
    for k, old in enumerate(bucket):
        if old.id == em.id:
            if old.ambiguous and not em.ambiguous:
                bucket[k] = em
            return
    bucket.append(em)
