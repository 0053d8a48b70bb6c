"""Word forms (queries/search/word_forms.py): a query word meets its regular inflections and nothing else."""

from __future__ import annotations

import pytest

from queries.search.word_forms import forms, key, present


@pytest.mark.parametrize(
    ("asked", "written"),
    [
        ("cook", "cooking"),
        ("cooking", "cooked"),
        ("dish", "dishes"),
        ("hobbies", "hobby"),
        ("city", "cities"),
        ("movie", "movies"),
        ("played", "play"),
        ("studies", "studying"),
        ("stop", "stopped"),
        ("dance", "dancing"),
        ("painting", "paintings"),
        ("box", "boxes"),
        ("ciudades", "ciudad"),
        ("viaje", "viajes"),
        ("canciones", "cancion"),
        ("amigo", "amigos"),
        ("plan", "planning"),
        ("visit", "visited"),
        ("store", "stores"),
        ("care", "caring"),
    ],
)
def test_a_word_meets_its_inflection_both_ways(asked: str, written: str) -> None:
    assert written in forms(asked) and asked in forms(written)
    assert key(asked) == key(written)


@pytest.mark.parametrize(
    ("asked", "other"),
    [
        ("car", "care"),
        ("car", "cares"),
        ("run", "rune"),
        ("plan", "plane"),
        ("plane", "planning"),
        ("visit", "visitted"),
        ("class", "clas"),
        ("bus", "bu"),
        ("tennis", "tenni"),
        ("news", "new"),
    ],
)
def test_short_and_s_ending_words_are_not_bent_into_others(asked: str, other: str) -> None:
    assert other not in forms(asked)


def test_the_word_comes_first_and_forms_are_few() -> None:
    for word in ("cook", "hobbies", "ciudades", "stop", "año", "x1", "ok"):
        found = forms(word)
        assert found[0] == word and len(found) == len(set(found)) <= 10
    assert forms("x1") == ("x1",) and forms("ok") == ("ok",)


def test_present_is_the_terms_one_of_whose_forms_is_written() -> None:
    written = {"she", "was", "cooking", "pasta", "for", "the", "kids"}
    assert present(["cook", "kid", "car", "pasta", "dish"], written) == {"cook", "kid", "pasta"}
