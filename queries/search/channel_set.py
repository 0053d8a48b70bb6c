"""The channels of the search, in fusion order: the one list that request validation, the CLI's choices, the API's
schema, the retrieve stage and explain derive from. A new channel is a module with a class of the `Channel` shape
(queries/search/channel.py) and its entry here."""

from __future__ import annotations

from collections.abc import Sequence

from queries.search.channel import Channel
from queries.search.dense_channel import DenseChannel, NextModelChannel, SparseChannel
from queries.search.graph_channel import GraphChannel
from queries.search.keyword_channel import KeywordChannel
from queries.search.structured import StructuredChannel
from queries.search.thread_channel import ThreadChannel

# Fusion order: ties in RRF and the ranker's first-seen candidate order follow it; a SEEDED channel comes after
# the channels that seed it.
CHANNELS: list[Channel] = [
    DenseChannel(),
    SparseChannel(),
    NextModelChannel(),
    KeywordChannel(),
    StructuredChannel(),
    ThreadChannel(),
    GraphChannel(),
]


def askable(channels: Sequence[Channel] | None = None) -> tuple[str, ...]:
    """The names a caller may ask for, in order."""
    return tuple(dict.fromkeys(c.asked_as for c in (CHANNELS if channels is None else channels)))


def asked_by_default(channels: Sequence[Channel] | None = None) -> tuple[str, ...]:
    """The names a search that asks for none runs."""
    return tuple(dict.fromkeys(c.asked_as for c in (CHANNELS if channels is None else channels) if c.by_default))


def asked(names: Sequence[str] | None) -> tuple[str, ...]:
    """The caller's channel names checked (a misspelt one silently dropped would search with fewer channels than
    asked), or the default ones."""
    if names is None:
        return asked_by_default()
    known = askable()
    unknown = sorted(set(names) - set(known))
    if unknown:
        choices = ", ".join(map(repr, known[:-1])) + f" or {known[-1]!r}" if len(known) > 1 else repr(known[0])
        raise ValueError(f"unknown channels {unknown}; expected {choices}")
    return tuple(names)
