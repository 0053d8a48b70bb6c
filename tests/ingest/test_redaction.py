"""Names are redacted the way they are matched: whole words, case and accents ignored, any separator between
words; the longest name wins and the count says how many were replaced."""

from __future__ import annotations

import unicodedata

from ingest.forget import redact_record
from ingest.redaction import MARK, name_pattern, redact


def test_case_and_accents_never_matter_and_words_stay_whole() -> None:
    pattern = name_pattern(["Inés Peña"])
    assert redact("ines pena vino; INÉS  PEÑA no; Inés-Peña sí.", pattern) == (f"{MARK} vino; {MARK} no; {MARK} sí.", 3)
    assert redact("Inésa Peñas y Ines Penalva", pattern) == ("Inésa Peñas y Ines Penalva", 0)


def test_decomposed_accents_are_replaced_with_their_letter() -> None:
    text = unicodedata.normalize("NFD", "Vi a José ayer")
    assert redact(text, name_pattern(["Jose"])) == (f"Vi a {MARK} ayer", 1)


def test_the_longest_name_wins_and_short_names_are_ignored() -> None:
    pattern = name_pattern(["Ana", "Ana María", "A"])
    assert redact("Ana María y Ana; A secas.", pattern) == (f"{MARK} y {MARK}; A secas.", 2)
    assert name_pattern(["A", " "]) is None
    assert redact("nada", None) == ("nada", 0)


def test_a_record_loses_the_names_it_lists_and_keeps_what_places_it() -> None:
    stored = {
        "entry_id": "p/Ana",
        "project_id": "p",
        "author": "Ana",
        "period": "Con Ana en Roma",
        "text": "Ana llegó.",
        "title": None,
        "persons": ["Ana", "Pep"],
        "places": ["Casa de Ana"],
        "tags": ["ana"],
        "notes": {"who": ["Ana", 3]},
    }
    new, n = redact_record(stored, name_pattern(["Ana"]))
    assert n == 5
    assert new == {
        **stored,
        "text": f"{MARK} llegó.",
        "persons": ["Pep"],
        "places": [f"Casa de {MARK}"],
        "tags": [],
        "notes": {"who": [MARK, 3]},
    }
