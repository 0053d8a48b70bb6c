"""Property-based privacy on the real Neo4j: random worlds, every viewer, every read path.

Hypothesis draws small worlds (projects, members with random roles, entries with random author, intimacy and chapter,
an optional witness grant), ingests each in one call and compares what every viewer gets from the search door, the
entry reader and the HTTP endpoints with `can_see` below, written from docs/architecture.md ("Privacy: who sees
what") without looking at the Cypher predicate. A leak or an over-restriction in any path shrinks to a minimal world.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from api import auth
from api.app import Services, create_app
from graph.db import Graph
from graph.entries import get_visible_entry
from graph.ids import period_id
from graph.members import remove_member, set_member
from graph.settings import Settings
from graph.visibility import Viewer
from graph.witnesses import create_grant, revoke_grant
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from queries.search.door import hybrid_search
from queries.search.request import AccessDenied, Filters, Scope, SearchOptions
from tests.budget import examples, spent
from tests.conftest import CLEANUP, SUMMARY
from tests.design_rule import member_may_see, witness_may_see

pytestmark = pytest.mark.slow

LEVELS = ("private", "intimate", "circle", "public")
ROLE_CHOICES = ("owner", "coauthor", "reader", None)
CHAPTERS = ("Berlín 2008", "Verano en Cádiz")
KEYWORD = "xilófono"
# One person per entry, by position: names no other text contains, so entity linking adds no extra mentions.
NAMES = (
    "Adelaida",
    "Bernardino",
    "Casimira",
    "Dionisio",
    "Eulalia",
    "Fermina",
    "Genoveva",
    "Hilario",
    "Inmaculada",
    "Jacinto",
)
FILLERS = (
    "sonaba en la cocina mientras llovía",
    "lo encontramos en el desván de la abuela",
    "nadie sabía tocarlo pero todos lo intentaban",
    "we played it badly and laughed all night",
    "il est resté dans la voiture tout l'été",
)
FULLTEXT_ONLY = ("fulltext",)
MAX_EXAMPLES = examples(30)

TALLY = {"worlds": 0, "checks": 0, "failing": 0}


@dataclass(frozen=True)
class EntrySpec:
    project: int
    author: int | None
    intimacy: str
    chapter: str | None
    filler: str


@dataclass(frozen=True)
class World:
    n_projects: int
    n_users: int
    roles: tuple[tuple[str | None, ...], ...]  # roles[user][project]
    entries: tuple[EntrySpec, ...]
    grant: tuple[int, str] | None  # (project, chapter) of the one witness link, if any
    dense_viewer: int  # which viewer runs the one dense search of the example (n_users = the witness)


@dataclass(frozen=True)
class Who:
    """A viewer of a world: a user index, or the witness (user None)."""

    user: int | None


@st.composite
def worlds(draw: st.DrawFn) -> World:
    n_projects = draw(st.integers(1, 2))
    n_users = draw(st.integers(2, 5))
    roles = tuple(tuple(draw(st.sampled_from(ROLE_CHOICES)) for _ in range(n_projects)) for _ in range(n_users))
    n_entries = draw(st.integers(3, 10))
    entries = tuple(
        EntrySpec(
            project=draw(st.integers(0, n_projects - 1)),
            author=draw(st.sampled_from((None, *range(n_users)))),
            intimacy=draw(st.sampled_from(LEVELS)),
            chapter=draw(st.sampled_from((None, *CHAPTERS))),
            filler=draw(st.sampled_from(FILLERS)),
        )
        for _ in range(n_entries)
    )
    grant = draw(st.none() | st.tuples(st.integers(0, n_projects - 1), st.sampled_from(CHAPTERS)))
    return World(n_projects, n_users, roles, entries, grant, draw(st.integers(0, n_users)))


def can_see(world: World, who: Who, k: int) -> bool:
    """The rule of docs/architecture.md ("Privacy: who sees what"), independent of graph/visibility.py: membership
    (or the witness's chapter) first, then the intimacy level."""
    e = world.entries[k]
    if who.user is None:
        assert world.grant is not None
        return witness_may_see((e.project, e.chapter) == world.grant, e.intimacy)
    return member_may_see(world.roles[who.user][e.project], e.intimacy, e.author == who.user)


class Names:
    """The concrete ids of one example, all under a fresh prefix so CLEANUP removes the whole world."""

    def __init__(self) -> None:
        self.prefix = f"pp{uuid.uuid4().hex[:10]}-"

    def project(self, j: int) -> str:
        return f"{self.prefix}p{j}"

    def user(self, i: int) -> str:
        return f"{self.prefix}u{i}"

    def entry(self, world: World, k: int) -> str:
        return f"{self.project(world.entries[k].project)}/e{k}"

    def marker(self, k: int) -> str:
        return f"sello{k}q{self.prefix[2:8]}"


def records(world: World, names: Names) -> list[dict[str, Any]]:
    out = []
    for k, e in enumerate(world.entries):
        rec: dict[str, Any] = {
            "entry_id": names.entry(world, k),
            "project_id": names.project(e.project),
            "intimacy": e.intimacy,
            "text": f"El {KEYWORD} {names.marker(k)}: {e.filler}.",
            "persons": [NAMES[k]],
        }
        if e.author is not None:
            rec["author"] = names.user(e.author)
        if e.chapter is not None:
            rec["period"] = e.chapter
        out.append(rec)
    return out


class Checker:
    """Compares one viewer's answers with `can_see`, counting every (viewer, entry, read path) decision."""

    def __init__(self, world: World, names: Names, who: Who, label: str) -> None:
        self.world, self.names, self.who, self.label = world, names, who, label

    def allowed(self, projects: set[int] | None = None) -> set[str]:
        return {
            self.names.entry(self.world, k)
            for k in range(len(self.world.entries))
            if can_see(self.world, self.who, k) and (projects is None or self.world.entries[k].project in projects)
        }

    def hidden_words(self) -> list[str]:
        return [
            w
            for k in range(len(self.world.entries))
            if not can_see(self.world, self.who, k)
            for w in (self.names.marker(k), NAMES[k])
        ]

    def same_set(self, path: str, seen: set[str], total: int, projects: set[int] | None = None) -> None:
        expected = self.allowed(projects)
        assert seen == expected, f"{path} for {self.label}: got {sorted(seen)}, rule says {sorted(expected)}"
        assert total == len(expected), f"{path} total_candidates for {self.label}: {total} != {len(expected)}"
        TALLY["checks"] += len(self.world.entries) + 1

    def nothing_hidden_in(self, path: str, text: str) -> None:
        leaked = [w for w in self.hidden_words() if w in text]
        assert not leaked, f"{path} for {self.label} mentions hidden {leaked}"
        TALLY["checks"] += len(self.world.entries)


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    since = time.monotonic()
    yield
    SUMMARY.append(
        f"property privacy: {TALLY['worlds']} worlds, {TALLY['checks']} (viewer, entry, read path) "
        f"cases, {TALLY['failing']} leaks (failing examples, shrinking included)"
        f" {spent(since)}"
    )


@pytest.fixture(scope="module")
def client(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> Iterator[TestClient]:
    with TestClient(create_app(Services(settings, graph=graph, embedder=embedder))) as c:
        yield c


def _bearer(settings: Settings, user_id: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {auth.issue(settings, user_id)}"}


def _search(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    viewer: Viewer,
    scope: Scope,
    channels: tuple[str, ...] = FULLTEXT_ONLY,
    project_ids: list[str] | None = None,
) -> tuple[set[str], int, str]:
    """Ids, total_candidates and everything shown about the results (snippets, names, periods) as one text."""
    resp = hybrid_search(
        graph,
        embedder,
        settings,
        viewer,
        KEYWORD,
        scope,
        SearchOptions(k=50, channels=channels, filters=Filters()),
        project_ids=project_ids,
    )
    assert all(KEYWORD in r.snippet_md for r in resp.results)
    return {r.entry_id for r in resp.results}, resp.total_candidates, repr(resp.results)


def _check_user(
    world: World,
    names: Names,
    i: int,
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    client: TestClient,
    missing: dict[int, tuple[int, Any]],
) -> None:
    who, viewer = Who(i), Viewer(user_id=names.user(i))
    check = Checker(world, names, who, f"user {i} {world.roles[i]}")
    member_of = {j for j in range(world.n_projects) if world.roles[i][j] is not None}

    seen, total, shown = _search(graph, embedder, settings, viewer, Scope(multi_project=True))
    check.same_set("hybrid_search(all projects)", seen, total)
    check.nothing_hidden_in("hybrid_search(all projects)", shown)
    for j in range(world.n_projects):
        if j in member_of:
            seen, total, _ = _search(graph, embedder, settings, viewer, Scope(project_id=names.project(j)))
            check.same_set(f"hybrid_search({j})", seen, total, {j})
        else:
            with pytest.raises(AccessDenied):
                _search(graph, embedder, settings, viewer, Scope(project_id=names.project(j)))
            TALLY["checks"] += 1

    for k in range(len(world.entries)):
        row = get_visible_entry(graph, viewer, names.entry(world, k))
        assert (row is not None) == can_see(world, who, k), f"get_visible_entry e{k} for {check.label}"
        TALLY["checks"] += 1

    headers = _bearer(settings, names.user(i))
    resp = client.post("/v1/search", json={"q": KEYWORD, "k": 50, "channels": ["fulltext"]}, headers=headers)
    assert resp.status_code == 200, resp.text
    body = resp.json()
    check.same_set("POST /v1/search", {r["entry_id"] for r in body["results"]}, body["total_candidates"])
    check.nothing_hidden_in("POST /v1/search", resp.text)

    # Naming every person of the world: query understanding may only recognise those of entries the viewer sees.
    every_name = " ".join(NAMES[: len(world.entries)])
    resp = client.post(
        "/v1/search",
        json={"q": f"{KEYWORD} {every_name}", "k": 50, "channels": ["fulltext"], "explain": True},
        headers=headers,
    )
    assert resp.status_code == 200, resp.text
    body = resp.json()
    understood = {p["name"] for p in (body["query_understanding"] or {}).get("persons", [])}
    visible_names = {NAMES[k] for k in range(len(world.entries)) if can_see(world, who, k)}
    assert understood == visible_names, f"understanding for {check.label}: {understood} != {visible_names}"
    TALLY["checks"] += len(world.entries)
    check.same_set("POST /v1/search (names)", {r["entry_id"] for r in body["results"]}, body["total_candidates"])
    check.nothing_hidden_in("POST /v1/search (names)", json.dumps(body["results"], ensure_ascii=False))

    for k in range(len(world.entries)):
        got = client.get(f"/v1/entries/{quote(names.entry(world, k))}", headers=headers)
        if can_see(world, who, k):
            assert got.status_code == 200 and names.marker(k) in got.json()["text"], got.text
        else:
            status, payload = missing[world.entries[k].project]
            assert (got.status_code, got.json()) == (status, payload), f"GET e{k} for {check.label}: {got.text}"
        TALLY["checks"] += 1

    for j in range(world.n_projects):
        got = client.get(f"/v1/projects/{names.project(j)}/entities", headers=headers)
        if j not in member_of:
            assert got.status_code == 403
            TALLY["checks"] += 1
            continue
        assert got.status_code == 200, got.text
        listed = {e["name"] for e in got.json()}
        expected = {NAMES[k] for k, e in enumerate(world.entries) if e.project == j and can_see(world, who, k)}
        assert listed == expected, f"entities of p{j} for {check.label}: {sorted(listed)} != {sorted(expected)}"
        TALLY["checks"] += sum(1 for e in world.entries if e.project == j)


def _check_witness(
    world: World,
    names: Names,
    grant_id: str,
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    client: TestClient,
) -> None:
    assert world.grant is not None
    who = Who(None)
    viewer = Viewer(witness_period_id=period_id(names.project(world.grant[0]), world.grant[1]))
    check = Checker(world, names, who, f"witness of {world.grant}")
    every_project = [names.project(j) for j in range(world.n_projects)]

    # No chapter filter: the predicate alone must confine the witness, even with every project in scope.
    seen, total, shown = _search(graph, embedder, settings, viewer, Scope(), project_ids=every_project)
    check.same_set("hybrid_search(witness, all projects)", seen, total)
    check.nothing_hidden_in("hybrid_search(witness, all projects)", shown)
    for k in range(len(world.entries)):
        row = get_visible_entry(graph, viewer, names.entry(world, k))
        assert (row is not None) == can_see(world, who, k), f"get_visible_entry e{k} for {check.label}"
        TALLY["checks"] += 1

    token = auth.issue_witness(settings, grant_id, 3600)
    resp = client.post(f"/v1/w/{token}/search", json={"q": KEYWORD, "k": 50})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    check.same_set("POST /v1/w/{token}/search", {r["entry_id"] for r in body["results"]}, body["total_candidates"])
    check.nothing_hidden_in("POST /v1/w/{token}/search", resp.text)

    missing = client.get(f"/v1/w/{token}/entries/{quote(names.project(world.grant[0]))}/nope")
    for k in range(len(world.entries)):
        got = client.get(f"/v1/w/{token}/entries/{quote(names.entry(world, k))}")
        if can_see(world, who, k):
            assert got.status_code == 200 and names.marker(k) in got.json()["text"], got.text
        else:
            assert (got.status_code, got.json()) == (missing.status_code, missing.json()), got.text
        TALLY["checks"] += 1


def _check_dense(
    world: World, names: Names, grant_id: str | None, graph: Graph, embedder: CheckedEmbedder, settings: Settings
) -> None:
    """One dense run per example: the exact-similarity path ranks every visible chunk, so it must return exactly the
    visible entries (for a witness: those of the chapter)."""
    every_project = [names.project(j) for j in range(world.n_projects)]
    if world.dense_viewer == world.n_users and grant_id is not None and world.grant is not None:
        who = Who(None)
        viewer = Viewer(witness_period_id=period_id(names.project(world.grant[0]), world.grant[1]))
        seen, total, shown = _search(graph, embedder, settings, viewer, Scope(), ("dense",), every_project)
    else:
        user = world.dense_viewer % world.n_users
        who = Who(user)
        seen, total, shown = _search(
            graph, embedder, settings, Viewer(user_id=names.user(user)), Scope(multi_project=True), ("dense",)
        )
    check = Checker(world, names, who, f"dense viewer {who}")
    check.same_set("hybrid_search(dense)", seen, total)
    check.nothing_hidden_in("hybrid_search(dense)", shown)


@hyp_settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(world=worlds())
def test_every_read_path_matches_an_independent_can_see(
    world: World,
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    client: TestClient,
    ingest: Callable[..., IngestReport],
) -> None:
    """One world per example, ingested in one call under a fresh prefix and removed afterwards, pass or fail."""
    names = Names()
    try:
        for i in range(world.n_users):
            for j in range(world.n_projects):
                role = world.roles[i][j]
                if role is not None:
                    set_member(graph, names.project(j), names.user(i), role)
        report = ingest(records(world, names))
        assert not report.errors and report.written == len(world.entries) and report.chunks_pending == 0

        grant_id = None
        if world.grant is not None:
            project, chapter = names.project(world.grant[0]), world.grant[1]
            grant_id = create_grant(graph, project, period_id(project, chapter), names.user(0), timedelta(hours=1))
            chapter_seen = any(
                (e.project, e.chapter) == world.grant and can_see(world, Who(0), k) for k, e in enumerate(world.entries)
            )
            assert (grant_id is not None) == chapter_seen, "a grant needs a chapter its creator sees an entry of"

        owner_headers = _bearer(settings, names.user(0))
        missing = {}
        for j in range(world.n_projects):
            got = client.get(f"/v1/entries/{quote(names.project(j))}/nope", headers=owner_headers)
            missing[j] = (got.status_code, got.json())
        for i in range(world.n_users):
            _check_user(world, names, i, graph, embedder, settings, client, missing)
        if grant_id is not None:
            _check_witness(world, names, grant_id, graph, embedder, settings, client)
        _check_dense(world, names, grant_id, graph, embedder, settings)
        TALLY["worlds"] += 1
    except AssertionError:
        TALLY["failing"] += 1
        raise
    finally:
        graph.write(CLEANUP, {"prefix": names.prefix})


# --- changes take effect on the next request ------------------------------------------------------------------------


def _fulltext_view(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, user: str, project: str
) -> tuple[set[str], int]:
    resp = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=user),
        "zanahoria secreta",
        Scope(project_id=project),
        SearchOptions(k=50, channels=FULLTEXT_ONLY),
    )
    return {r.entry_id for r in resp.results}, resp.total_candidates


def test_lowering_a_role_and_deleting_an_entry_take_effect_at_once(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, client: TestClient, family: dict[str, str]
) -> None:
    """Tokens issued before the change keep working but see the new state: roles and entries are read per request."""
    project = family["project"]
    coauthor, owner = _bearer(settings, family["coauthor"]), _bearer(settings, family["owner"])
    intimate = f"{project}/owner-intimate"
    missing = client.get(f"/v1/entries/{project}/no-such-entry", headers=coauthor)

    seen, total = _fulltext_view(graph, embedder, settings, family["coauthor"], project)
    assert intimate in seen and total == len(seen) == 6
    assert client.get(f"/v1/entries/{intimate}", headers=coauthor).status_code == 200

    set_member(graph, project, family["coauthor"], "reader")
    seen, total = _fulltext_view(graph, embedder, settings, family["coauthor"], project)
    assert {e.rsplit("-", 1)[1] for e in seen} == {"circle", "public"} and total == 4
    assert get_visible_entry(graph, Viewer(user_id=family["coauthor"]), intimate) is None
    hidden = client.get(f"/v1/entries/{intimate}", headers=coauthor)
    assert missing.status_code == 404
    assert (hidden.status_code, hidden.json()) == (missing.status_code, missing.json())
    body = client.post(
        "/v1/search",
        json={"q": "zanahoria secreta", "project_id": project, "k": 50, "channels": ["fulltext"]},
        headers=coauthor,
    ).json()
    assert body["total_candidates"] == 4 and "intimate" not in json.dumps(body["results"])

    circle = f"{project}/owner-circle"
    assert client.delete(f"/v1/entries/{circle}", headers=owner).status_code == 200
    for user, remaining in (("coauthor", 3), ("owner", 6)):
        seen, total = _fulltext_view(graph, embedder, settings, family[user], project)
        assert circle not in seen and total == len(seen) == remaining
    assert get_visible_entry(graph, Viewer(user_id=family["owner"]), circle) is None
    gone = client.get(f"/v1/entries/{circle}", headers=coauthor)
    assert (gone.status_code, gone.json()) == (missing.status_code, missing.json())

    remove_member(graph, project, family["coauthor"])
    assert (
        client.post("/v1/search", json={"q": "zanahoria", "project_id": project}, headers=coauthor).status_code == 403
    )
    assert client.get(f"/v1/entries/{project}/owner-public", headers=coauthor).json() == missing.json()


def test_expired_and_revoked_witness_links_open_nothing(
    graph: Graph, settings: Settings, client: TestClient, family: dict[str, str], ingest: Callable[..., IngestReport]
) -> None:
    """The grant in the graph decides, not the token: an expired or revoked grant is refused with a valid link."""
    project = family["project"]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/ch",
                "project_id": project,
                "author": family["owner"],
                "intimacy": "public",
                "period": "Berlín 2008",
                "text": "Zanahoria en Berlín.",
            }
        ]
    ).errors
    chapter = period_id(project, "Berlín 2008")
    expired = create_grant(graph, project, chapter, family["owner"], timedelta(seconds=-1))
    live = create_grant(graph, project, chapter, family["owner"], timedelta(hours=1))
    assert expired is not None and live is not None
    for grant_id, status in ((expired, 401), (live, 200)):
        token = auth.issue_witness(settings, grant_id, 3600)
        assert client.post(f"/v1/w/{token}/search", json={"q": "zanahoria"}).status_code == status
        assert client.get(f"/v1/w/{token}/entries/{project}/ch").status_code == status
    assert revoke_grant(graph, project, live)
    token = auth.issue_witness(settings, live, 3600)
    assert client.post(f"/v1/w/{token}/search", json={"q": "zanahoria"}).status_code == 401
    assert client.get(f"/v1/w/{token}/entries/{project}/ch").status_code == 401


def test_a_witness_cannot_search_words_lent_from_another_chapter(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    client: TestClient,
    family: dict[str, str],
    ingest: Callable[..., IngestReport],
) -> None:
    """Lent context must not widen an entry's audience: a witness's audience is one chapter, not the whole project."""
    project, owner = family["project"], family["owner"]
    turn = {"project_id": project, "author": owner, "intimacy": "circle", "occurred_at": "2020-01-01T10:00:00"}
    assert not ingest(
        [
            {
                **turn,
                "entry_id": f"{project}/question",
                "period": "Madrid",
                "turn": 1,
                "text": "¿Te acuerdas del zepelín escondido?",
            },
            {**turn, "entry_id": f"{project}/reply", "period": "Berlín", "turn": 2, "text": "Sí, claro que sí."},
        ]
    ).errors
    chapter = period_id(project, "Berlín")
    grant = create_grant(graph, project, chapter, owner, timedelta(hours=1))
    assert grant is not None
    token = auth.issue_witness(settings, grant, 3600)
    assert client.get(f"/v1/w/{token}/entries/{project}/reply").status_code == 200
    assert client.get(f"/v1/w/{token}/entries/{project}/question").status_code == 404

    resp = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(witness_period_id=chapter),
        "zepelín",
        Scope(),
        SearchOptions(channels=FULLTEXT_ONLY, filters=Filters(period_id=chapter)),
        project_ids=[project],
    )
    assert resp.source in ("recency", "none"), "only the other chapter's turn holds this word"
    assert all("fulltext" not in r.score_breakdown for r in resp.results)


def test_a_writer_cannot_probe_entry_ids_of_other_projects(
    graph: Graph,
    settings: Settings,
    client: TestClient,
    family: dict[str, str],
    prefix: str,
    ingest: Callable[..., IngestReport],
) -> None:
    """Hidden == missing also for writes: a coauthor of one project must not learn which ids another project uses."""
    other = f"{prefix}other"
    set_member(graph, other, f"{prefix}stranger", "owner")
    assert not ingest(
        [
            {
                "entry_id": f"{other}/diary-2008-07-12",
                "project_id": other,
                "author": f"{prefix}stranger",
                "intimacy": "private",
                "text": "Nadie debe saber que existo.",
            }
        ]
    ).errors
    headers = _bearer(settings, family["coauthor"])
    taken = client.post(
        "/v1/entries",
        headers=headers,
        json={"entry_id": f"{other}/diary-2008-07-12", "project_id": family["project"], "text": "sonda"},
    )
    unused = client.post(
        "/v1/entries",
        headers=headers,
        json={"entry_id": f"{other}/diary-2008-07-13", "project_id": family["project"], "text": "sonda"},
    )
    assert taken.status_code == unused.status_code, (taken.text, unused.text)
