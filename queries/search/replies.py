"""The message a conversation's turn answers, shown with it: a short reply ("yes!!", "that one") is read with its
question. It is the latest earlier turn by someone else among the few the viewer may see just before it, so within
the answerer's own burst; beyond that reach, or when the turn opens the conversation, there is none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

REACH = 5
"""How many visible turns before a turn are looked at: a burst of one speaker's messages rarely runs longer."""

SHOWN_CHARS = 280


@dataclass(frozen=True)
class RepliesTo:
    entry_id: str
    author_id: str | None
    text: str


def replies_to(author_id: str | None, before: list[dict[str, Any]]) -> RepliesTo | None:
    """`before`: the visible turns before this one, newest first (`DETAILS`)."""
    for turn in before:
        if turn["author_id"] != author_id and turn["author_id"] is not None:
            text = " ".join((turn["text"] or "").split())
            if len(text) > SHOWN_CHARS:
                text = text[: SHOWN_CHARS - 1].rsplit(" ", 1)[0] + "…"
            return RepliesTo(turn["id"], turn["author_id"], text)
    return None
