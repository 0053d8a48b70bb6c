"""Forgetting on the real Neo4j, as a property over random worlds: after any sequence of writes, entry deletes and
forgets of a person by the owner, nothing a member of the project observes through any read path differs from a
world where the deleted entries and the forgotten names were never written.

Hypothesis draws a project (an owner, a coauthor, a reader) with entries of random author, intimacy, chapter and date,
naming persons of a small pool in their text and in their `persons`, and a sequence of operations: new entries, entry
deletes (through `DELETE /v1/entries/{id}` by the owner or the author, or by ingest for an entry no member sees) and
forgets of a pool person (`DELETE …/entities/person/{name}?forget=true` by the owner). Every member's read paths are
snapshotted once before the operations (so the service's caches hold answers the operations must invalidate) and
once after. A second world is then written from scratch under another id prefix: the entries alive at the end, each
forgotten name written as the neutral mark in every entry the owner could edit when it was forgotten (every entry
the owner saw then; entries written after a forget keep the name). Its snapshots must equal the first world's, ids
aside.

Documented tolerance: ranked answers (search results, the live context's entries, similar entities) are compared as
sets with their fields but without rank and score (a result's relevance, read from its scores, included). Lucene
keeps a deleted document in its term statistics until segments merge, and both worlds share the index with each
other and with the rest of the database, so fulltext scores (and the order they give) may differ between two worlds
that hold the same entries; everything else is exact.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from fastapi import HTTPException
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from api import auth
from api.actions.refusals import Refused
from api.app import Services, create_app
from api.mcp.caller import Caller, refusal_of
from api.mcp.tools import call
from api.ratelimit import Limits
from graph.db import Graph
from graph.entity_vectors import refresh_project
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.embedding_jobs import backfill
from ingest.pipeline import Ingestor, IngestReport
from ingest.redaction import MARK
from queries.context.tokens import counter_for
from tests.budget import examples, spent
from tests.conftest import CLEANUP, SUMMARY
from tests.design_rule import member_may_see
from tests.relink_jobs import wait_relinked
from tests.snapshot_diff import changed_paths, plain

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

LEVELS = ("private", "intimate", "circle", "public")
ROLES = ("owner", "coauthor", "reader")
AUTHORS = (0, 1, None)  # the owner, the coauthor, nobody of the world
CHAPTERS = (None, "Berlín 2008", "Verano en Cádiz")
WHENS = (None, "2008-07-20", "2008-08-02", "2011-03")
PERSONS = ("Odile", "Marta", "Josep", "Evander Lusk")
VOCAB = ("xilófono", "marea", "cometa", "faro", "lluvia", "naranjo")
SEARCHES: tuple[tuple[str, str, tuple[str, ...] | None], ...] = (
    ("fulltext", "xilófono marea Odile", ("fulltext",)),
    ("dense", "la marea sube junto al faro bajo la lluvia", ("dense",)),
    ("structured", "Odile en 2008", ("structured",)),
    ("all", "¿qué pasó con Marta y Evander Lusk junto al faro en 2008?", None),
    ("with", "¿con quién aparece Odile?", None),
)
MAX_EXAMPLES = examples(4)
# Bookkeeping that changes whenever an entry is written or a summary built, and answers' timings and request ids.
# An entry's last write (its time and channel: `updated_at`, `written_by`) does show that a redacted entry was
# rewritten, by whom it may be edited, never what was removed.
UNOBSERVED = frozenset(
    {"created_at", "updated_at", "written_by", "content_hash", "generated_at", "latency_ms", "search_id"}
)
# Where the tolerance of the module docstring applies: ranked lists compared as sets, without rank and score.
RANKED = frozenset({"results", "entries", "similar"})
SUMMARY_ID = re.compile(r"<w>-p/summary/[0-9a-f]{20}")
RANK_FIELDS = frozenset({"score", "score_breakdown", "rank", "similarity", "source", "relevance"})

TALLY = {"worlds": 0, "paths": 0, "deletes": 0, "forgets": 0, "redacted": 0}


@dataclass(frozen=True)
class Spec:
    author: int | None
    intimacy: str
    chapter: str | None
    when: str | None
    persons: tuple[str, ...]
    words: tuple[str, ...]


@dataclass(frozen=True)
class Op:
    kind: str  # add | delete | forget
    pick: int  # which live entry (delete), which pool person (forget)
    entry: Spec  # the new entry (add)


@dataclass
class Live:
    key: str
    spec: Spec
    forgotten: set[str] = field(default_factory=set)  # names written as the mark


specs = st.builds(
    Spec,
    author=st.sampled_from(AUTHORS),
    intimacy=st.sampled_from(LEVELS),
    chapter=st.sampled_from(CHAPTERS),
    when=st.sampled_from(WHENS),
    persons=st.lists(st.sampled_from(PERSONS), max_size=3, unique=True).map(tuple),
    words=st.lists(st.sampled_from(VOCAB), min_size=2, max_size=4).map(tuple),
)
ops = st.builds(
    Op, kind=st.sampled_from(("add", "delete", "delete", "forget", "forget")), pick=st.integers(0, 50), entry=specs
)


def owner_sees(spec: Spec) -> bool:
    return member_may_see("owner", spec.intimacy, spec.author == 0)


class Names:
    """One world's ids, under a prefix the suite's embedder reads as the canonical one (so the same text gets the same
    vector in both worlds) and CLEANUP removes. A chapter bundle counts the tokens of the ids it quotes (authors in
    its events): the second world draws prefixes until its ids cost the first world's tokens, so that the count is
    the same for the same entries."""

    def __init__(self, like: Names | None = None, count: Callable[[str], int] | None = None) -> None:
        for _ in range(2000):
            self.prefix = f"t{uuid.uuid4().hex[:10]}-"
            if like is None or count is None or self.costs(count) == like.costs(count):
                break
        else:
            raise AssertionError("no prefix tokenizes like the first world's")
        self.project = f"{self.prefix}p"

    def costs(self, count: Callable[[str], int]) -> list[int]:
        words = [f"{self.prefix}u{i}{end}" for i in range(len(ROLES)) for end in ("", ":")]
        return [count(w) for w in (*words, f"{self.prefix}p", f"{self.prefix}p/e0")]

    def user(self, i: int) -> str:
        return f"{self.prefix}u{i}"

    def entry(self, key: str) -> str:
        return f"{self.project}/{key}"


def record(names: Names, live: Live) -> dict[str, Any]:
    """The entry as written: its persons named in its text too; a forgotten name is the mark in the text and is not
    listed."""
    spec = live.spec
    words = " ".join(spec.words)
    text = f"{words[:1].upper()}{words[1:]}."
    if spec.persons:
        text += " Estuvimos con " + ", ".join(MARK if p in live.forgotten else p for p in spec.persons) + "."
    rec: dict[str, Any] = {
        "entry_id": names.entry(live.key),
        "project_id": names.project,
        "intimacy": spec.intimacy,
        "text": text,
        "persons": [p for p in spec.persons if p not in live.forgotten],
    }
    if spec.author is not None:
        rec["author"] = names.user(spec.author)
    if spec.chapter is not None:
        rec["period"] = spec.chapter
    if spec.when is not None:
        rec["occurred_on"] = spec.when
    return rec


# --- observations ---------------------------------------------------------------------------------------------------


def _observed(value: Any) -> Any:
    """What a reader observes in an answer: bookkeeping dropped, ranked lists as sets without rank and score."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in UNOBSERVED:
                continue
            item = _observed(item)
            if key in RANKED and isinstance(item, list):
                item = sorted(
                    ({k: v for k, v in x.items() if k not in RANK_FIELDS} if isinstance(x, dict) else x for x in item),
                    key=lambda x: json.dumps(x, sort_keys=True, ensure_ascii=False),
                )
            out[key] = item
        return out
    if isinstance(value, list):
        return [_observed(v) for v in value]
    if isinstance(value, float):
        return round(value, 5)
    return value


def _answer(resp: Any) -> Any:
    try:
        body = resp.json()
    except ValueError:
        body = sorted(resp.text.splitlines())
        body = [_observed(json.loads(line)) if line.startswith("{") else line for line in body]
    return {"status": resp.status_code, "body": _observed(body)}


def _canonical(snapshot: dict[str, Any], names: Names) -> Any:
    """The world's prefix made neutral. A summary's id hashes its chapter's and its reader's ids, which carry the
    prefix: the id is the same for the same (chapter, audience, reader) in one world, and never equal across two."""
    text = json.dumps(plain(snapshot), ensure_ascii=False)
    text = SUMMARY_ID.sub("<summary id>", text.replace(names.prefix, "<w>-"))
    return json.loads(text)


@dataclass
class Reader:
    graph: Graph
    embedder: CheckedEmbedder
    svc: Services
    client: TestClient
    settings: Settings

    def snapshot(self, names: Names, keys: list[str], i: int) -> dict[str, Any]:
        refresh_project(self.graph, names.project, self.embedder.slug)  # the entity-vector worker's job
        headers = {"Authorization": f"Bearer {auth.issue(self.settings, names.user(i))}"}
        caller = Caller(Viewer(user_id=names.user(i)), Limits(self.settings))
        project, base = names.project, f"/v1/projects/{names.project}"
        get, post = self.client.get, self.client.post
        out: dict[str, Any] = {}
        for key in keys:
            out[f"GET /v1/entries/{key}"] = _answer(get(f"/v1/entries/{quote(names.entry(key))}", headers=headers))
        for path in ("entries", "entities", "periods", "summary", "analytics/importance"):
            out[f"GET {path}"] = _answer(get(f"{base}/{path}", headers=headers))
        for person in PERSONS:
            for what in ("cooccurrence", "timeline", "similar"):
                out[f"GET analytics/{what}?entity={person}"] = _answer(
                    get(f"{base}/analytics/{what}", params={"entity": person}, headers=headers)
                )
        for name, query, channels in SEARCHES:
            body: dict[str, Any] = {"q": query, "project_id": project, "k": 20, "explain": True}
            if channels is not None:
                body["channels"] = list(channels)
            out[f"POST /v1/search[{name}]"] = _answer(post("/v1/search", json=body, headers=headers))
        for theme in ("Berlín 2008", "el faro y la marea"):
            out[f"POST /v1/context/chapter[{theme}]"] = _answer(
                post("/v1/context/chapter", json={"project_id": project, "theme": theme}, headers=headers)
            )
        live = {"project_id": project, "transcript": "Hablamos de Odile, de Marta y de Josep junto al faro."}
        out["POST /v1/context/live"] = _answer(post("/v1/context/live", json=live, headers=headers))
        out["GET export"] = _answer(get(f"{base}/export", params={"own": str(i != 0).lower()}, headers=headers))
        for tool, args in (
            ("search", {"q": "marea y cometa con Josep", "project_id": project}),
            ("entity_question", {"project_id": project, "question": "cooccurrence", "entity": "Marta"}),
            ("summary", {"project_id": project}),
        ):
            try:
                out[f"MCP {tool}"] = _observed(plain(call(self.svc, caller, tool, args)))
            except (HTTPException, Refused) as exc:  # the tool's refusal, as the route answers it
                refused = refusal_of(exc)
                out[f"MCP {tool}"] = {"status": refused.status, "detail": plain(refused.detail)}
        return _canonical(out, names)

    def snapshots(self, names: Names, keys: list[str]) -> dict[str, Any]:
        return {f"{ROLES[i]}: {path}": v for i in range(3) for path, v in self.snapshot(names, keys, i).items()}


# --- the property ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    since = time.monotonic()
    yield
    SUMMARY.append(
        f"forgetting property: {TALLY['worlds']} world pairs, {TALLY['paths']} (member, read path) answers "
        f"compared after {TALLY['deletes']} deletes and {TALLY['forgets']} forgets ({TALLY['redacted']} entries "
        "redacted)"
        f" {spent(since)}"
    )


@pytest.fixture(scope="module")
def reader(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> Iterator[Reader]:
    unlimited = settings.model_copy(
        update={"rate_search_per_second": 0.0, "rate_write_per_second": 0.0, "rate_read_per_second": 0.0}
    )
    svc = Services(unlimited, graph=graph, embedder=embedder)
    with TestClient(create_app(svc)) as client:
        yield Reader(graph, embedder, svc, client, unlimited)


def _members(graph: Graph, names: Names) -> None:
    for i, role in enumerate(ROLES):
        set_member(graph, names.project, names.user(i), role)


def _write(ingest: Callable[..., IngestReport], names: Names, entries: list[Live]) -> None:
    report = ingest([record(names, e) for e in entries])
    assert not report.errors and report.chunks_pending == 0, report.errors


def _delete(r: Reader, names: Names, target: Live) -> str:
    """Delete as the API lets it be deleted: by the owner when they see it, else by its author; an entry no member
    sees (private, written by nobody of the world) through ingest, as an operator would."""
    spec = target.spec
    deleter = 0 if owner_sees(spec) else spec.author
    if deleter is None:
        assert Ingestor(r.graph, r.embedder).delete(names.entry(target.key))
        return f"delete {target.key} (by ingest)"
    headers = {"Authorization": f"Bearer {auth.issue(r.settings, names.user(deleter))}"}
    resp = r.client.delete(f"/v1/entries/{quote(names.entry(target.key))}", headers=headers)
    assert resp.status_code == 200, resp.text
    return f"delete {target.key} (by {ROLES[deleter]})"


def _forget(r: Reader, names: Names, live: list[Live], person: str) -> str:
    """The owner forgets `person`: found (and redacted in every entry the owner sees) exactly when an entry the
    owner sees still names it."""
    headers = {"Authorization": f"Bearer {auth.issue(r.settings, names.user(0))}"}
    resp = r.client.delete(
        f"/v1/projects/{names.project}/entities/person/{quote(person)}", params={"forget": "true"}, headers=headers
    )
    naming = [e for e in live if owner_sees(e.spec) and person in e.spec.persons and person not in e.forgotten]
    if not naming:
        assert resp.status_code == 404, resp.text
        return f"forget {person} (nothing the owner sees names it: 404)"
    assert resp.status_code == 202, resp.text
    answer = resp.json()
    assert sorted(x["entry_id"] for x in answer["entries"]) == sorted(names.entry(e.key) for e in naming)
    wait_relinked(r.client, headers, names.project, answer["relink"]["job_id"])
    backfill(r.graph, r.embedder, project_id=names.project)  # the redacted texts' chunks, as the worker embeds them
    for e in naming:
        e.forgotten.add(person)
    TALLY["redacted"] += len(naming)
    return f"forget {person} ({len(naming)} entries redacted)"


@hyp_settings(
    max_examples=MAX_EXAMPLES,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(entries=st.lists(specs, min_size=3, max_size=6), operations=st.lists(ops, min_size=1, max_size=4))
def test_after_deletes_and_forgets_every_read_path_equals_a_world_that_never_held_them(
    reader: Reader, graph: Graph, ingest: Callable[..., IngestReport], entries: list[Spec], operations: list[Op]
) -> None:
    count, _ = counter_for(reader.embedder)
    first = Names()
    second = Names(like=first, count=count)
    try:
        _members(graph, first)
        live = [Live(f"e{k}", spec) for k, spec in enumerate(entries)]
        _write(ingest, first, live)
        keys = [e.key for e in live] + [f"m{n}" for n in range(len(operations))]
        reader.snapshots(first, keys)  # fills the caches the operations must invalidate
        done = []
        for n, op in enumerate(operations):
            if op.kind == "add":
                new = Live(f"m{n}", op.entry)
                _write(ingest, first, [new])
                live.append(new)
                done.append(f"add m{n} ({op.entry.intimacy}, author {op.entry.author}, {list(op.entry.persons)})")
            elif op.kind == "delete" and live:
                target = live.pop(op.pick % len(live))
                done.append(_delete(reader, first, target))
                TALLY["deletes"] += 1
            elif op.kind == "forget":
                done.append(_forget(reader, first, live, PERSONS[op.pick % len(PERSONS)]))
                TALLY["forgets"] += 1
        after = reader.snapshots(first, keys)

        _members(graph, second)
        _write(ingest, second, [Live(e.key, e.spec, set(e.forgotten)) for e in live])
        never = reader.snapshots(second, keys)
        TALLY["worlds"] += 1
        TALLY["paths"] += len(after)
        changed = changed_paths(never, after)
        shown = "\n  ".join(changed[:15])
        assert not changed, (
            f"{len(changed)} read path(s) differ from a world that never held what was deleted or forgotten "
            f"(never written -> after the operations):\n  {shown}\noperations: {done}\n"
            f"entries at the end: {[(e.key, e.spec, sorted(e.forgotten)) for e in live]}"
        )
    finally:
        for names in (first, second):
            graph.write(CLEANUP, {"prefix": names.prefix})
