"""`fold` and `words`: their fast paths (a translation table, a small regular expression for Latin accents, `split`
for ASCII) must give exactly what the plain definitions give."""

from __future__ import annotations

import random
import sys
import unicodedata

from graph import textnorm
from graph.textnorm import fold, words


def reference(text: str) -> str:
    """What fold means: casefold, NFKD, every character with a combining class dropped."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def test_the_table_holds_every_combining_code_point_of_this_python() -> None:
    every = {cp for cp in range(sys.maxunicode + 1) if unicodedata.combining(chr(cp))}
    assert every, "no combining marks at all: the scan is wrong"
    assert every == set(textnorm._MARKS), sorted(every ^ set(textnorm._MARKS))[:10]


def test_fold_agrees_with_the_reference_on_accented_and_random_text() -> None:
    samples = [
        "Berlín",
        "ÁRBOL Ñandú",
        "Straße",
        "ﬁesta",
        "Ελληνικά τόνος",
        "Zoë naïve café",
        "ǅemal",
        "a\u0301\u0327b",
        "\U0001d165\u0300x",
        "日本語のテキスト",
        "plain ascii",
    ]
    assert fold("Berlín") == "berlin" and fold("Straße") == "strasse"
    rng = random.Random(7)
    pool = [
        chr(cp)
        for cp in (
            *range(0x20, 0x250),
            *range(0x300, 0x370),
            *range(0x370, 0x500),
            *textnorm._MARKS,
            *range(0x1E00, 0x1F00),
            0xFB01,
            0x1D165,
            0x10400,
            0x1F600,
        )
    ]
    samples += ["".join(rng.choice(pool) for _ in range(rng.randint(1, 40))) for _ in range(2000)]
    for text in samples:
        assert fold(text) == reference(text), repr(text)


def _latin_samples(n: int) -> list[str]:
    """Text that takes the fast paths: Latin letters with accents and marks below U+0370, Spanish and French
    punctuation, digits and underscores, sometimes a character from further up (which must send it the long way)."""
    rng = random.Random(11)
    pool = [
        chr(cp)
        for cp in (
            *range(0x20, 0x7F),
            *range(0xA0, 0x250),
            *range(0x300, 0x370),
            0x2014,
            0x2026,
            0x201C,
            0x201D,
            0x00AB,
            0x00BB,
            0x00BF,
            0x00A1,
            0x034F,
        )
    ]
    rare = [chr(cp) for cp in (0x0483, 0x0591, 0x05B0, 0x0301, 0x1DC0, 0x20D0, 0xFE20, 0x1D165, 0x03B1, 0x0430)]
    out = []
    for _ in range(n):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(1, 60)))
        if rng.random() < 0.2:
            cut = rng.randint(0, len(text))
            text = text[:cut] + rng.choice(rare) + text[cut:]
        out.append(text)
    return out


def test_fold_takes_the_latin_path_exactly() -> None:
    samples = [
        "Qu\u00e9 d\u00eda m\u00e1s largo",
        "¿Dónde está «el piso»?",
        "a\u034fb\u0301",
        "cafe\u0301s",
        "ça va, Noël — fin",
        "Ελληνικά",
        "Москва\u0301",
    ] + _latin_samples(3000)
    for text in samples:
        assert fold(text) == reference(text), repr(text)


def test_words_are_the_word_characters_of_the_folded_text() -> None:
    samples = [
        "Hoy, en la playa de Tarifa... con 2 cometas_rojas!",
        "¿Qué día? «Ayer» — dijo.",
        "tab\there\x1cfs",
        "l'été à Paris",
        "日本語 テキスト",
        "",
    ] + _latin_samples(3000)
    for text in samples:
        assert words(text) == textnorm._WORD.findall(reference(text)), repr(text)
