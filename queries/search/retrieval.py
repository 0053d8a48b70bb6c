"""The retrieve stage: every channel of queries/search/channel_set.py that the question wants, phase by phase (those
of one phase side by side: the first on the request's own thread, the others in the pool), relaxing the question's
own constraints while they leave nothing. Each channel returns hits of entries the viewer may see; fusion is the
next stage."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from contextvars import copy_context
from dataclasses import dataclass, replace

from queries.search.channel import Channel, ChannelAsk, Found, Phase, Want
from queries.search.early_vector import EarlyVector
from queries.search.fusion import Hit
from queries.search.query_constraints import SoftConstraints
from queries.search.question import Question
from queries.search.run import SEARCH_POOL, SearchRun


@dataclass
class Retrieved:
    """Each channel's hits in fusion order, the best chunk of each dense hit, the constraints they met and the
    relaxations that took to find anything."""

    hits: dict[str, list[Hit]]
    best_chunk: dict[str, str]
    soft: SoftConstraints
    relaxed: list[str]


def retrieve(run: SearchRun, question: Question, early: EarlyVector | None, channels: Sequence[Channel]) -> Retrieved:
    relaxed: list[str] = []
    soft = question.parsed.constraints
    while True:
        hits, best_chunk = run_channels(run, question, soft, early, channels)
        if any(hits.values()) or soft.empty:
            return Retrieved(hits, best_chunk, soft, relaxed)
        relaxed.append(soft.next_relaxation())
        soft = soft.relaxed(relaxed[-1])


def run_channels(
    run: SearchRun,
    question: Question,
    soft: SoftConstraints,
    early: EarlyVector | None,
    channels: Sequence[Channel],
) -> tuple[dict[str, list[Hit]], dict[str, str]]:
    """Each wanted channel's hits under `soft`, and the best chunk of each hit that has one."""
    options = run.options
    ask = ChannelAsk(
        run,
        question.parsed,
        soft,
        {**question.scope, **soft.params()},
        options.channels or (),
        max(options.candidates_per_channel, options.k),
        early,
    )
    found: dict[str, Found] = {}
    for phase in Phase:
        ask = replace(ask, found={name: f.hits for name, f in found.items()})
        members = [c for c in channels if c.phase == phase]
        wants = [(c, c.wanted(ask)) for c in members]
        _side_by_side(ask, [c for c, w in wants if w is Want.NOW], found)
        if not any(f.hits for f in found.values()):
            _side_by_side(ask, [c for c, w in wants if w is Want.IF_NOTHING], found)
    hits = {c.name: found[c.name].hits for c in channels if c.name in found}
    best_chunk: dict[str, str] = {}
    for c in channels:
        for entry_id, chunk in found[c.name].best_chunk.items() if c.name in found else ():
            best_chunk.setdefault(entry_id, chunk)
    return hits, best_chunk


def _side_by_side(ask: ChannelAsk, channels: list[Channel], found: dict[str, Found]) -> None:
    """The first channel on this thread (the dense one embeds the query meanwhile), the others in the pool."""
    if not channels:
        return
    futures: list[tuple[Channel, Future[Found | None]]] = [
        (c, SEARCH_POOL.submit(copy_context().run, c.run, ask)) for c in channels[1:]
    ]
    first = channels[0].run(ask)
    if first is not None:
        found[channels[0].name] = first
    for c, future in futures:
        result = future.result()
        if result is not None:
            found[c.name] = result
