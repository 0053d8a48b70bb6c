"""What a message calls its participants (ingest/addressing.py): introductions name the author, greetings and words
spoken to someone name the one other person the message lists; words people capitalise for other reasons, and
people talked about rather than spoken to, are not names given."""

from __future__ import annotations

import pytest

from ingest.addressing import Called, names_called

PAIR = ["Emi", "elise"]


@pytest.mark.parametrize(
    ("text", "author", "expected"),
    [
        ("Haha, totally forgot to introduce myself, I'm Kate. What's your name?", "Emi", [("Kate", "Emi", "intro")]),
        ("I’m Emily", "elise", [("Emily", "elise", "intro")]),
        ("Hola! Me llamo Pep y vivo en Gràcia", "Emi", [("Pep", "Emi", "intro")]),
        ("Hey Emily! What have you been up to today?", "Emi", [("Emily", "elise", "address")]),
        ("Thank you Kate, I really appreciate it!", "elise", [("Kate", "Emi", "address")]),
        ("I love non fiction. What about you Kate?", "elise", [("Kate", "Emi", "address")]),
        ("gracias, mamá", "elise", [("mamá", "Emi", "address")]),
    ],
)
def test_introductions_and_addresses_name_a_participant(
    text: str, author: str, expected: list[tuple[str, str, str]]
) -> None:
    assert names_called(text, author, PAIR) == [Called(*e) for e in expected]


@pytest.mark.parametrize(
    "text",
    [
        "I'm tired, see you Monday!",
        "I'm Italian, you know",
        "I went to Paris!",
        "I had dinner with Marta!",
        "Hey Christmas is coming",
        "Hi Emi",  # the name the export already gives
        "Happy Thanksgiving!",
    ],
)
def test_words_capitalised_for_other_reasons_and_people_talked_about_are_not_names(text: str) -> None:
    assert names_called(text, "elise", PAIR) == []


def test_an_address_needs_one_other_listed_person() -> None:
    """In a group (or with nobody listed) the one spoken to is not known from the message alone."""
    assert names_called("Hey Kate!", "elise", ["Emi", "elise", "Kevin"]) == []
    assert names_called("Hey Kate!", "elise", []) == []
    assert names_called("I'm Kate.", "Emi", []) == [Called("Kate", "Emi", "intro")], "an introduction needs no list"
