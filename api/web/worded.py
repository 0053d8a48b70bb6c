"""A form's refusal said in a sentence of the page's language, never the API's English detail: the key of its words,
what to name in them (a kind named by its words, "a place"), and the API's status for the page that says it."""

from __future__ import annotations

from collections.abc import Callable


class WordedRefusal(Exception):
    """A change refused before (or instead of) anything changed."""

    def __init__(self, status: int, words: str, **named: str) -> None:
        super().__init__(words)
        self.status, self.words, self.named = status, words, named

    def say(self, t: Callable[[str], str]) -> str:
        named = {k: (t(f"a_{v}") if k.endswith("kind") else v) for k, v in self.named.items()}
        return t(self.words).format(**named)
