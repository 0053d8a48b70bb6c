"""Word forms: a question's "cook" meets a message's "cooking", "dishes" meets "dish", "ciudades" meets "ciudad".

People ask with one inflection and wrote another. Lexical coverage (the ranker's `cov` fact) counts a query word as
present when any of its regular forms is: plural -s/-es/-ies (English, Spanish, French), -ed/-ing with a doubled
consonant or a dropped e (English). The forms are generated from the query word, so the test in Cypher is a few
exact-word lookups in the entry's folded words (`ft_terms`) and the test in Python a few set lookups: both give the
same answer for the same words. Deliberately conservative: no verb tables, no derivation (-ly, -er, -tion), nothing
shorter than four letters, so "bus" stays "bus" and names are not bent. Folded (lower-case, unaccented) words only.
"""

from __future__ import annotations

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


def key(word: str) -> str:
    """What every regular form of `word` shares: the word without its inflection, a final e dropped and a final y
    read as i (so "make", "makes" and "making" share "mak", "city" and "cities" share "citi", "movie" and "movies"
    share "movi")."""
    n = len(word)
    if n <= MIN_KEY or not word.isalpha() or word in INVARIANT:
        return word
    base = word
    if word.endswith(("ies", "ied")) and n - 3 >= MIN_KEY:
        base = word[:-2]
    elif word.endswith("ings") and n - 4 >= MIN_KEY:
        base = _undouble(word[:-4])
    elif word.endswith("ing") and n - 3 >= MIN_KEY:
        base = _undouble(word[:-3])
    elif word.endswith("ed") and n - 2 >= MIN_KEY:
        base = _undouble(word[:-2])
    elif word.endswith("es") and n - 2 >= MIN_KEY and word[-3] in "sxzh":
        base = word[:-2]
    elif word.endswith("es") and n - 2 >= MIN_KEY and word[-3] in "dlnr" and word[-4] in _VOWELS:
        base = word[:-2]  # ciudades, canciones, animales, flores: a Spanish plural after a consonant
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and n - 1 >= MIN_KEY:
        base = word[:-1]
    if len(base) > MIN_KEY and base.endswith("e"):
        base = base[:-1]
    if len(base) > MIN_KEY and base.endswith("y"):
        base = base[:-1] + "i"
    return base


@lru_cache(maxsize=4096)
def forms(word: str) -> tuple[str, ...]:
    """`word` first, then its regular forms: every word built from its key with a plural or -ed/-ing ending whose
    key is the same. Some are not words ("cooke"): they match nothing."""
    k = key(word)
    if len(word) < MIN_KEY or not word.isalpha() or word in INVARIANT:
        return (word,)
    if len(k) <= MIN_KEY:  # "car" is not "care", nor "run" "rune": a short word takes its plural only
        if word.endswith("es") and len(word) >= 5 and word[-3] in "sxzh":
            return (word, word[:-2])
        if word.endswith("s") and len(word) >= 4 and not word.endswith("ss"):
            return (word, word[:-1])
        return (word, word + ("es" if word[-1] in "sxzh" else "s"))
    if k.endswith("i"):
        stem = k[:-1] + "y"
        candidates = [stem, stem + "s", stem + "ed", stem + "ing", k + "es", k + "ed", k + "e"]
    else:
        candidates = [k + s for s in ("", "s", "es", "ed", "ing", "ings", "e")] + [k + "es", k + "ed"]
        candidates += [k + "e" + s for s in ("s", "d")]
        if len(k) >= 3 and k[-1] not in _VOWELS and k[-1] not in "lswxy" and k[-2] in _VOWELS and k[-3] not in _VOWELS:
            candidates += [k + k[-1] + "ing", k + k[-1] + "ed"]
    out = [word]
    for c in candidates:
        if c not in out and key(c) == k:
            out.append(c)
    return tuple(out)


def present(terms: Iterable[str], words: set[str]) -> set[str]:
    """The `terms` one of whose forms is among `words` (an entry's folded words)."""
    return {t for t in terms if any(f in words for f in forms(t))}
