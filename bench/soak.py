"""Soak: concurrent clients through the HTTP API on loopback, then three verdicts.

    .venv/bin/python bench/soak.py [--clients 8] [--seconds 120] [--seed 1] [--json out.json]

Clients write and search as several users of two projects (owners, coauthors, readers, one user who is a coauthor
in one project and a reader in the other, and an outsider): creates, edits (PUT without `intimacy`, which keeps the
level), level changes, deletes, writes a reader must be refused, and searches. Every write is entered in a ledger
*before* it is sent and its answer noted when it comes, so at the end:

1. no answer was a 5xx (or a transport error), and every status was the one expected;
2. every acknowledged write is in the graph exactly as acknowledged (text, level; deleted entries absent), read
   directly from Neo4j, and no refused write left anything behind;
3. no search returned an entry its viewer may not see: each result is judged (with `tests/design_rule.py`'s
   oracle) against every state its entry may have had while the search ran, i.e. the state acknowledged before the
   search began and the state of any write in flight during it; its reported level must be one of those states.

Each client writes only the entries it created, so the last acknowledged write of an entry is its final state.
`tests/bench/test_soak.py` runs a shortened soak with the same code in `make test`; this script serves the API from a
`memora serve` subprocess (embedding worker included, rate limits off) against the managed Neo4j of MEMORA_HOME.
"""

from __future__ import annotations

import argparse
import bisect
import json
import random
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api import auth  # noqa: E402
from bench.percentiles import nearest_rank  # noqa: E402
from bench.serving import served_by_memora  # noqa: E402
from graph.db import Graph  # noqa: E402
from graph.members import set_member  # noqa: E402
from graph.settings import Settings  # noqa: E402
from tests.design_rule import member_may_see  # noqa: E402

VOCAB = (
    "casa perro verano playa abuela cocina lluvia tren carta jardín hospital escuela mercado río montaña fiesta "
    "música libro coche ventana"
).split()
LEVELS = ("private", "intimate", "circle", "public")
KINDS = ("create", "edit", "relevel", "delete", "refused_write", "search")
# Share of each operation in a client's loop (the rest are searches).
MIX = (("create", 0.20), ("edit", 0.13), ("relevel", 0.10), ("delete", 0.07), ("refused_write", 0.03))
OPENING = ("create", "create", "edit", "relevel", "search", "refused_write", "delete")
"""Each client's first operations, so even a short soak exercises every kind; then the mix decides."""
DELETED = None


# --- who --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cast:
    """Two projects and their members; `writers` are the (user, project) pairs clients write as, in turn."""

    projects: tuple[str, str]
    roles: dict[tuple[str, str], str]
    users: tuple[str, ...]
    writers: tuple[tuple[str, str], ...]
    readers: tuple[tuple[str, str], ...]

    def role(self, user: str, project: str) -> str | None:
        return self.roles.get((user, project))


def make_cast(prefix: str) -> Cast:
    a, b = f"{prefix}soak-a", f"{prefix}soak-b"
    u = {name: f"{prefix}{name}" for name in ("ana", "berta", "carla", "dani", "eva", "fede", "gil", "outsider")}
    roles = {
        (u["ana"], a): "owner",
        (u["berta"], a): "coauthor",
        (u["carla"], a): "reader",
        (u["dani"], a): "coauthor",
        (u["dani"], b): "reader",
        (u["eva"], b): "owner",
        (u["fede"], b): "coauthor",
        (u["gil"], b): "reader",
    }
    writers = ((u["ana"], a), (u["eva"], b), (u["berta"], a), (u["fede"], b), (u["dani"], a))
    readers = ((u["carla"], a), (u["gil"], b), (u["dani"], b))
    return Cast((a, b), roles, tuple(u.values()), writers, readers)


def seed_cast(graph: Graph, cast: Cast) -> None:
    for (user, project), role in cast.roles.items():
        set_member(graph, project, user, role)


def drop_cast(graph: Graph, cast: Cast) -> None:
    graph.write(
        "MATCH (n) WHERE n.project_id IN $p OR (n:Project AND n.id IN $p) DETACH DELETE n", {"p": list(cast.projects)}
    )
    graph.write("MATCH (u:User) WHERE u.id IN $u DETACH DELETE u", {"u": list(cast.users)})


# --- the ledger ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    text: str
    intimacy: str


@dataclass
class Write:
    sent: float
    state: State | None  # None: deleted
    received: float | None = None
    outcome: str = "pending"  # acked (2xx), refused (4xx: not applied) or unknown (5xx, transport error)


@dataclass
class Owned:
    author: str
    project: str
    writes: list[Write] = field(default_factory=list)


class Ledger:
    """Every write, entered before it is sent; what an entry may have looked like at any moment follows from it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.entries: dict[str, Owned] = {}

    def begin(self, entry_id: str, author: str, project: str, state: State | None) -> Write:
        write = Write(time.monotonic(), state)
        with self._lock:
            self.entries.setdefault(entry_id, Owned(author, project)).writes.append(write)
        return write

    @staticmethod
    def end(write: Write, status: int | None) -> None:
        write.received = time.monotonic()
        write.outcome = (
            "acked"
            if status is not None and 200 <= status < 300
            else "refused"
            if status is not None and 400 <= status < 500
            else "unknown"
        )

    def states_during(self, entry_id: str, t0: float, t1: float) -> tuple[Owned | None, list[State | None]]:
        """The states `entry_id` may have had between t0 and t1: the one acknowledged last before t0 (or absence), and
        that of every write in flight meanwhile or of unknown outcome sent before t1."""
        with self._lock:
            owned = self.entries.get(entry_id)
            writes = list(owned.writes) if owned else []
        states: list[State | None] = []
        before: State | None = DELETED
        for w in writes:
            done = w.received
            if done is not None and done < t0 and w.outcome == "acked":
                before = w.state
            elif (
                w.sent <= t1
                and (w.outcome in ("pending", "unknown") or (done is not None and done >= t0))
                and w.outcome != "refused"
            ):
                states.append(w.state)
        return owned, [before, *states]

    def expected_final(self) -> Iterator[tuple[str, Owned, State | None, bool]]:
        """(id, owner, the state the graph must hold, whether it is certain): the last acknowledged write, unless a
        write of unknown outcome came after it."""
        for entry_id, owned in self.entries.items():
            final: State | None = DELETED
            certain = True
            for w in owned.writes:
                if w.outcome == "acked":
                    final, certain = w.state, True
                elif w.outcome != "refused":
                    certain = False
            yield entry_id, owned, final, certain


# --- the clients --------------------------------------------------------------------------------------------------


@dataclass
class Call:
    kind: str
    status: int | None  # None: no answer (transport error)
    seconds: float
    expected: bool
    error: str | None = None  # the transport error, or the start of an unexpected answer's body


@dataclass
class SoakReport:
    clients: int
    seconds: float
    calls: list[Call] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    results_checked: int = 0
    uncertain: int = 0

    @property
    def server_errors(self) -> int:
        return sum(1 for c in self.calls if c.status is None or c.status >= 500)

    @property
    def unexpected(self) -> list[Call]:
        return [c for c in self.calls if not c.expected]

    @property
    def ok(self) -> bool:
        return not (self.server_errors or self.unexpected or self.leaks or self.problems)

    def figures(self) -> dict[str, Any]:
        by_kind: dict[str, list[Call]] = defaultdict(list)
        for c in self.calls:
            by_kind[c.kind].append(c)
        kinds = {}
        for kind in KINDS:
            calls = by_kind.get(kind, [])
            times = sorted(c.seconds for c in calls)
            kinds[kind] = {
                "requests": len(calls),
                "statuses": dict(sorted(Counter(str(c.status) for c in calls).items())),
                "p50_ms": nearest_rank(times, 0.50, scale=1000),
                "p95_ms": nearest_rank(times, 0.95, scale=1000),
                "max_ms": round(times[-1] * 1000, 1) if times else None,
            }
        return {
            "clients": self.clients,
            "seconds": round(self.seconds, 1),
            "requests": len(self.calls),
            "requests_per_second": round(len(self.calls) / self.seconds, 1) if self.seconds else 0,
            "server_errors": self.server_errors,
            "unexpected_statuses": len(self.unexpected),
            "search_results_checked": self.results_checked,
            "leaks": len(self.leaks),
            "lost_or_wrong_writes": len(self.problems),
            "entries_of_uncertain_outcome": self.uncertain,
            "per_kind": kinds,
        }

    def table(self) -> str:
        f = self.figures()
        lines = [
            f"{f['clients']} clients, {f['seconds']} s, {f['requests']} requests "
            f"({f['requests_per_second']}/s); 5xx or no answer: {f['server_errors']}; unexpected statuses: "
            f"{f['unexpected_statuses']}; search results checked: {f['search_results_checked']}, leaks: "
            f"{f['leaks']}; acknowledged writes lost or wrong: {f['lost_or_wrong_writes']}",
            f"{'kind':<14}{'requests':>9}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}  statuses",
        ]
        for kind, k in f["per_kind"].items():
            lines.append(
                f"{kind:<14}{k['requests']:>9}{k['p50_ms'] or 0:>9}{k['p95_ms'] or 0:>9}"
                f"{k['max_ms'] or 0:>9}  {k['statuses']}"
            )
        lines += [f"LEAK {x}" for x in self.leaks[:20]] + [f"LOST {x}" for x in self.problems[:20]]
        lines += [f"UNEXPECTED {c.kind} {c.status} {c.error}" for c in self.unexpected[:20]]
        return "\n".join(lines)


class Soak:
    """`clients` threads for `seconds` against `base_url`; `run()` returns the report, `verify(graph)` completes it."""

    def __init__(
        self,
        base_url: str,
        settings: Settings,
        cast: Cast,
        clients: int = 8,
        seconds: float = 120,
        seed: int = 1,
        timeout: float = 60,
        min_results: int = 0,
        max_seconds: float | None = None,
    ) -> None:
        self.base_url, self.cast, self.clients, self.seconds, self.seed = base_url, cast, clients, seconds, seed
        self.timeout = timeout
        # A short soak on a loaded machine may judge too few search results to mean anything: it then goes on past
        # `seconds` until `min_results` were judged, and stops at `max_seconds` whatever happens.
        self.min_results = min_results
        self.max_seconds = max_seconds if max_seconds is not None else seconds
        self.tokens = {u: {"Authorization": f"Bearer {auth.issue(settings, u)}"} for u in cast.users}
        self.ledger = Ledger()
        self.report = SoakReport(clients, seconds)
        self._lock = threading.Lock()
        self._serial = 0
        self._cap = 0.0

    def run(self) -> SoakReport:
        self.warm_up()
        started = time.monotonic()
        deadline = started + self.seconds
        self._cap = started + max(self.seconds, self.max_seconds)
        threads = [
            threading.Thread(target=self._client, args=(i, deadline), name=f"soak-{i}") for i in range(self.clients)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.report.seconds = time.monotonic() - started
        return self.report

    def _done(self, deadline: float) -> bool:
        now = time.monotonic()
        if now >= self._cap:
            return True
        with self._lock:
            return now >= deadline and self.report.results_checked >= self.min_results

    def warm_up(self) -> None:
        """One search before the clock starts: the first loads the query model and plans each statement."""
        viewer, project = self.cast.writers[0]
        with httpx.Client(base_url=self.base_url, timeout=300) as http:
            http.post("/v1/search", json={"q": VOCAB[0], "project_id": project}, headers=self.tokens[viewer])

    # one client
    def _client(self, index: int, deadline: float) -> None:
        rng = random.Random(self.seed * 1000 + index)
        writer, project = self.cast.writers[index % len(self.cast.writers)]
        mine: list[str] = []  # entries this client created and has not deleted
        levels: dict[str, State] = {}
        with httpx.Client(base_url=self.base_url, timeout=self.timeout) as http:
            for step in range(sys.maxsize):
                if self._done(deadline):
                    break
                kind = OPENING[step] if step < len(OPENING) else _pick(rng)
                if kind in ("edit", "relevel", "delete") and not mine:
                    kind = "create"
                if kind == "create":
                    self._create(http, rng, writer, project, mine, levels)
                elif kind == "refused_write":
                    self._refused_write(http, rng)
                elif kind == "search":
                    self._search(http, rng)
                else:
                    entry_id = rng.choice(mine)
                    self._change(http, rng, kind, writer, project, entry_id, mine, levels)

    def _text(self, rng: random.Random) -> str:
        with self._lock:
            self._serial += 1
            n = self._serial
        return f"Nota {n}: " + " ".join(rng.choice(VOCAB) for _ in range(rng.randint(6, 24))) + "."

    def _call(
        self,
        http: httpx.Client,
        kind: str,
        method: str,
        url: str,
        user: str,
        expected: Callable[[int], bool],
        body: dict[str, Any] | None = None,
    ) -> tuple[httpx.Response | None, float, float]:
        t0 = time.monotonic()
        error = None
        try:
            resp: httpx.Response | None = http.request(method, url, json=body, headers=self.tokens[user])
        except httpx.HTTPError as exc:
            resp, error = None, repr(exc)
        t1 = time.monotonic()
        status = resp.status_code if resp is not None else None
        ok = status is not None and expected(status)
        if resp is not None and not ok:
            error = resp.text[:200]
        with self._lock:
            self.report.calls.append(Call(kind, status, t1 - t0, ok, error))
        return resp, t0, t1

    def _create(
        self,
        http: httpx.Client,
        rng: random.Random,
        writer: str,
        project: str,
        mine: list[str],
        levels: dict[str, State],
    ) -> None:
        entry_id = f"{project}/{uuid.uuid4().hex[:12]}"
        state = State(self._text(rng), rng.choice(LEVELS))
        write = self.ledger.begin(entry_id, writer, project, state)
        resp, _, _ = self._call(
            http,
            "create",
            "POST",
            "/v1/entries",
            writer,
            lambda s: s == 201,
            {"project_id": project, "entry_id": entry_id, "text": state.text, "intimacy": state.intimacy},
        )
        self.ledger.end(write, resp.status_code if resp is not None else None)
        if write.outcome == "acked":
            mine.append(entry_id)
            levels[entry_id] = state

    def _change(
        self,
        http: httpx.Client,
        rng: random.Random,
        kind: str,
        writer: str,
        project: str,
        entry_id: str,
        mine: list[str],
        levels: dict[str, State],
    ) -> None:
        current = levels[entry_id]
        url = f"/v1/entries/{entry_id}"
        if kind == "delete":
            write = self.ledger.begin(entry_id, writer, project, DELETED)
            resp, _, _ = self._call(http, kind, "DELETE", url, writer, lambda s: s == 200)
        else:
            if kind == "edit":  # no `intimacy`: the level is kept
                state = State(self._text(rng), current.intimacy)
                body: dict[str, Any] = {"text": state.text}
            else:
                level = rng.choice([lv for lv in LEVELS if lv != current.intimacy])
                state, body = State(current.text, level), {"text": current.text, "intimacy": level}
            write = self.ledger.begin(entry_id, writer, project, state)
            resp, _, _ = self._call(http, kind, "PUT", url, writer, lambda s: s == 200, body)
        self.ledger.end(write, resp.status_code if resp is not None else None)
        if write.outcome != "acked":
            return
        if write.state is None:
            mine.remove(entry_id)
            levels.pop(entry_id)
        else:
            levels[entry_id] = write.state

    def _refused_write(self, http: httpx.Client, rng: random.Random) -> None:
        """A reader's create must be 403 and leave nothing (the final check looks for its id)."""
        reader, project = rng.choice(self.cast.readers)
        entry_id = f"{project}/refused-{uuid.uuid4().hex[:12]}"
        state = State(self._text(rng), "public")
        write = self.ledger.begin(entry_id, reader, project, state)
        resp, _, _ = self._call(
            http,
            "refused_write",
            "POST",
            "/v1/entries",
            reader,
            lambda s: s == 403,
            {"project_id": project, "entry_id": entry_id, "text": state.text, "intimacy": "public"},
        )
        self.ledger.end(write, resp.status_code if resp is not None else None)

    def _search(self, http: httpx.Client, rng: random.Random) -> None:
        viewer = rng.choice(self.cast.users)
        project = rng.choice([*self.cast.projects, None])
        member = project is None or self.cast.role(viewer, project) is not None
        q = " ".join(rng.choice(VOCAB) for _ in range(rng.randint(1, 4)))
        body = {"q": q, "project_id": project, "k": 20}
        resp, t0, t1 = self._call(
            http, "search", "POST", "/v1/search", viewer, lambda s: s == (200 if member else 403), body
        )
        if resp is None or resp.status_code != 200:
            return
        for result in resp.json()["results"]:
            self._judge(viewer, q, result, t0, t1)

    def _judge(self, viewer: str, q: str, result: dict[str, Any], t0: float, t1: float) -> None:
        owned, states = self.ledger.states_during(result["entry_id"], t0, t1)
        with self._lock:
            self.report.results_checked += 1
        why = None
        if owned is None:
            why = "an entry no client wrote"
        else:
            role = self.cast.role(viewer, owned.project)
            allowed = [
                s
                for s in states
                if s is not None
                and s.intimacy == result["intimacy_level"]
                and member_may_see(role, s.intimacy, viewer == owned.author)
            ]
            if result.get("author_id") != owned.author:
                why = f"author {result.get('author_id')} instead of {owned.author}"
            elif not allowed:
                why = (
                    f"reported level {result['intimacy_level']}, role {role}, author {owned.author}, possible "
                    f"states {[(s.intimacy if s else 'absent') for s in states]}"
                )
        if why is not None:
            with self._lock:
                self.report.leaks.append(f"{viewer} searching {q!r} got {result['entry_id']}: {why}")

    # after the run
    def verify(self, graph: Graph) -> SoakReport:
        rows = graph.read(
            "MATCH (e:Entry) WHERE e.project_id IN $p "
            "RETURN e.id AS id, e.body AS text, e.intimacy AS intimacy, e.author_id AS author",
            {"p": list(self.cast.projects)},
        )
        stored = {r["id"]: r for r in rows}
        for entry_id, owned, final, certain in self.ledger.expected_final():
            row = stored.pop(entry_id, None)
            if not certain:
                self.report.uncertain += 1
                continue
            if final is None:
                if row is not None:
                    self.report.problems.append(f"{entry_id}: deleted or refused, yet stored")
            elif row is None:
                self.report.problems.append(f"{entry_id}: acknowledged, missing")
            elif (row["text"], row["intimacy"], row["author"]) != (final.text, final.intimacy, owned.author):
                self.report.problems.append(
                    f"{entry_id}: stored {(row['intimacy'], row['text'][:40])} instead of "
                    f"{(final.intimacy, final.text[:40])}"
                )
        self.report.problems += [f"{entry_id}: stored, never written by a client" for entry_id in stored]
        return self.report


def _pick(rng: random.Random) -> str:
    cumulative = [0.0]
    for _, share in MIX:
        cumulative.append(cumulative[-1] + share)
    i = bisect.bisect_right(cumulative, rng.random()) - 1
    return MIX[i][0] if i < len(MIX) else "search"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json")
    parser.add_argument(
        "--server-log", default="soak-server.log", help="where `memora serve` logs (default: %(default)s)"
    )
    args = parser.parse_args()
    from api.cli import connect
    from graph.settings import get_settings

    settings = get_settings()
    graph = connect(settings)
    cast = make_cast(f"soak{uuid.uuid4().hex[:6]}-")
    seed_cast(graph, cast)
    try:
        with served_by_memora(Path(args.server_log)) as url:
            soak = Soak(url, settings, cast, clients=args.clients, seconds=args.seconds, seed=args.seed)
            soak.run()
        report = soak.verify(graph)
    finally:
        drop_cast(graph, cast)
    print(report.table())
    if not report.ok:
        print(f"server log: {args.server_log}")
    if args.json:
        Path(args.json).write_text(json.dumps(report.figures(), indent=2))
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
