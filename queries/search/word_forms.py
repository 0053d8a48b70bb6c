"""Word forms: a question's "cook" meets a message's "cooking", "dishes" meets "dish", "ciudades" meets "ciudad".

People ask with one inflection and wrote another. Lexical coverage (the ranker's `cov` fact) counts a query word as
present when any of its regular forms is: plural -s/-es/-ies (English, Spanish, French), -ed/-ing with a doubled
consonant or a silent e (English). The forms are generated from the query word, so the test in Cypher is a few
exact-word lookups in the entry's folded words (`ft_terms`) and the test in Python a few set lookups: both give the
same answer for the same words. Deliberately conservative: no verb tables, no derivation (-ly, -er, -tion), a silent
e only where the word shows one ("plan" is not "plane"), words that end like a plural and are not one (`INVARIANT`)
left alone. Folded (lower-case, unaccented) words only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

_VOWELS = frozenset("aeiou")
MIN_KEY = 3  # a word is bent only if what is left has at least this many letters
# Words that end like a plural and are not one (folded): they stand for themselves only.
INVARIANT = frozenset(
    "news series species lens always perhaps thus plus yes this towards lunes martes miercoles jueves viernes "
    "dos tres seis crisis analisis tesis virus campus bonus atlas pues entonces mas tras antes despues".split()
)


def _undouble(base: str) -> str:
    """Undo the consonant English doubles before -ed/-ing ("stopp" of "stopping" -> "stop"); "fall", "kiss" and
    "add" keep theirs (never l, s or a vowel)."""
    if len(base) >= 4 and base[-1] == base[-2] and base[-1] not in _VOWELS and base[-1] not in "lsz":
        return base[:-1]
    return base


def _one_short_vowel(k: str) -> bool:
    """One syllable ending consonant-vowel-consonant ("plan", "stop"): English doubles its last letter before
    -ed/-ing. "visit" and "open" do not."""
    groups = len(re.findall(r"[aeiou]+", k))
    return (
        groups == 1 and k[-1] not in _VOWELS and k[-1] not in "lswxyh" and k[-2] in _VOWELS and k[-3:-2] not in "aeiou"
    )


def _base(word: str) -> tuple[str, bool | None]:
    """The word without its inflection, and whether that base ends in a silent e: True ("hopes" -> "hope"), False
    ("plans", "planning" -> "plan": a doubled consonant never follows one), None when -ed/-ing hid it ("cooked" may
    come from "cook" or "cooke")."""
    n = len(word)
    if n <= MIN_KEY or not word.isalpha() or word in INVARIANT:
        return word, False
    if word.endswith(("ies", "ied")) and n - 3 >= MIN_KEY:
        return word[:-2], False
    for ending in ("ings", "ing", "ed"):
        if word.endswith(ending) and n - len(ending) >= MIN_KEY:
            stem = word[: -len(ending)]
            base = _undouble(stem)
            return base, (False if base != stem or base.endswith("e") else None)
    if word.endswith("es") and n - 2 >= MIN_KEY and word[-3] in "sxzh":
        return word[:-2], False
    if word.endswith("es") and n - 2 >= MIN_KEY and word[-3] in "dlnr" and word[-4] in _VOWELS:
        return word[:-2], None  # ciudades, canciones, flores (a Spanish plural after a consonant), or stores, rules
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and n - 1 >= MIN_KEY:
        word = word[:-1]
    return word, word.endswith("e")


def key(word: str) -> str:
    """What every regular form of `word` shares: the word without its inflection, a final e dropped and a final y
    read as i (so "make", "makes" and "making" share "mak", "city" and "cities" share "citi", "movie" and "movies"
    share "movi")."""
    return _key_of(_base(word)[0])


def _key_of(base: str) -> str:
    if len(base) > MIN_KEY and base.endswith("e"):
        base = base[:-1]
    if len(base) > MIN_KEY and base.endswith("y"):
        base = base[:-1] + "i"
    return base


@lru_cache(maxsize=4096)
def forms(word: str) -> tuple[str, ...]:
    """`word` first, then its regular forms: words built from its key with a plural or -ed/-ing ending whose key
    is the same, with the silent e where the word shows one and without it where it shows none ("plan" is not
    "plane"). Some are not words ("cookes"): they match nothing."""
    if len(word) < MIN_KEY or not word.isalpha() or word in INVARIANT:
        return (word,)
    base, silent_e = _base(word)
    k = _key_of(base)
    if k.endswith("i") and len(k) > MIN_KEY:
        stem = k[:-1] + "y"
        candidates = [stem, stem + "s", stem + "ed", stem + "ing", k + "es", k + "ed", k + "e"]
    else:
        candidates = []
        if silent_e is not False:
            candidates += [k + "e", k + "es", k + "ed", k + "ing"]
        if silent_e is not True:
            candidates += [k, k + "s"]
            if k[-1] in "sxzh" or (len(k) > MIN_KEY and k[-1] in "dlnr" and k[-2] in _VOWELS):
                candidates.append(k + "es")
            if _one_short_vowel(k):
                candidates += [k + k[-1] + "ing", k + k[-1] + "ed"]  # "planning", not "planing"
            elif len(k) > MIN_KEY:
                candidates += [k + "ing", k + "ings", k + "ed"]
    out = [word]
    for c in candidates:
        if c not in out and key(c) == k:
            out.append(c)
    return tuple(out)


def present(terms: Iterable[str], words: set[str]) -> set[str]:
    """The `terms` one of whose forms is among `words` (an entry's folded words)."""
    return {t for t in terms if any(f in words for f in forms(t))}
