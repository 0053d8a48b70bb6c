"""The retrieve stage: every channel of queries/search/channel_set.py that the question wants, relaxing the question's
own constraints while they leave nothing. A question naming both a time and a person that nothing visible meets
together keeps its time when an entry of that time holds the person's name in its own words (the name a preference,
not a filter: "Marta en el verano de 2006" finds the summer entry that says "Marta" without linking her); otherwise
the time goes first. The question's own channels run side by side (the first on the request's
own thread, the others in the pool); a seeded channel starts in the pool as soon as the channels it starts from have
answered. Each channel returns hits of entries the viewer may see; fusion is the
next stage."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from contextvars import copy_context
from dataclasses import dataclass, replace

from graph.textnorm import words
from graph.visibility import CAN_SEE, visibility_params
from queries.search.channel import Channel, ChannelAsk, Found, Want
from queries.search.early_vector import EarlyVector
from queries.search.fusion import Hit
from queries.search.query_constraints import SoftConstraints
from queries.search.question import Question
from queries.search.run import SEARCH_POOL, SearchRun

VISIBLE_TEXTS = f"""
UNWIND $ids AS id
MATCH (e:Entry {{id: id}}) WHERE {CAN_SEE}
RETURN coalesce(e.title, '') + ' ' + coalesce(e.body, '') AS text
"""


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
        step = soft.next_relaxation()
        if step == "temporal" and soft.entity_ids and soft.people_named:
            kept = _name_as_words(run, question, soft, early, channels)
            if kept is not None:
                return kept
        relaxed.append(step)
        soft = soft.relaxed(relaxed[-1])


def _name_as_words(
    run: SearchRun, question: Question, soft: SoftConstraints, early: EarlyVector | None, channels: Sequence[Channel]
) -> Retrieved | None:
    """The question's time without its people, kept when an entry found there holds one of their names in its title
    or text (read from entries the channels found, so visible ones); None otherwise."""
    dated_only = replace(soft, entity_ids=())
    hits, best_chunk = run_channels(run, question, dated_only, early, channels)
    ids = list(dict.fromkeys(h.id for found in hits.values() for h in found))
    if not ids:
        return None
    names = [f" {' '.join(words(key))} " for entity, key in soft.people_named if entity in soft.entity_ids]
    texts = run.graph.read(VISIBLE_TEXTS, {"ids": ids, **visibility_params(run.viewer)})
    if not any(name in f" {' '.join(words(row['text']))} " for row in texts for name in names if name.strip()):
        return None
    return Retrieved(hits, best_chunk, dated_only, ["entities"])


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
        question.scope.under(soft),
        options.channels or (),
        max(options.candidates_per_channel, options.k),
        early,
        dense_limit=max(options.dense_candidates, options.k),
    )
    found: dict[str, Found] = {}
    wants = {c.name: c.wanted(ask) for c in channels if not c.seeds}
    now = [c for c in channels if wants.get(c.name) is Want.NOW]
    later = [c for c in channels if wants.get(c.name) is Want.IF_NOTHING]
    seeded = _Seeded(ask, [c for c in channels if c.seeds])
    running = [(c, SEARCH_POOL.submit(copy_context().run, c.run, ask)) for c in now[1:]]
    if now:
        _keep(found, now[0], now[0].run(ask))
    seeded.start_ready(found, unsettled={c.name for c, _ in running} | {c.name for c in later})
    for c, future in running:
        _keep(found, c, future.result())
    if later and not any(f.hits for f in found.values()):
        seeded.start_ready(found, unsettled={c.name for c in later})
        _side_by_side(ask, later, found)
    seeded.start_ready(found, unsettled=set())
    seeded.collect(found)
    hits = {c.name: found[c.name].hits for c in channels if c.name in found}
    best_chunk: dict[str, str] = {}
    for c in channels:
        for entry_id, chunk in found[c.name].best_chunk.items() if c.name in found else ():
            best_chunk.setdefault(entry_id, chunk)
    return hits, best_chunk


def _side_by_side(ask: ChannelAsk, channels: list[Channel], found: dict[str, Found]) -> None:
    """The first channel on this thread (the dense one embeds the query meanwhile), the others in the pool."""
    futures = [(c, SEARCH_POOL.submit(copy_context().run, c.run, ask)) for c in channels[1:]]
    if channels:
        _keep(found, channels[0], channels[0].run(ask))
    for c, future in futures:
        _keep(found, c, future.result())


def _keep(found: dict[str, Found], channel: Channel, result: Found | None) -> None:
    if result is not None:
        found[channel.name] = result


class _Seeded:
    """The seeded channels of one search, each started in the pool as soon as the channels it starts from have
    answered (the thread channel beside the keyword and structured channels, once the dense one is in)."""

    def __init__(self, ask: ChannelAsk, channels: list[Channel]) -> None:
        self.ask = ask
        self.waiting = channels
        self.started: list[tuple[Channel, Future[Found | None]]] = []

    def start_ready(self, found: dict[str, Found], unsettled: set[str]) -> None:
        """Start each waiting channel none of whose seeds is still `unsettled` (running, or to run if nothing is
        found), and that wants to run given what its seeds found."""
        ready = [c for c in self.waiting if not set(c.seeds) & unsettled]
        if not ready:
            return
        ask = replace(self.ask, found={name: f.hits for name, f in found.items()})
        self.waiting = [c for c in self.waiting if c not in ready]
        for c in ready:
            if c.wanted(ask) is Want.NOW:
                self.started.append((c, SEARCH_POOL.submit(copy_context().run, c.run, ask)))

    def collect(self, found: dict[str, Found]) -> None:
        for c, future in self.started:
            _keep(found, c, future.result())
