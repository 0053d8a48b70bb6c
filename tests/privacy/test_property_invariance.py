"""Privacy invariance on the real Neo4j: nothing a viewer can observe changes when entries that viewer may
not see are added, edited, narrowed or deleted. Not the ids, order, scores, snippets or counts of a search, not the
names linked in their own entries, not entity lists, not error codes.

Hypothesis draws small worlds (1-2 projects, members with random roles, entries with random author, intimacy, chapter,
date and conversation turn, persons from a small shared pool and text from a small shared vocabulary, an entity
declared by hand, a witness grant) and one viewer. Every read path of that viewer is snapshotted, entries hidden from
the viewer (by an independent Python `can_see`) are then changed in the same project, in the other one and in a
project nobody of the world belongs to, exactly as the API changes them (`Ingestor.ingest` / `Ingestor.delete`), and
the snapshot is taken again: the two must be equal.

A failure must be a real observable change, not nondeterminism: the first worlds of a run are snapshotted twice before
any change, a world whose snapshot changed is snapshotted twice after, and both pairs must be equal. Other processes
sharing the database (their entries move index-wide fulltext statistics too) are pointed out in the message.

Direct `hybrid_search` calls override the dense floor per query (0 ranks every visible chunk; 0.9 leaves few dense
hits, so the thread channel adds their conversation neighbours); the HTTP API runs with the service's own settings.

Shrinking is off: one world costs several seconds and a failure already names every read path that changed, with the
first difference in each, the mutations and the world.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from datetime import timedelta
from typing import Any
from urllib.parse import quote

import numpy as np
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from api import auth
from api.app import Services, create_app
from api.ratelimit import UNLIMITED
from graph.db import Graph
from graph.entities import upsert_entity
from graph.entity_vectors import refresh_project
from graph.entries import get_visible_entry
from graph.ids import period_id, slug
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from graph.witnesses import active_grant, create_grant
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor, IngestReport
from queries.search.channel_set import askable
from queries.search.door import hybrid_search
from queries.search.request import AccessDenied, Scope, SearchOptions
from tests.budget import examples, spent
from tests.conftest import CLEANUP, SUMMARY
from tests.design_rule import member_may_see, witness_may_see
from tests.snapshot_diff import changed_paths, first_difference
from tests.snapshot_diff import plain as _plain

pytestmark = pytest.mark.slow

LEVELS = ("private", "intimate", "circle", "public")
NARROWER = {"public": "circle", "circle": "intimate", "intimate": "private", "private": "private"}
ROLE_CHOICES = ("owner", "coauthor", "reader", None)
ALL_CHANNELS = askable()  # every channel a caller may ask for
CHAPTERS = ("Berlín 2008", "Verano en Cádiz")
# Entries spell the chapters in several ways (one id each): a hidden entry's spelling must never show, nor tell a
# chapter exists.
SPELLINGS = (*CHAPTERS, "berlin 2008", "BERLIN · 2008", "verano en cadiz")
# Shared by hidden and visible entries, so co-occurrence, entity lists and linking are exercised.
PERSONS = ("Evander Lusk", "Odile", "Marta", "Josep")
# Declared by hand: a pool person with an alias, and one person no initial entry names.
HAND = (("Josep", ("papá",)), ("Evander Lusk", ("vandy",)), ("Quintina", ("quini",)))
MUTATION_PERSONS = (*PERSONS, "Quintina", "Secretina")
# Shared words, so hidden entries hold the words visible ones are searched by ("odile", "papá", "vandy" also link).
VOCAB = ("xilófono", "marea", "cometa", "faro", "lluvia", "naranjo", "odile", "papá", "vandy")
WHENS = (None, "2008", "2008-07-20", "2011-03")
THREAD_AT = ("2008-07-12T21:00:00", "2011-03-02T09:30:00")  # one recorded session per index and project
# (name, query, channels, dense floor of the direct searches): floor 0 ranks every visible chunk; a high floor keeps
# few dense hits, so the thread channel adds their conversation neighbours.
QUERIES: tuple[tuple[str, str, tuple[str, ...], float], ...] = (
    ("fulltext", "xilófono marea", ("fulltext",), 0.0),
    ("dense", "la marea sube junto al faro bajo la lluvia", ("dense",), 0.0),
    ("structured", "Odile en 2008", ("structured",), 0.0),
    ("all", "¿qué pasó con Marta y el xilófono junto al faro en 2008?", ALL_CHANNELS, 0.0),
    ("alias", "vandy y papá con la cometa", ALL_CHANNELS, 0.0),
    ("thread", "la marea sube junto al faro bajo la lluvia", ALL_CHANNELS, 0.9),
    # Entity questions: answered from analytics and entity vectors (`answer`), over visible entries only.
    ("with", "¿con quién aparece Odile?", ALL_CHANNELS, 0.0),
    ("like", "¿quién se parece a Marta?", ALL_CHANNELS, 0.0),
    ("top", "who matters most in my life?", ALL_CHANNELS, 0.0),
)
PER_PROJECT = ("fulltext", "all", "with", "like", "top")  # also run with a single project in scope
OVER_HTTP = ("all", "alias", "like")  # also through POST /v1/search (the witness: every query through its link)
PROBED_NAMES = ("Evander Lusk", "Odile", "Quintina", "Secretina", "papá")
MAX_EXAMPLES = examples(8)
SANITY_WORLDS = 2  # the first worlds of a run are also snapshotted twice before any change
# Bookkeeping of the stored entry that changes whenever an entry is re-derived, shown by no endpoint.
BOOKKEEPING = ("created_at", "updated_at", "content_hash")
# What other processes sharing the database change (entries, the embedding state): named in a failure's message.
FOREIGN_ACTIVITY = """
MATCH (e:Entry) WHERE NOT e.project_id STARTS WITH $prefix
WITH count(e) AS n, toString(max(e.updated_at)) AS last
OPTIONAL MATCH (s:EmbeddingState)
RETURN n, last, collect(properties(s)) AS state
"""

TALLY = {"worlds": 0, "snapshots": 0, "changed": 0}


# --- worlds ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EntrySpec:
    project: int
    author: int | None
    intimacy: str
    chapter: str | None
    thread: int | None  # a conversation of the entry's project (index into THREAD_AT)
    when: str | None  # occurred_on of an entry outside a conversation
    persons: tuple[str, ...]
    words: tuple[str, ...]


@dataclass(frozen=True)
class Op:
    """A change to entries hidden from the viewer, resolved against the world when it is applied."""

    kind: str  # add | thread | edit | narrow | delete
    pick: int  # which hidden entry (edit, narrow, delete), which conversation and gap (thread)
    entry: EntrySpec  # the new entry (add, thread: project n_projects is a project no user of the world is in);
    # its persons and words also serve as the new content of an edit
    to_private: bool  # narrow straight to private, or one level


@dataclass(frozen=True)
class World:
    n_projects: int
    n_users: int
    roles: tuple[tuple[str | None, ...], ...]  # roles[user][project]
    entries: tuple[EntrySpec, ...]
    hand: tuple[int, int] | None  # (project, index into HAND)
    grant: tuple[int, str] | None  # (project, chapter) of the one witness link
    viewer: int  # a user index; n_users = the witness (when the grant exists)
    ops: tuple[Op, ...]


def entry_specs(n_projects: int, n_users: int, extra_project: bool) -> st.SearchStrategy[EntrySpec]:
    @st.composite
    def build(draw: st.DrawFn) -> EntrySpec:
        thread = draw(st.sampled_from((None, 0, 0, 1)))
        return EntrySpec(
            project=draw(st.integers(0, n_projects if extra_project else n_projects - 1)),
            author=draw(st.sampled_from((None, *range(n_users)))),
            intimacy=draw(st.sampled_from(LEVELS)),
            chapter=draw(st.sampled_from((None, *SPELLINGS))),
            thread=thread,
            when=None if thread is not None else draw(st.sampled_from(WHENS)),
            persons=tuple(
                draw(st.lists(st.sampled_from(MUTATION_PERSONS if extra_project else PERSONS), max_size=2, unique=True))
            ),
            words=tuple(draw(st.lists(st.sampled_from(VOCAB), min_size=2, max_size=5))),
        )

    return build()


@st.composite
def worlds(draw: st.DrawFn) -> World:
    n_projects = draw(st.integers(1, 2))
    n_users = draw(st.integers(2, 4))
    roles = tuple(tuple(draw(st.sampled_from(ROLE_CHOICES)) for _ in range(n_projects)) for _ in range(n_users))
    entries = tuple(draw(st.lists(entry_specs(n_projects, n_users, False), min_size=3, max_size=7)))
    hand = draw(st.none() | st.tuples(st.integers(0, n_projects - 1), st.integers(0, len(HAND) - 1)))
    grant = draw(st.none() | st.tuples(st.integers(0, n_projects - 1), st.sampled_from(CHAPTERS)))
    witness = grant is not None and draw(st.integers(0, 2)) == 0
    viewer = n_users if witness else draw(st.integers(0, n_users - 1))
    ops = tuple(
        draw(
            st.lists(
                st.builds(
                    Op,
                    kind=st.sampled_from(("add", "thread", "edit", "narrow", "delete")),
                    pick=st.integers(0, 50),
                    entry=entry_specs(n_projects, n_users, True),
                    to_private=st.booleans(),
                ),
                min_size=1,
                max_size=4,
            )
        )
    )
    return World(n_projects, n_users, roles, entries, hand, grant, viewer, ops)


@dataclass(frozen=True)
class Who:
    """A viewer of a world: a user index, or the witness (user None)."""

    user: int | None


@dataclass
class Live:
    """An entry as it stands now (mutations change it): its spec, id and turn in its conversation."""

    id: str
    spec: EntrySpec
    turn: int | None


def can_see(world: World, who: Who, e: EntrySpec) -> bool:
    """The rule of docs/architecture.md ("Privacy: who sees what"), as in test_property_privacy.py: membership (or
    the witness's chapter), then intimacy. Project n_projects is one no user of the world belongs to."""
    if e.project >= world.n_projects:
        return False
    if who.user is None:
        assert world.grant is not None
        return witness_may_see(in_grant(world, e), e.intimacy)
    return member_may_see(world.roles[who.user][e.project], e.intimacy, e.author == who.user)


def in_grant(world: World, e: EntrySpec) -> bool:
    """Whether the entry is in the witness's chapter, however it spells it."""
    return (
        world.grant is not None
        and e.chapter is not None
        and e.project == world.grant[0]
        and slug(e.chapter) == slug(world.grant[1])
    )


class Names:
    """The concrete ids of one example, all under a fresh prefix so CLEANUP removes the whole world."""

    def __init__(self) -> None:
        self.prefix = f"pi{uuid.uuid4().hex[:10]}-"

    def project(self, j: int) -> str:
        return f"{self.prefix}p{j}"

    def user(self, i: int) -> str:
        return f"{self.prefix}u{i}"

    def outsider(self) -> str:
        return f"{self.prefix}x"


def record(names: Names, live: Live) -> dict[str, Any]:
    e = live.spec
    words = " ".join(e.words)
    rec: dict[str, Any] = {
        "entry_id": live.id,
        "project_id": names.project(e.project),
        "intimacy": e.intimacy,
        "text": f"{words[:1].upper()}{words[1:]}.",
        "persons": list(e.persons),
    }
    if e.author is not None:
        rec["author"] = names.user(e.author)
    if e.chapter is not None:
        rec["period"] = e.chapter
    if e.thread is not None:
        rec.update(occurred_at=THREAD_AT[e.thread], turn=live.turn, kind="session")
    elif e.when is not None:
        rec["occurred_on"] = e.when
    return rec


def declare_entity(graph: Graph, project_id: str, name: str, aliases: tuple[str, ...]) -> None:
    """The one place this file declares an entity by hand: adapt here if `upsert_entity` gains an audience."""
    upsert_entity(graph, project_id, "person", name, list(aliases))


# --- snapshots ------------------------------------------------------------------------------------------------------


def _response(resp: Any) -> Any:
    """Status and body of an HTTP answer; latency and a search's random id are not observations of the data."""
    try:
        body = resp.json()
    except ValueError:
        body = resp.text
    if isinstance(body, dict):
        body.pop("latency_ms", None)
        body.pop("search_id", None)
    return _plain({"status": resp.status_code, "body": body})


def _search(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    viewer: Viewer,
    query: str,
    channels: tuple[str, ...],
    scope: Scope,
    project_ids: list[str] | None = None,
) -> Any:
    uncached = settings.model_copy(update={"search_cache_seconds": 0.0})  # the statements' answers, never a cached one
    try:
        resp = hybrid_search(
            graph,
            embedder,
            uncached,
            viewer,
            query,
            scope,
            SearchOptions(k=20, channels=channels, explain=True, include_chunks=True),
            project_ids=project_ids,
        )
    except AccessDenied as exc:
        return ["AccessDenied", str(exc)]
    out = asdict(resp)
    out.pop("latency_ms")
    return _plain(out)


def _entry_row(graph: Graph, viewer: Viewer, entry_id: str) -> Any:
    row = get_visible_entry(graph, viewer, entry_id)
    if row is None:
        return None
    row["entry"] = {k: v for k, v in row["entry"].items() if k not in BOOKKEEPING}
    return _plain(row)


@dataclass
class Reader:
    """Everything needed to snapshot one viewer's read paths."""

    graph: Graph
    embedder: CheckedEmbedder
    settings: Settings  # the service's own; the direct searches override the dense floor per query
    client: TestClient  # the HTTP API, with the service's own settings
    names: Names
    world: World
    entry_ids: list[str]  # every id the world ever uses (before and after the mutations) and a missing one

    def projects(self) -> list[str]:
        """The world's projects and the one nobody of the world belongs to (which may not exist yet)."""
        return [self.names.project(j) for j in range(self.world.n_projects + 1)]

    def user_snapshot(self, i: int) -> dict[str, Any]:
        for project in self.projects():  # entity vectors as they are after every change (the worker's job)
            refresh_project(self.graph, project, self.embedder.slug)
        viewer, out = Viewer(user_id=self.names.user(i)), dict[str, Any]()
        headers = {"Authorization": f"Bearer {auth.issue(self.settings, self.names.user(i))}"}
        for name, query, channels, floor in QUERIES:
            direct = self.settings.model_copy(update={"dense_floor": floor})
            out[f"hybrid_search[{name}, all projects]"] = _search(
                self.graph, self.embedder, direct, viewer, query, channels, Scope(multi_project=True)
            )
            body: dict[str, Any] = {"q": query, "k": 20, "explain": True, "include_chunks": True}
            if channels != ALL_CHANNELS:
                body["channels"] = list(channels)
            if name in OVER_HTTP:
                out[f"POST /v1/search[{name}]"] = _response(self.client.post("/v1/search", json=body, headers=headers))
            if name in PER_PROJECT:
                for project in self.projects():
                    out[f"hybrid_search[{name}, {project}]"] = _search(
                        self.graph, self.embedder, direct, viewer, query, channels, Scope(project_id=project)
                    )
                    if name in OVER_HTTP:
                        out[f"POST /v1/search[{name}, {project}]"] = _response(
                            self.client.post("/v1/search", json={**body, "project_id": project}, headers=headers)
                        )
        for entry_id in self.entry_ids:
            out[f"get_visible_entry({entry_id})"] = _entry_row(self.graph, viewer, entry_id)
            out[f"GET /v1/entries/{entry_id}"] = _response(
                self.client.get(f"/v1/entries/{quote(entry_id)}", headers=headers)
            )
        for project in self.projects():
            base = f"/v1/projects/{project}"
            out[f"GET {base}/entities"] = _response(self.client.get(f"{base}/entities", headers=headers))
            out[f"GET {base}/analytics/importance"] = _response(
                self.client.get(f"{base}/analytics/importance", headers=headers)
            )
            out[f"GET {base}/periods"] = _response(self.client.get(f"{base}/periods", headers=headers))
            for spelling in SPELLINGS:
                out[f"POST {base}/witnesses[{spelling}]"] = self._invite(base, {"period": spelling}, headers)
            out[f"POST {base}/witnesses[id]"] = self._invite(
                base, {"period_id": period_id(project, CHAPTERS[0])}, headers
            )
            if project == self.projects()[-1]:
                continue  # nobody of the world is a member: the entity list and importance already answer 403
            for entity in PROBED_NAMES:
                for what in ("cooccurrence", "timeline", "similar"):
                    out[f"GET {base}/analytics/{what}?entity={entity}"] = _response(
                        self.client.get(f"{base}/analytics/{what}", params={"entity": entity}, headers=headers)
                    )
        return out

    def _invite(self, base: str, body: dict[str, str], headers: dict[str, str]) -> Any:
        """A grant's answer (status, reason) and the name its witness's accounts would be filed under; the new
        grant's id, token and expiry are fresh every time."""
        resp = self.client.post(f"{base}/witnesses", json=body, headers=headers)
        if resp.status_code != 201:
            return _response(resp)
        grant = active_grant(self.graph, resp.json()["grant_id"])
        return {"status": 201, "filed_under": grant.period_name if grant else None}

    def witness_snapshot(self, grant_id: str, chapter_id: str) -> dict[str, Any]:
        viewer, out = Viewer(witness_period_id=chapter_id), dict[str, Any]()
        token = auth.issue_witness(self.settings, grant_id, 3600)
        for name, query, channels, floor in QUERIES:
            # No chapter filter: the predicate alone must confine the witness, with every project in scope.
            out[f"hybrid_search[{name}, witness]"] = _search(
                self.graph,
                self.embedder,
                self.settings.model_copy(update={"dense_floor": floor}),
                viewer,
                query,
                channels,
                Scope(),
                self.projects(),
            )
            if name != "thread":  # the same text as "dense", and the link has no channel choice
                out[f"POST /v1/w/{{token}}/search[{name}]"] = _response(
                    self.client.post(f"/v1/w/{token}/search", json={"q": query, "k": 20, "include_chunks": True})
                )
        for entry_id in self.entry_ids:
            out[f"get_visible_entry({entry_id})"] = _entry_row(self.graph, viewer, entry_id)
            out[f"GET /v1/w/{{token}}/entries/{entry_id}"] = _response(
                self.client.get(f"/v1/w/{token}/entries/{quote(entry_id)}")
            )
        for project in self.projects():
            out[f"GET /v1/projects/{project}/entities (witness token)"] = _response(
                self.client.get(f"/v1/projects/{project}/entities", headers={"Authorization": f"Bearer {token}"})
            )
        return out


def _diagnosis(label: str, changed: list[str], context: str) -> str:
    shown = "\n  ".join(changed[:20])
    more = f"\n  … and {len(changed) - 20} more" if len(changed) > 20 else ""
    return f"{len(changed)} read path(s) of {label} changed {context}:\n  {shown}{more}"


# --- the property ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    since = time.monotonic()
    yield
    SUMMARY.append(
        f"privacy invariance: {TALLY['worlds']} worlds, {TALLY['snapshots']} (viewer, read path) "
        f"snapshots compared, {TALLY['changed']} changed (a failing world counts again when hypothesis "
        f"replays it)"
        f" {spent(since)}"
    )


class QueryMemo(CheckedEmbedder):
    """The session's embedder, with each query text embedded once: the few queries of this file are asked again and
    again, and a query's vector depends on its text alone. Passages (ingest) are embedded as usual."""

    def __init__(self, checked: CheckedEmbedder) -> None:
        super().__init__(checked.inner)
        self._memo: dict[str, np.ndarray] = {}

    def embed_query(self, text: str) -> np.ndarray:
        if text not in self._memo:
            self._memo[text] = super().embed_query(text)
        return self._memo[text].copy()


@pytest.fixture(scope="module")
def memo(embedder: CheckedEmbedder) -> CheckedEmbedder:
    return QueryMemo(embedder)


@pytest.fixture(scope="module")
def client(settings: Settings, graph: Graph, memo: CheckedEmbedder) -> Iterator[TestClient]:
    # what the statements see, every time; limits off: a snapshot reads every path as one caller
    uncached = settings.model_copy(update={"search_cache_seconds": 0.0, **UNLIMITED})
    with TestClient(create_app(Services(uncached, graph=graph, embedder=memo))) as c:
        yield c


def _set_up(world: World, names: Names, graph: Graph, ingest: Callable[..., IngestReport]) -> list[Live]:
    for i in range(world.n_users):
        for j in range(world.n_projects):
            role = world.roles[i][j]
            if role is not None:
                set_member(graph, names.project(j), names.user(i), role)
    set_member(graph, names.project(world.n_projects), names.outsider(), "owner")
    if world.hand is not None:
        name, aliases = HAND[world.hand[1]]
        declare_entity(graph, names.project(world.hand[0]), name, aliases)
    live: list[Live] = []
    turns: dict[tuple[int, int], int] = {}
    for k, spec in enumerate(world.entries):
        turn = None
        if spec.thread is not None:
            turn = turns[spec.project, spec.thread] = turns.get((spec.project, spec.thread), 0) + 100
        live.append(Live(f"{names.project(spec.project)}/e{k}", spec, turn))
    report = ingest([record(names, e) for e in live])
    assert not report.errors and report.chunks_pending == 0, report.errors
    return live


def _new_ids(world: World, names: Names) -> list[str]:
    """Ids the mutations may create (probed before too: missing, then hidden, must answer alike)."""
    return [f"{names.project(op.entry.project)}/m{n}" for n, op in enumerate(world.ops)] + [
        f"{names.project(j)}/m{n}"
        for n, op in enumerate(world.ops)
        if op.kind == "thread"
        for j in range(world.n_projects + 1)
        if j != op.entry.project
    ]


def _hidden_version(world: World, who: Who, spec: EntrySpec) -> EntrySpec:
    """The drawn entry if the viewer may not see it, else the same entry made private to someone else."""
    if can_see(world, who, spec):
        others = [i for i in range(world.n_users) if i != who.user]
        spec = replace(spec, intimacy="private", author=others[0] if others else None)
    return spec


def _mutate(
    world: World,
    who: Who,
    names: Names,
    live: list[Live],
    graph: Graph,
    embedder: CheckedEmbedder,
    ingest: Callable[..., IngestReport],
) -> list[str]:
    """Apply the world's operations to entries hidden from `who`, keeping each hidden before and after; returns what
    was done (operations with nothing to act on are skipped)."""
    done = []
    for n, op in enumerate(world.ops):
        hidden = [e for e in live if not can_see(world, who, e.spec)]
        target: Live | None = None
        if op.kind in ("add", "thread"):
            spec, turn = _hidden_version(world, who, op.entry), None
            threads = sorted({(e.spec.project, e.spec.thread) for e in live if e.spec.thread is not None})
            if op.kind == "thread" and threads:
                project, thread = threads[op.pick % len(threads)]
                taken = sorted(
                    e.turn for e in live if (e.spec.project, e.spec.thread) == (project, thread) and e.turn is not None
                )
                gap = op.pick % (len(taken) + 1)  # before the first turn, between two, or after the last
                turn = (taken[gap - 1] if gap else 0) + 1 + n
                spec = _hidden_version(world, who, replace(op.entry, project=project, thread=thread, when=None))
            elif op.kind == "thread" or spec.thread is not None:
                spec = replace(spec, thread=None)
            target = Live(f"{names.project(spec.project)}/m{n}", spec, turn)
            live.append(target)
            what = f"add {target.id} ({spec.intimacy}, author {spec.author}, turn {turn}, {list(spec.persons)})"
        else:
            if op.kind == "narrow":
                hidden = [e for e in hidden if e.spec.intimacy != "private"]
            if not hidden:
                continue
            target = hidden[op.pick % len(hidden)]
            if op.kind == "delete":
                assert Ingestor(graph, embedder).delete(target.id)
                live.remove(target)
                done.append(f"delete {target.id} ({target.spec.intimacy})")
                continue
            if op.kind == "edit":
                edited = replace(
                    target.spec,
                    persons=op.entry.persons,
                    words=op.entry.words,
                    chapter=op.entry.chapter if target.spec.thread is None else target.spec.chapter,
                )
                # A witness sees their chapter: an edit into it would show the entry, so the entry keeps its own.
                target.spec = replace(edited, chapter=target.spec.chapter) if can_see(world, who, edited) else edited
                what = (
                    f"edit {target.id} -> {list(op.entry.persons)} {' '.join(op.entry.words)!r} "
                    f"in {target.spec.chapter!r}"
                )
            else:
                level = "private" if op.to_private else NARROWER[target.spec.intimacy]
                what = f"narrow {target.id} {target.spec.intimacy} -> {level}"
                target.spec = replace(target.spec, intimacy=level)
        assert not can_see(world, who, target.spec), f"mutation {what} would show the entry"
        report = ingest([record(names, target)])
        assert not report.errors and report.chunks_pending == 0, report.errors
        done.append(what)
    return done


def _viewer(world: World, names: Names, graph: Graph) -> tuple[Who, str | None, str | None]:
    """The world's viewer: the witness if drawn and the chapter exists, else a user."""
    if world.grant is not None and world.viewer == world.n_users:
        project = names.project(world.grant[0])
        chapter = period_id(project, world.grant[1])
        grant_id = create_grant(graph, project, chapter, names.user(0), timedelta(hours=1))
        if grant_id is not None:
            return Who(None), grant_id, chapter
    return Who(world.viewer % world.n_users), None, None


def _foreign(graph: Graph, names: Names) -> Any:
    return _plain(dict(graph.read(FOREIGN_ACTIVITY, {"prefix": names.prefix})[0]))


def _foreign_note(graph: Graph, names: Names, foreign: Any) -> str:
    if _foreign(graph, names) == foreign:
        return ""
    return (
        "\nNOTE: another process wrote or deleted entries outside this world, or changed the embedding state, "
        "meanwhile: fulltext scores also move with other projects' entries as long as they use index-wide "
        "statistics"
    )


def _assert_stable(
    label: str, first: dict[str, Any], second: dict[str, Any], graph: Graph, names: Names, foreign: Any
) -> None:
    """The same snapshot taken twice in a row, with no change in between, must be equal."""
    unstable = changed_paths(first, second)
    assert not unstable, _diagnosis(
        label, unstable, "between two snapshots with NO change in between (nondeterminism, not a mutation)"
    ) + _foreign_note(graph, names, foreign)


@hyp_settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    database=None,
    print_blob=True,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(world=worlds())
def test_changing_hidden_entries_changes_nothing_the_viewer_observes(
    world: World,
    graph: Graph,
    embedder: CheckedEmbedder,
    memo: CheckedEmbedder,
    settings: Settings,
    client: TestClient,
    ingest: Callable[..., IngestReport],
) -> None:
    """One world per example under a fresh prefix, removed afterwards, pass or fail."""
    names = Names()
    try:
        live = _set_up(world, names, graph, ingest)
        who, grant_id, chapter = _viewer(world, names, graph)
        ids = [e.id for e in live] + _new_ids(world, names) + [f"{names.project(0)}/nope"]
        reader = Reader(graph, memo, settings, client, names, world, list(dict.fromkeys(ids)))

        def snapshot() -> dict[str, Any]:
            if who.user is None:
                assert grant_id is not None and chapter is not None
                return reader.witness_snapshot(grant_id, chapter)
            return reader.user_snapshot(who.user)

        label = f"witness of {world.grant}" if who.user is None else f"user {who.user} {world.roles[who.user]}"
        foreign = _foreign(graph, names)
        before = snapshot()
        if TALLY["worlds"] < SANITY_WORLDS:
            _assert_stable(label, before, snapshot(), graph, names, foreign)

        done = _mutate(world, who, names, live, graph, embedder, ingest)
        after = snapshot()
        TALLY["worlds"] += 1
        TALLY["snapshots"] += len(before)
        changed = changed_paths(before, after)
        if changed:
            _assert_stable(label, after, snapshot(), graph, names, foreign)
            TALLY["changed"] += 1
            raise AssertionError(
                _diagnosis(label, changed, f"after changes to hidden entries only: {done}")
                + _foreign_note(graph, names, foreign)
                + f"\nworld: {world}"
            )
    finally:
        graph.write(CLEANUP, {"prefix": names.prefix})


# --- concrete regressions -------------------------------------------------------------------------------------------


def _bearer(settings: Settings, user_id: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {auth.issue(settings, user_id)}"}


def test_linking_a_coauthors_own_entry_reveals_no_name_of_the_owners_private_entry(
    graph: Graph, settings: Settings, client: TestClient, prefix: str, ingest: Callable[..., IngestReport]
) -> None:
    """The owner's private entry lists "Evander Lusk". A coauthor then writes their own private entries naming him
    ("evander lusk" in the text, or listed in lower case) and reads them back: what they see must be exactly what
    they see in a project where the owner's entry does not exist (no other spelling, no extra link, no other score)."""
    owner, coauthor = f"{prefix}owner", f"{prefix}coauthor"
    with_secret, without = f"{prefix}with", f"{prefix}without"
    for project in (with_secret, without):
        set_member(graph, project, owner, "owner")
        set_member(graph, project, coauthor, "coauthor")
    assert not ingest(
        [
            {
                "entry_id": f"{with_secret}/owner-secret",
                "project_id": with_secret,
                "author": owner,
                "intimacy": "private",
                "persons": ["Evander Lusk"],
                "occurred_on": "2008-07",
                "text": "Cena a solas con Evander Lusk junto al faro.",
            }
        ]
    ).errors
    for project in (with_secret, without):
        assert not ingest(
            [
                {
                    "entry_id": f"{project}/mine-text",
                    "project_id": project,
                    "author": coauthor,
                    "intimacy": "private",
                    "occurred_on": "2009-01",
                    "text": "Hoy vi a evander lusk paseando por el puerto.",
                },
                {
                    "entry_id": f"{project}/mine-listed",
                    "project_id": project,
                    "author": coauthor,
                    "intimacy": "private",
                    "occurred_on": "2009-02",
                    "persons": ["evander lusk"],
                    "text": "Otra vez el puerto, con él.",
                },
            ]
        ).errors

    def entry(project: str, name: str, headers: dict[str, str]) -> Any:
        """The entry as read, but for when it was written (two projects are compared, written moments apart)."""
        body = client.get(f"/v1/entries/{project}/{name}", headers=headers).json()
        for stamp in ("created_at", "updated_at"):
            body["read_only"].pop(stamp)
        return _plain(body)

    def view(project: str) -> dict[str, Any]:
        headers = _bearer(settings, coauthor)
        out = {f"GET /v1/entries/{name}": entry(project, name, headers) for name in ("mine-text", "mine-listed")}
        out["GET entities"] = _response(client.get(f"/v1/projects/{project}/entities", headers=headers))
        out["GET importance"] = _response(client.get(f"/v1/projects/{project}/analytics/importance", headers=headers))
        out["POST /v1/search"] = _response(
            client.post(
                "/v1/search",
                headers=headers,
                json={
                    "q": "puerto evander lusk",
                    "project_id": project,
                    "k": 20,
                    "explain": True,
                    "channels": ["fulltext", "structured"],
                },
            )
        )
        return json.loads(json.dumps(out, ensure_ascii=False).replace(project, "<project>"))

    changed = changed_paths(view(without), view(with_secret))
    assert not changed, _diagnosis("the coauthor", changed, "because the owner's private entry names the person")


def test_another_projects_entries_do_not_move_fulltext_scores(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, prefix: str, ingest: Callable[..., IngestReport]
) -> None:
    """A member of one project must not learn, from the scores of a keyword search, how often another project (they
    are not a member of) uses the word: the score_breakdown must not move when that project adds 20 entries."""
    mine, theirs, ana, bob = f"{prefix}mine", f"{prefix}theirs", f"{prefix}ana", f"{prefix}bob"
    set_member(graph, mine, ana, "owner")
    set_member(graph, theirs, bob, "owner")
    texts = (
        "El xilófono de la abuela sonaba mal.",
        "Encontramos un xilófono y una cometa en el desván.",
        "La marea subió hasta el faro.",
    )
    assert not ingest(
        [
            {"entry_id": f"{mine}/e{n}", "project_id": mine, "author": ana, "intimacy": "circle", "text": text}
            for n, text in enumerate(texts)
        ]
    ).errors

    def view() -> Any:
        resp = hybrid_search(
            graph,
            embedder,
            settings,
            Viewer(user_id=ana),
            "xilófono",
            Scope(project_id=mine),
            SearchOptions(k=20, channels=("fulltext",)),
        )
        return _plain(
            {
                "total_candidates": resp.total_candidates,
                "results": [
                    {"entry_id": r.entry_id, "score": r.score, "score_breakdown": r.score_breakdown}
                    for r in resp.results
                ],
            }
        )

    before = view()
    assert view() == before, "the same search twice must score the same"
    assert not ingest(
        [
            {
                "entry_id": f"{theirs}/e{n}",
                "project_id": theirs,
                "author": bob,
                "intimacy": "private",
                "text": f"Nota {n}: el xilófono otra vez.",
            }
            for n in range(20)
        ]
    ).errors
    after = view()
    assert after == before, f"fulltext score_breakdown moved: {first_difference(before, after)}"


def test_deleting_a_private_entry_reveals_no_name_it_alone_mentioned(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    client: TestClient,
    prefix: str,
    ingest: Callable[..., IngestReport],
) -> None:
    """ "Secretina" is named only by the owner's private entry: the reader must not learn of her, neither before nor
    after that entry is deleted (the entity stays behind, named by no entry)."""
    project, ana, lola = f"{prefix}fam", f"{prefix}ana", f"{prefix}lola"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, lola, "reader")
    assert not ingest(
        [
            {
                "entry_id": f"{project}/secret",
                "project_id": project,
                "author": ana,
                "intimacy": "private",
                "occurred_on": "2015-03",
                "persons": ["Secretina", "Marta"],
                "text": "Secretina guarda el xilófono.",
            },
            {
                "entry_id": f"{project}/open",
                "project_id": project,
                "author": ana,
                "intimacy": "circle",
                "occurred_on": "2008-07",
                "persons": ["Marta"],
                "text": "El xilófono de Marta junto al faro.",
            },
        ]
    ).errors
    headers = _bearer(settings, lola)

    def view() -> dict[str, Any]:
        base = f"/v1/projects/{project}"
        out = {
            "GET entities": _response(client.get(f"{base}/entities", headers=headers)),
            "GET importance": _response(client.get(f"{base}/analytics/importance", headers=headers)),
        }
        for what in ("cooccurrence", "timeline"):
            out[f"GET {what}?entity=Secretina"] = _response(
                client.get(f"{base}/analytics/{what}", params={"entity": "Secretina"}, headers=headers)
            )
        # Structured only: the fulltext statistics have their own test above.
        out["POST /v1/search"] = _response(
            client.post(
                "/v1/search",
                headers=headers,
                json={
                    "q": "Secretina en el faro",
                    "project_id": project,
                    "k": 20,
                    "explain": True,
                    "channels": ["structured"],
                },
            )
        )
        return out

    before = view()
    assert Ingestor(graph, embedder).delete(f"{project}/secret")
    changed = changed_paths(before, view())
    assert not changed, _diagnosis("the reader", changed, "when the owner deleted their private entry")
