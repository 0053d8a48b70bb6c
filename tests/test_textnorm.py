"""`fold`: one translation table instead of a test per character must strip exactly the combining marks."""

from __future__ import annotations

import random
import sys
import unicodedata

from graph import textnorm
from graph.textnorm import fold


def reference(text: str) -> str:
    """What fold has always meant: casefold, NFKD, every character with a combining class dropped."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def test_the_table_holds_every_combining_code_point_of_this_python() -> None:
    every = {cp for cp in range(sys.maxunicode + 1) if unicodedata.combining(chr(cp))}
    assert every, "no combining marks at all: the scan is wrong"
    assert every == set(textnorm._MARKS), sorted(every ^ set(textnorm._MARKS))[:10]


def test_fold_agrees_with_the_reference_on_accented_and_random_text() -> None:
    samples = ["Berlín", "ÁRBOL Ñandú", "Straße", "ﬁesta", "Ελληνικά τόνος", "Zoë naïve café", "ǅemal",
               "a\u0301\u0327b", "\U0001d165\u0300x", "日本語のテキスト", "plain ascii"]
    assert fold("Berlín") == "berlin" and fold("Straße") == "strasse"
    rng = random.Random(7)
    pool = [chr(cp) for cp in (*range(0x20, 0x250), *range(0x300, 0x370), *range(0x370, 0x500), *textnorm._MARKS,
                               *range(0x1E00, 0x1F00), 0xFB01, 0x1D165, 0x10400, 0x1F600)]
    samples += ["".join(rng.choice(pool) for _ in range(rng.randint(1, 40))) for _ in range(2000)]
    for text in samples:
        assert fold(text) == reference(text), repr(text)
