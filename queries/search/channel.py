"""The one shape of a retrieval channel: what it is asked (`ChannelAsk`), what it answers (`Found`), and when it runs
(`seeds`, `Want`). The channels themselves are listed, in fusion order, in queries/search/channel_set.py; the
retrieve stage (queries/search/retrieval.py) runs whatever that list holds, so a new channel is one module and one
entry there."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from queries.search.early_vector import EarlyVector
from queries.search.fusion import Cue, Hit
from queries.search.query_constraints import Parsed, SoftConstraints
from queries.search.run import SearchRun
from queries.search.scope import SearchScope


class Want(Enum):
    NOW = "now"
    IF_NOTHING = "if_nothing"  # only when the question's other channels found nothing (a keyword query's dense)
    NO = "no"


@dataclass(frozen=True)
class ChannelAsk:
    """What every channel of one search is asked. `scope` holds the projects, the caller's filters, the viewer and the
    question's constraints (after any relaxation), and becomes parameters where the channel runs its statement;
    `found` the hits of the channels that ran before (the seeds of a seeded channel)."""

    run: SearchRun
    parsed: Parsed
    scope: SearchScope
    asked: tuple[str, ...]
    limit: int
    early: EarlyVector | None = None
    found: Mapping[str, list[Hit]] = field(default_factory=dict)
    dense_limit: int | None = None  # the depth of `dense` and `dense_next`, never below `limit`

    @property
    def dense_depth(self) -> int:
        return max(self.limit, self.dense_limit or 0)

    @property
    def text(self) -> str:
        return self.parsed.text_for_search

    @property
    def soft(self) -> SoftConstraints:
        return self.scope.soft

    @classmethod
    def of_text(cls, run: SearchRun, scope: SearchScope, text: str, limit: int) -> ChannelAsk:
        """An ask of `text` as it stands under `scope`'s constraints (one channel run on its own: tests, benches)."""
        parsed = Parsed(text, "balanced", scope.soft, [], {})
        return cls(run, parsed, scope, run.options.channels or (), limit)


@dataclass
class Found:
    """A channel's hits in rank order, and the best chunk of each hit that has one (its snippet)."""

    hits: list[Hit]
    best_chunk: dict[str, str] = field(default_factory=dict)


class Channel(Protocol):
    """`name` labels its hits (fusion, explain, the ranker's features); `asked_as` is the name a caller asks for it
        by (one name may bring a family: "dense" brings the sparse and next-model channels); `seeds` the channels whose
        hits it starts from (none: the question alone), whose hits its ask's `found` then holds; `by_default` whether a
        search that names no channel runs it; `weight` its RRF weight for this question (each channel declares its own,
    measured on the dev sets: docs/BENCHMARKS.md)."""

    name: str
    asked_as: str
    seeds: tuple[str, ...]
    by_default: bool

    def wanted(self, ask: ChannelAsk) -> Want: ...

    def weight(self, cue: Cue) -> float: ...

    def run(self, ask: ChannelAsk) -> Found | None:
        """None: the channel has nothing to say (it could not run), which differs from an empty list of hits."""
        ...
