"""The web app's words, one module per page or concern; each maps a key to its Spanish, English and French."""

from api.web.words import chapters, common, entries, home, people, search

Words = dict[str, tuple[str, str, str]]


def _merged(*parts: Words) -> Words:
    """One table; a key defined by two modules is an error at import, never a silent override."""
    merged: Words = {}
    for part in parts:
        clash = merged.keys() & part.keys()
        if clash:
            raise RuntimeError(f"a word defined twice: {sorted(clash)}")
        merged.update(part)
    return merged


STRINGS = _merged(common.WORDS, search.WORDS, people.WORDS, entries.WORDS, chapters.WORDS, home.WORDS)
