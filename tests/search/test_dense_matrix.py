"""The kept view (queries/search/visible_view.py): for every role the dense channel's numpy path ranks as
`DENSE_EXACT` ranks in Cypher (same entries, scores, best chunks, under the query's own constraints too), the
structured channel as `STRUCTURED` does, a write the viewer may see is in their very next search while a write
hidden from them neither lists nor fetches anything of theirs, and a role change takes effect at once. A large view
is listed again behind the searches, which Cypher answers meanwhile; its stale copy is never served.

Vectors are written by hand, several chunks to an entry, so the expected order is known; the writes go through the
same generation bumps as the real write paths (`graph/generations.py`).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from datetime import date
from typing import Any

import numpy as np
import pytest

from bench.hash_embedder import HashEmbedder
from graph import generations
from graph.db import Graph
from graph.embeddings import stores_key
from graph.members import set_member
from graph.schema import ensure_vector_index, vector_property
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import channels as ch
from queries.search import door, view_build, visible_view
from queries.search.dense import dense
from queries.search.fusion import Hit
from queries.search.request import Scope, SearchOptions
from queries.search.scope import SearchScope
from queries.search.structured import structured
from tests.search.scopes import scope_of
from tests.search.view_equality import assert_same_view

WRITE = """
UNWIND $rows AS row
MERGE (p:Project {id: row.project})
MERGE (e:Entry {id: row.id})
ON CREATE SET e.project_id = row.project, e.intimacy = row.intimacy, e.author_id = row.author, e.kind = 'diary',
              e.body = 'vector only', e.created_at = datetime(), e.occurred_start = row.start,
              e.occurred_end = row.end, e.told_starts = row.told_starts, e.told_ends = row.told_ends
WITH e, row
CALL (e, row) {
  UNWIND coalesce(row.mentions, []) AS name
  MERGE (x:Person {id: row.project + '/person/' + name})
  ON CREATE SET x.project_id = row.project, x.kind = 'person', x.name = name
  MERGE (e)-[m:MENTIONS]->(x)
  SET m.count = coalesce(row.count, 1)
}
UNWIND range(0, size(row.vectors) - 1) AS i
CREATE (c:Chunk {id: row.id + '#' + toString(i), entry_id: row.id, project_id: row.project, ord: i,
                 text: 'vector only', embedding_hash: row.id + toString(i), embedding_model: $model,
                 embedding_status: 'done', created_at: datetime()})
CREATE (c)-[:OF]->(e)
WITH c, row, i
CALL db.create.setNodeVectorProperty(c, $prop, row.vectors[i])
"""
DIM = 384
ROLES = ("owner", "coauthor", "reader", "writer")  # writer: a reader who wrote private and intimate entries


def _unit(rng: np.random.Generator) -> list[float]:
    v = rng.standard_normal(DIM)
    return [float(x) for x in v / np.linalg.norm(v)]


def _write(graph: Graph, world: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    graph.write(WRITE, {"rows": rows, "prop": world["prop"], "model": world["embedder"].model_id})
    generations.bump_levels(
        graph, [{"project_id": r["project"], "intimacy": r["intimacy"], "author_id": r["author"]} for r in rows]
    )


@pytest.fixture()
def world(graph: Graph, prefix: str) -> dict[str, Any]:
    embedder = CheckedEmbedder(HashEmbedder())
    ensure_vector_index(graph, embedder.slug, embedder.dimensions)
    rng = np.random.default_rng(7)
    project = f"{prefix}fam"
    users = {r: f"{prefix}{r}" for r in ROLES}
    for role in ROLES:
        set_member(graph, project, users[role], "reader" if role == "writer" else role)
    world = {
        "embedder": embedder,
        "prop": vector_property(embedder.slug),
        "project": project,
        "users": users,
        "query": _unit(rng),
        "rng": rng,
    }
    rows = []
    for n in range(40):
        author = users[("owner", "coauthor", "writer")[n % 3]]
        level = ("private", "intimate", "circle", "public")[n % 4]
        year = 2000 + n % 7
        dated = {"start": date(year, 1 + n % 12, 1), "end": date(year, 1 + n % 12, 28)} if n % 5 else {}
        rows.append(
            {
                "id": f"{project}/e{n:02d}",
                "project": project,
                "intimacy": level,
                "author": author,
                "vectors": [_unit(rng) for _ in range(1 + n % 3)],
                **dated,
                "mentions": [name for k, name in enumerate(("Pep", "Marta", "Lola")) if n % (k + 2) == 0],
                "count": 1 + n % 4,
                # Times their text tells (ingest/event_times.py), undated entries among them: 2010-2012 only.
                **(
                    {"told_starts": [date(2010 + n % 3, 6, 1)], "told_ends": [date(2010 + n % 3, 6, 30)]}
                    if n % 3 == 1
                    else {}
                ),
            }
        )
    for n in range(4):  # entries whose chunks are not embedded yet: no dense hit, but the structured channel's
        rows.append(
            {
                "id": f"{project}/pending{n}",
                "project": project,
                "intimacy": ("circle", "private")[n % 2],
                "author": users["owner"],
                "vectors": [],
                "mentions": ["Pep", "Lola"][: n % 3],
                **({"start": date(2003, 5, 1), "end": date(2003, 5, 2)} if n else {}),
            }
        )
    _write(graph, world, rows)
    visible_view.clear(graph)
    return world


def _scope(world: dict[str, Any], viewer: Viewer, **extra: Any) -> SearchScope:
    return scope_of(world["project"], viewer, **extra)


def _params(world: dict[str, Any], viewer: Viewer, **extra: Any) -> dict[str, Any]:
    return _scope(world, viewer, **extra).params()


def _both(
    graph: Graph, settings: Settings, world: dict[str, Any], role: str, limit: int = 50, **extra: Any
) -> tuple[Any, Any]:
    viewer = Viewer(user_id=world["users"][role])
    base = _params(world, viewer, **extra)
    exact = ch.run_channel(
        graph,
        ch.DENSE_EXACT,
        {**base, "vector": world["query"], "prop": world["prop"], "model": world["embedder"].model_id, "limit": limit},
    )
    fast = dense(graph, world["embedder"], settings, _scope(world, viewer, **extra), world["query"], limit)
    return exact, fast


@pytest.mark.parametrize("role", ROLES)
def test_numpy_ranks_every_roles_entries_as_cypher_does(
    graph: Graph, settings: Settings, world: dict[str, Any], role: str
) -> None:
    before = dict(visible_view.counters)
    (exact, exact_chunks), (hits, chunks) = _both(graph, settings, world, role)
    assert visible_view.counters["listings"] == before["listings"] + 1  # the numpy path answered
    assert exact, "every role sees some entries"
    assert [h.id for h in hits] == [h.id for h in exact]
    assert [round(h.score, 6) for h in hits] == [round(h.score, 6) for h in exact]
    assert chunks == exact_chunks
    (_, _), (again, _) = _both(graph, settings, world, role, limit=5)
    assert [h.id for h in again] == [h.id for h in exact[:5]]
    assert visible_view.counters["listings"] == before["listings"] + 1  # the second search listed nothing


def test_a_filtered_scope_is_its_own_view(graph: Graph, settings: Settings, world: dict[str, Any]) -> None:
    (exact, _), (hits, _) = _both(graph, settings, world, "owner", intimacy_levels=["circle", "public"])
    assert [h.id for h in hits] == [h.id for h in exact]
    (everything, _), (all_hits, _) = _both(graph, settings, world, "owner")
    assert [h.id for h in all_hits] == [h.id for h in everything] and len(all_hits) > len(hits)


@pytest.mark.parametrize("role", ROLES)
def test_the_querys_own_constraints_select_as_cypher_does(
    graph: Graph, settings: Settings, world: dict[str, Any], role: str
) -> None:
    """Dates (an undated entry meets no bound but a time its text tells may), named people (any of them), an author
    phrase, and all at once."""
    project, users = world["project"], world["users"]
    pep, marta = f"{project}/person/Pep", f"{project}/person/Marta"
    cases: list[dict[str, Any]] = [
        {"q_from": date(2002, 1, 1), "q_to": date(2003, 6, 30)},
        {"q_to": date(2001, 12, 31)},
        {"q_entity_ids": [pep]},
        {"q_entity_ids": [marta, pep], "q_from": date(2004, 1, 1)},
        {"q_author_keys": [users["owner"].lower(), "nobody"]},
        {"q_from": date(2011, 6, 1), "q_to": date(2011, 7, 31)},  # told only (within it; written dates end in 2006)
        {"q_from": date(2011, 6, 10), "q_to": date(2011, 6, 12)},  # inside a told interval: not within, no match
        {"q_to": date(2000, 3, 1), "q_entity_ids": [pep]},
        {"q_from": date(2011, 6, 1), "q_to": date(2011, 7, 31), "q_told_to": date(2011, 6, 5)},  # a reach: told not
        {"q_entity_ids": [f"{project}/person/Nadie"]},
        {"q_from": date(2030, 1, 1)},
    ]
    before = dict(visible_view.counters)
    sizes = []
    viewer = Viewer(user_id=users[role])
    for extra in [{}, *cases]:  # BM25's N, whichever statement counts it for the question
        base = _params(world, viewer, **extra)
        counted = [graph.read(c, base)[0]["visible"] for c in (ch.FULLTEXT_VISIBLE, ch.fulltext_visible(base))]
        assert counted[0] == counted[1], extra
    for extra in cases:
        (exact, exact_chunks), (hits, chunks) = _both(graph, settings, world, role, **extra)
        assert [h.id for h in hits] == [h.id for h in exact], extra
        assert [round(h.score, 6) for h in hits] == [round(h.score, 6) for h in exact]
        assert chunks == exact_chunks
        sizes.append(len(hits))
    assert visible_view.counters["listings"] == before["listings"] + 1  # one view served every constraint
    assert sizes[-2:] == [0, 0] and all(0 < n < 40 for n in sizes[:3])
    assert sizes[5] > 0 and sizes[6] == 0, "met by a time their text tells lying within the date, not overlapping it"
    assert sizes[8] == 0, "a time told past the question's own days is not met by the reach past them"


@pytest.mark.parametrize("role", ROLES)
def test_a_question_naming_people_is_ranked_from_their_mentions_as_from_every_entry(
    graph: Graph, settings: Settings, world: dict[str, Any], role: str
) -> None:
    """The Cypher path reaches the entries of a question naming people from those people: the same hits, scores
    and chunks as the scan of every entry, also when the index path is forced and gives up after its one fetch, the
    same count of them (BM25's N) and the same structured ranking."""
    project = world["project"]
    pep, marta, lola = (f"{project}/person/{n}" for n in ("Pep", "Marta", "Lola"))
    viewer = Viewer(user_id=world["users"][role])
    cypher_only = settings.model_copy(update={"dense_matrix_viewers": 0})
    index_first = cypher_only.model_copy(update={"exact_scan_max_chunks": 0})
    cases: list[dict[str, Any]] = [
        {"q_entity_ids": [pep]},
        {"q_entity_ids": [marta, lola], "q_from": date(2002, 1, 1)},
        {"q_entity_ids": [lola], "q_from": date(2011, 6, 1), "q_to": date(2011, 7, 31)},
        {"q_entity_ids": [pep], "q_author_keys": [world["users"]["writer"].lower()]},
        {"q_entity_ids": [f"{project}/person/Nadie"]},
    ]
    found = []
    for extra in cases:
        base = _params(world, viewer, **extra)
        params = {**base, "vector": world["query"], "prop": world["prop"], "model": world["embedder"].model_id}
        every = ch.run_channel(graph, ch.DENSE_EXACT, {**params, "limit": 50})
        assert ch.run_channel(graph, ch.DENSE_EXACT_MENTIONED, {**params, "limit": 50}) == every, extra
        counted = [graph.read(c, base)[0]["visible"] for c in (ch.FULLTEXT_VISIBLE, ch.fulltext_visible(base))]
        assert counted[0] == counted[1] >= len(every[0]), extra
        for limit in (50, 3):  # selective, and cut at the limit (then only the total is read)
            ranked = {**base, "limit": limit, "rank_entity_ids": base["q_entity_ids"]}
            met = graph.read(ch.STRUCTURED, ranked)[0]
            hits, total = ch.run_structured(graph, ranked)
            assert total == met["total"] == min(counted[0], limit + 1), extra
            assert total > limit or hits == [Hit(h["id"], h["score"]) for h in met["hits"]], extra
        for chosen in (cypher_only, index_first):
            hits, chunks = dense(graph, world["embedder"], chosen, _scope(world, viewer, **extra), world["query"], 50)
            assert [h.id for h in hits] == [h.id for h in every[0]], extra
            assert [round(h.score, 6) for h in hits] == [round(h.score, 6) for h in every[0]]
            assert chunks == every[1]
        found.append(len(every[0]))
    assert all(n > 0 for n in found[:2]) and found[-1] == 0


@pytest.mark.parametrize("role", ROLES)
def test_the_structured_channel_ranks_the_view_as_cypher_does(
    graph: Graph, settings: Settings, world: dict[str, Any], role: str
) -> None:
    """Entries meeting the constraints (pending ones too), by entities named, then date (undated first), then id."""
    project, users = world["project"], world["users"]
    pep, marta, lola = (f"{project}/person/{n}" for n in ("Pep", "Marta", "Lola"))
    viewer = Viewer(user_id=users[role])
    cases: list[dict[str, Any]] = [
        {"q_entity_ids": [pep], "rank_entity_ids": [pep]},
        {"q_entity_ids": [pep, marta], "rank_entity_ids": [pep, marta, pep]},
        {"q_from": date(2002, 1, 1), "q_to": date(2004, 12, 31), "rank_entity_ids": [marta, lola]},
        {"q_author_keys": [users["owner"].lower()], "rank_entity_ids": []},
        {"q_to": date(2001, 12, 31), "rank_entity_ids": [pep]},
        {"q_entity_ids": [f"{project}/person/Nadie"], "rank_entity_ids": []},
    ]
    listings = visible_view.counters["listings"]
    sizes: list[int] = []
    key = stores_key(world["embedder"].slug)
    for extra in cases:
        ranked = extra["rank_entity_ids"]
        where = _scope(world, viewer, **{k: v for k, v in extra.items() if k != "rank_entity_ids"})
        params = {**where.params(), "rank_entity_ids": ranked, "limit": 50, "prop": world["prop"]}
        expected, total = ch.run_structured(graph, params)
        got, got_total = structured(graph, settings, where, ranked, 50, world["prop"], key)
        assert (got, got_total) == (expected, total), extra
        sizes.append(len(expected))
    assert visible_view.counters["listings"] == listings + 1  # every case ranked the one kept view
    assert max(sizes) >= 5 and sizes[-1] == 0
    pending = {
        h.id
        for h in structured(graph, settings, _scope(world, viewer, q_entity_ids=[pep]), [], 50, world["prop"], key)[0]
    }
    assert f"{project}/pending2" in pending  # a circle entry not embedded yet: it meets the constraint
    # A broad constraint: more entries than the limit, which both report as `limit + 1` (the result is not used).
    broad = {
        **_params(world, viewer, q_from=date(1990, 1, 1)),
        "limit": 3,
        "prop": world["prop"],
        "rank_entity_ids": [],
    }
    assert ch.run_structured(graph, broad)[1] == 4
    broad_scope = _scope(world, viewer, q_from=date(1990, 1, 1))
    assert structured(graph, settings, broad_scope, [], 3, world["prop"], key)[1] == 4


def test_recurring_dates_and_witnesses_go_to_cypher(settings: Settings, world: dict[str, Any]) -> None:
    viewer = Viewer(user_id=world["users"]["owner"])
    assert visible_view.usable(settings, _scope(world, viewer))
    assert visible_view.usable(settings, _scope(world, viewer, q_author_keys=["x"]))
    assert not visible_view.usable(settings, _scope(world, viewer, q_occ=[[date(2001, 8, 1), date(2001, 8, 31)]]))
    assert not visible_view.usable(settings, _scope(world, Viewer(witness_period_id="p")))
    assert not visible_view.usable(settings.model_copy(update={"dense_matrix_viewers": 0}), _scope(world, viewer))
    several = SearchScope(viewer, (world["project"], "another"))
    assert not visible_view.usable(settings, several)


def test_a_visible_write_shows_at_once_and_a_hidden_one_costs_the_viewer_nothing(
    graph: Graph, settings: Settings, world: dict[str, Any]
) -> None:
    q = np.asarray(world["query"])
    _both(graph, settings, world, "reader")
    start = dict(visible_view.counters)
    # another author's private entry, closer to the query than anything: the reader's view is not even re-listed
    _write(
        graph,
        world,
        [
            {
                "id": f"{world['project']}/secret",
                "project": world["project"],
                "intimacy": "private",
                "author": world["users"]["owner"],
                "vectors": [[float(x) for x in q]],
            }
        ],
    )
    (exact, _), (hits, _) = _both(graph, settings, world, "reader")
    assert visible_view.counters == start
    assert f"{world['project']}/secret" not in {h.id for h in hits}
    assert [h.id for h in hits] == [h.id for h in exact]
    # a circle entry: listed again, and only its one new vector fetched
    _write(
        graph,
        world,
        [
            {
                "id": f"{world['project']}/news",
                "project": world["project"],
                "intimacy": "circle",
                "author": world["users"]["owner"],
                "vectors": [[float(x) for x in q]],
            }
        ],
    )
    (exact, _), (hits, _) = _both(graph, settings, world, "reader")
    assert visible_view.counters["listings"] == start["listings"] + 1
    assert visible_view.counters["vectors_fetched"] == start["vectors_fetched"] + 1
    assert hits[0].id == f"{world['project']}/news" and round(hits[0].score, 6) == 1.0
    assert [h.id for h in hits] == [h.id for h in exact]


def test_a_role_change_takes_effect_on_the_next_search(graph: Graph, settings: Settings, world: dict[str, Any]) -> None:
    (_, _), (as_coauthor, _) = _both(graph, settings, world, "coauthor")
    set_member(graph, world["project"], world["users"]["coauthor"], "reader")
    (exact, _), (as_reader, _) = _both(graph, settings, world, "coauthor")
    assert [h.id for h in as_reader] == [h.id for h in exact]
    assert len(as_reader) < len(as_coauthor)  # the other authors' intimate entries are gone
    graph.write(
        "MATCH (:User {id: $u})-[m:MEMBER_OF]->(:Project {id: $p}) DELETE m",
        {"u": world["users"]["coauthor"], "p": world["project"]},
    )
    generations.bump(graph, [world["project"]])
    (exact, _), (gone, _) = _both(graph, settings, world, "coauthor")
    assert gone == [] and exact == []


def test_after_a_role_change_a_large_view_is_spliced_behind_into_the_view_a_full_listing_makes(
    graph: Graph, settings: Settings, world: dict[str, Any]
) -> None:
    """Promoted reader to coauthor, then owner, then back to reader, with writes between (another author's intimate
    entry re-dated: under the intimate generation only, which a coauthor and an owner both read): each time the view
    listed behind from the previous role's view, by the ids the viewer may see now, is the one a full listing makes,
    and no full listing ran."""
    behind, waited, member, viewer, params, key = _splicing(graph, settings, world)
    project, users = world["project"], world["users"]
    q = [float(x) for x in world["query"]]
    for n, (role, level, author) in enumerate(
        [("coauthor", "circle", "owner"), ("owner", "intimate", "coauthor"), ("reader", "intimate", "owner")]
    ):
        entry = f"{project}/spliced{n}"
        row = {"id": entry, "project": project, "intimacy": level, "author": users[author], "vectors": [q]}
        model = world["embedder"].model_id
        graph.write(WRITE, {"rows": [{**row, "mentions": ["Pep"]}], "prop": world["prop"], "model": model})
        moved = "MATCH (e:Entry {id: $id}) SET e.occurred_start = date($day), e.occurred_end = date($day)"
        graph.write(moved, {"id": f"{project}/e01", "day": f"199{n}-01-01"})  # intimate, by the coauthor
        generations.bump_levels(
            graph,
            [
                {"project_id": project, "intimacy": lvl, "author_id": users[who], "entry_id": i, "entity_ids": []}
                for i, lvl, who in ((entry, level, author), (f"{project}/e01", "intimate", "coauthor"))
            ],
        )
        set_member(graph, project, member, role)
        before = dict(visible_view.counters)
        assert visible_view.view_for(graph, behind, viewer, params, key, DIM) is None  # Cypher meanwhile
        spliced = _view_when_ready(graph, behind, world, viewer)
        assert visible_view.counters["listings"] == before["listings"], role
        assert visible_view.counters["listings_in_part"] == before["listings_in_part"] + 1, role
        visible_view.clear(graph)
        full = visible_view.view_for(graph, waited, viewer, params, key, DIM)
        assert full is not None
        assert_same_view(spliced, full)
        assert (entry in full.entry_ids) == (level != "intimate" or role != "reader"), role


def _splicing(
    graph: Graph, settings: Settings, world: dict[str, Any]
) -> tuple[Settings, Settings, str, Viewer, dict[str, Any], str]:
    """Where a role-change test starts: the reader's view listed behind their searches. Returns the settings that
    list behind and those that wait, the member, their viewer, the search parameters and the stores key."""
    behind = settings.model_copy(update={"dense_matrix_background_entries": 0})
    waited = settings.model_copy(update={"dense_matrix_background_entries": 10**9})
    member = world["users"]["reader"]
    viewer = Viewer(user_id=member)
    params = {**_params(world, viewer), "prop": world["prop"]}
    _view_when_ready(graph, behind, world, viewer)
    return behind, waited, member, viewer, params, stores_key(world["embedder"].slug)


def test_a_role_changes_splice_lists_in_full_when_the_pool_dropped_the_old_view(
    graph: Graph, settings: Settings, world: dict[str, Any]
) -> None:
    """A compaction (another scope's listing) drops the pool's views and renumbers its rows between the role change
    and the listing behind it: the old view's rows are not trusted; the view is listed in full."""
    behind = settings.model_copy(update={"dense_matrix_background_entries": 0})
    waited = settings.model_copy(update={"dense_matrix_background_entries": 10**9})
    project, member = world["project"], world["users"]["reader"]
    viewer = Viewer(user_id=member)
    params = ch.one_project({**_params(world, viewer), "prop": world["prop"]})
    key = stores_key(world["embedder"].slug)
    old = _view_when_ready(graph, behind, world, viewer)
    set_member(graph, project, member, "coauthor")
    _, pool = visible_view._pools(graph).get((member, project, world["prop"]), "pool", float("inf"))
    scope = {k: params.get(k) for k in visible_view.SCOPE_KEYS}
    scope_key = hashlib.sha256(json.dumps(scope, sort_keys=True, default=str).encode()).hexdigest()
    assert pool.views.get(scope_key) is old
    pool.views.clear()  # as a compaction leaves it
    before = dict(visible_view.counters)
    pool.relisting.add(scope_key)
    visible_view._relist_behind(view_build.ViewScope(graph, pool, params, key, scope_key, member), old)
    assert visible_view.counters["listings"] == before["listings"] + 1
    assert visible_view.counters["listings_in_part"] == before["listings_in_part"]
    listed = pool.views[scope_key]
    visible_view.clear(graph)
    full = visible_view.view_for(graph, waited, viewer, params, key, DIM)
    assert full is not None and len(full.entry_ids) > len(old.entry_ids)  # the others' intimate entries came in
    assert_same_view(listed, full)


def test_a_membership_change_lists_again_only_the_view_of_whose_role_changed(
    graph: Graph, settings: Settings, world: dict[str, Any]
) -> None:
    key, project = stores_key(world["embedder"].slug), world["project"]

    def view(role: str) -> Any:
        viewer = Viewer(user_id=world["users"][role])
        found = visible_view.view_for(
            graph, settings, viewer, {**_params(world, viewer), "prop": world["prop"]}, key, DIM
        )
        assert found is not None
        return found

    before = {role: set(view(role).entry_ids) for role in ("reader", "coauthor")}
    start = dict(visible_view.counters)
    set_member(graph, project, f"{world['users']['reader']}-newcomer", "reader")
    assert {role: set(view(role).entry_ids) for role in ("reader", "coauthor")} == before
    assert visible_view.counters == start, "a member joining changes nothing another member lists"
    set_member(graph, project, world["users"]["coauthor"], "reader")
    assert set(view("reader").entry_ids) == before["reader"]
    assert visible_view.counters["listings"] == start["listings"], "the reader's role did not change"
    demoted = set(view("coauthor").entry_ids)
    assert visible_view.counters["listings"] == start["listings"] + 1, "the demoted coauthor's view is listed again"
    others_intimate = {
        r["id"]
        for r in graph.read(
            "MATCH (e:Entry {project_id: $p}) WHERE e.intimacy = 'intimate' AND e.author_id <> $u RETURN e.id AS id",
            {"p": project, "u": world["users"]["coauthor"]},
        )
    }
    assert others_intimate & before["coauthor"] and not others_intimate & demoted, "others' intimate entries are gone"
    assert demoted == before["coauthor"] - others_intimate


def _relisting_held(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """Hold every listing at a gate: (the gate, an event set once a listing reached it)."""
    gate, reached = threading.Event(), threading.Event()
    real = view_build.build

    def held(*args: Any) -> Any:
        reached.set()
        assert gate.wait(30)
        return real(*args)

    monkeypatch.setattr(view_build, "build", held)
    return gate, reached


def _view_when_ready(graph: Graph, settings: Settings, world: dict[str, Any], viewer: Viewer) -> Any:
    params = {**_params(world, viewer), "prop": world["prop"]}
    key = stores_key(world["embedder"].slug)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = visible_view.view_for(graph, settings, viewer, params, key, DIM)
        if view is not None:
            return view
        time.sleep(0.05)
    raise AssertionError("the background relisting never finished")


def test_a_large_views_relisting_runs_behind_while_cypher_answers_the_same(
    graph: Graph, settings: Settings, world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `dense_matrix_background_entries` neither the viewer's first search (a new member's) nor the first after
    a visible write waits for the listing: Cypher answers it, with the write in, one listing runs behind however many
    searches ask, then the view serves."""
    behind = settings.model_copy(update={"dense_matrix_background_entries": 0})
    viewer = Viewer(user_id=world["users"]["reader"])
    start = dict(visible_view.counters)
    (exact, _), (hits, _) = _both(graph, behind, world, "reader")
    assert [h.id for h in hits] == [h.id for h in exact]
    first = _view_when_ready(graph, behind, world, viewer)
    assert visible_view.counters["listings"] == start["listings"] + 1 and len(first.entry_ids) > 5
    gate, reached = _relisting_held(monkeypatch)
    start = dict(visible_view.counters)
    q = [float(x) for x in world["query"]]
    _write(
        graph,
        world,
        [
            {
                "id": f"{world['project']}/news",
                "project": world["project"],
                "intimacy": "circle",
                "author": world["users"]["owner"],
                "vectors": [q],
            }
        ],
    )
    for _ in range(3):
        (exact, exact_chunks), (hits, chunks) = _both(graph, behind, world, "reader")
        assert hits[0].id == f"{world['project']}/news"
        assert ([h.id for h in hits], chunks) == ([h.id for h in exact], exact_chunks)
    assert reached.wait(10)  # the one listing behind is held at the gate, before its view is built
    assert visible_view.counters["listings"] == start["listings"] + 1
    gate.set()
    view = _view_when_ready(graph, behind, world, viewer)
    assert f"{world['project']}/news" in view.entry_ids
    assert visible_view.counters["listings"] == start["listings"] + 1  # one relisting for the three searches
    (exact, _), (hits, _) = _both(graph, behind, world, "reader")
    assert [h.id for h in hits] == [h.id for h in exact]
    assert visible_view.counters["listings"] == start["listings"] + 1  # and the view answers again


def test_a_listing_a_search_asks_for_starts_once_that_search_has_answered(
    graph: Graph, settings: Settings, world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the search door the listing behind a newcomer's first search does not compete with it: it starts
    when that search has its results."""
    behind = settings.model_copy(update={"dense_matrix_background_entries": 0, "search_cache_size": 0})
    viewer = Viewer(user_id=world["users"]["reader"])
    answered = threading.Event()
    started: list[bool] = []
    real_materialise, real_relist = door._materialise, visible_view._relist_behind

    def materialise(*args: Any, **kwargs: Any) -> Any:
        out = real_materialise(*args, **kwargs)
        answered.set()
        return out

    def relist(where: Any, *before: Any) -> None:
        started.append(answered.is_set())
        real_relist(where, *before)

    monkeypatch.setattr(door, "_materialise", materialise)
    monkeypatch.setattr(visible_view, "_relist_behind", relist)
    found = door.hybrid_search(
        graph, world["embedder"], behind, viewer, "vector only", Scope(project_id=world["project"]), SearchOptions(k=5)
    )
    assert found.results
    view = _view_when_ready(graph, behind, world, viewer)
    assert started == [True] and len(view.entry_ids) > 5


def test_an_entry_hidden_while_the_view_relists_behind_is_never_served_from_it(
    graph: Graph, settings: Settings, world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Re-levelled from circle to private by its author: the reader's stale view still holds it, and no search
    reads that view while the new listing is held; afterwards the new view lacks it."""
    behind = settings.model_copy(update={"dense_matrix_background_entries": 0})
    viewer = Viewer(user_id=world["users"]["reader"])
    (_, _), (before, _) = _both(graph, behind, world, "reader", limit=5)
    _view_when_ready(graph, behind, world, viewer)
    top = before[0].id
    gate, reached = _relisting_held(monkeypatch)
    rows = graph.read("MATCH (e:Entry {id: $id}) RETURN e.intimacy AS level, e.author_id AS author", {"id": top})
    assert rows[0]["level"] in ("circle", "public")
    graph.write("MATCH (e:Entry {id: $id}) SET e.intimacy = 'private'", {"id": top})
    generations.bump_levels(
        graph,
        [
            {"project_id": world["project"], "intimacy": level, "author_id": rows[0]["author"]}
            for level in (rows[0]["level"], "private")
        ],
    )
    (exact, _), (hits, _) = _both(graph, behind, world, "reader", limit=5)
    assert top not in {h.id for h in hits} and [h.id for h in hits] == [h.id for h in exact]
    where = _scope(world, viewer, q_entity_ids=[f"{world['project']}/person/Pep"])
    params = {**where.params(), "limit": 50, "prop": world["prop"], "rank_entity_ids": []}
    key = stores_key(world["embedder"].slug)
    assert structured(graph, behind, where, [], 50, world["prop"], key) == ch.run_structured(graph, params)
    assert reached.wait(10)
    gate.set()
    assert top not in _view_when_ready(graph, behind, world, viewer).entry_ids


@pytest.mark.parametrize("role", ROLES)
def test_after_pipeline_writes_a_view_lists_only_the_changed_entries_and_equals_a_full_listing(
    graph: Graph, settings: Settings, world: dict[str, Any], role: str
) -> None:
    """Writes through the ingest pipeline name their entries in the generation steps: a new circle entry naming
    people, one whose vector the worker adds later, another author's private entry, the viewer's own private one, a
    circle entry re-levelled to private, one deleted. The view is listed again in part only, and is what a full
    listing gives, for every role; hidden entries never enter it and re-levelled ones leave it."""
    from ingest.embedding_jobs import backfill
    from ingest.pipeline import Ingestor
    from ingest.records import parse_line

    project, users = world["project"], world["users"]
    viewer = Viewer(user_id=users[role])
    params = {**_params(world, viewer), "prop": world["prop"]}
    key = stores_key(world["embedder"].slug)
    assert visible_view.view_for(graph, settings, viewer, params, key, DIM) is not None
    start = dict(visible_view.counters)
    now = Ingestor(graph, world["embedder"], embed=True)
    later = Ingestor(graph, world["embedder"], embed=False)

    def ingest(ingestor: Ingestor, entry_id: str, author: str, level: str, text: str, **extra: Any) -> None:
        record = {
            "entry_id": f"{project}/{entry_id}",
            "project_id": project,
            "author": author,
            "intimacy": level,
            "text": text,
            "date": "2004-06-01",
            **extra,
        }
        report = ingestor.ingest([(1, parse_line(1, json.dumps(record)))])
        assert not report.errors, report.errors

    ingest(now, "w-new", users["owner"], "circle", "Pep y Marta fueron al mercado.")
    ingest(later, "w-later", users["coauthor"], "public", "Una tarde en el puerto.")
    ingest(now, "w-hidden", users["writer"], "private", "Lo que nadie más sabe.")
    ingest(now, "w-own", users[role], "private", "Mi propia nota.")
    ingest(now, "w-relevel", users["owner"], "circle", "Primero para todos.")
    ingest(now, "w-gone", users["owner"], "circle", "Esta se borra.")
    for n, who in ((1, "owner"), (2, "coauthor")):
        ingest(now, f"w-turn{n}", users[who], "circle", "¿Vienes?" if n == 1 else "Sí!!", session="s1", turn=n)
    part = visible_view.view_for(graph, settings, viewer, params, key, DIM)
    assert part is not None and f"{project}/w-gone" in part.entry_ids
    scope = scope_of(project, viewer)
    for seeds in ([f"{project}/w-turn2"], [f"{project}/w-new", f"{project}/w-turn1"], [f"{project}/w-new"]):
        kept = visible_view.thread_neighbours(graph, settings, scope, world["prop"], seeds, 10)
        asked, _ = ch.run_channel(graph, ch.THREAD, {**scope.params(), "seeds": seeds, "limit": 10})
        assert kept == asked, seeds
    assert kept == [] and asked == []
    assert visible_view.thread_neighbours(graph, settings, scope, world["prop"], [f"{project}/w-turn2"], 10) == [
        Hit(f"{project}/w-turn1", 1.0)
    ]
    ingest(
        Ingestor(graph, world["embedder"], embed=True, overwrite=True),
        "w-relevel",
        users["owner"],
        "private",
        "Ahora solo para mí.",
    )
    assert now.delete(f"{project}/w-gone")
    backfill(graph, world["embedder"], active=False, project_id=project)
    part = visible_view.view_for(graph, settings, viewer, params, key, DIM)
    assert part is not None
    assert visible_view.counters["listings"] == start["listings"]  # nothing listed in full
    assert visible_view.counters["listings_in_part"] > start["listings_in_part"]
    visible_view.clear(graph)
    full = visible_view.view_for(graph, settings, viewer, params, key, DIM)
    assert full is not None and visible_view.counters["listings"] == start["listings"] + 1
    assert_same_view(part, full)
    ids = set(part.entry_ids)
    assert {f"{project}/w-new", f"{project}/w-later", f"{project}/w-own"} <= ids
    assert f"{project}/w-later" in part.embedded_ids  # its vector, stored by the worker, came in part too
    assert f"{project}/w-gone" not in ids
    threads = {
        x: part.thread_of[part.index_of[x]] for x in (f"{project}/w-turn1", f"{project}/w-turn2", f"{project}/w-new")
    }
    assert (
        threads[f"{project}/w-turn1"] == threads[f"{project}/w-turn2"] is not None
        and threads[f"{project}/w-new"] is None
    )
    assert (f"{project}/w-hidden" in ids) == (role == "writer")
    assert (f"{project}/w-relevel" in ids) == (role == "owner")
    assert f"{project}/person/Pep" in part.mentioned_by or any("pep" in x.lower() for x in part.mentioned_by)


def test_a_step_that_does_not_say_what_it_changed_or_is_no_longer_kept_lists_in_full(
    graph: Graph, settings: Settings, world: dict[str, Any]
) -> None:
    viewer = Viewer(user_id=world["users"]["reader"])
    params = {**_params(world, viewer), "prop": world["prop"]}
    key = stores_key(world["embedder"].slug)
    project = world["project"]

    def bump(entry_id: str | None) -> None:
        level = {"project_id": project, "intimacy": "circle", "author_id": world["users"]["owner"]}
        generations.bump_levels(graph, [{**level, **({"entry_id": entry_id} if entry_id else {})}])

    assert visible_view.view_for(graph, settings, viewer, params, key, DIM) is not None
    start = dict(visible_view.counters)
    bump(f"{project}/e02")
    assert visible_view.view_for(graph, settings, viewer, params, key, DIM) is not None
    assert visible_view.counters["listings_in_part"] == start["listings_in_part"] + 1
    assert visible_view.counters["listings"] == start["listings"]
    bump(None)  # a write that does not name its entries (an entity merge, a membership change)
    assert visible_view.view_for(graph, settings, viewer, params, key, DIM) is not None
    assert visible_view.counters["listings"] == start["listings"] + 1
    bump(f"{project}/e02")
    graph.write("MATCH (s:GenerationStep {project_id: $p}) DELETE s", {"p": project})  # pruned
    assert visible_view.view_for(graph, settings, viewer, params, key, DIM) is not None
    assert visible_view.counters["listings"] == start["listings"] + 2


def test_a_batchs_steps_name_each_entry_only_under_the_generations_of_its_own_levels(
    graph: Graph, world: dict[str, Any]
) -> None:
    """A member's generation step must never name another author's private entry: which entries a step names decides
    what that member's view lists again."""
    project, users = world["project"], world["users"]
    levels = [
        {"project_id": project, "intimacy": "private", "author_id": users["writer"], "entry_id": "a"},
        {"project_id": project, "intimacy": "circle", "author_id": users["owner"], "entry_id": "b"},
        {"project_id": project, "intimacy": "intimate", "author_id": users["coauthor"], "entry_id": "c"},
        {"project_id": project, "intimacy": "public", "author_id": users["owner"], "entry_id": "c"},
    ]
    now = {r["project_id"]: r for r in generations.read(graph, [project], users["owner"])}[project]
    generations.bump_levels(graph, levels)

    def named(key: str, after: int) -> list[str] | None:
        found = graph.read(generations.STEPS, {"project_id": project, "key": key, "after": after, "upto": after + 1})
        assert len(found) == 1
        return found[0]["entry_ids"]

    assert named(generations.ALL, now["generation"]) == ["b", "c"]
    assert named(generations.INNER, now["inner"]) == ["c"]
    writer_key = generations.own_key(users["writer"])
    assert named(
        writer_key,
        graph.read("MATCH (p:Project {id: $p}) RETURN p[$k] AS g", {"p": project, "k": writer_key})[0]["g"] - 1,
    ) == ["a"]


def test_an_expired_view_is_listed_in_full_at_once_when_small_and_behind_when_large(
    graph: Graph, settings: Settings, world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The backstop (`MEMORA_DENSE_MATRIX_SECONDS`) lists a view in full even when no step moved; a large one
    then as after an unknown write: behind the searches, never serving the expired copy meanwhile."""
    viewer = Viewer(user_id=world["users"]["reader"])
    params = {**_params(world, viewer), "prop": world["prop"]}
    key = stores_key(world["embedder"].slug)
    quick = settings.model_copy(update={"dense_matrix_seconds": 0.2})
    assert visible_view.view_for(graph, quick, viewer, params, key, DIM) is not None
    start = dict(visible_view.counters)
    time.sleep(0.3)
    assert visible_view.view_for(graph, quick, viewer, params, key, DIM) is not None  # small: waited for
    assert visible_view.counters["listings"] == start["listings"] + 1
    gate, reached = _relisting_held(monkeypatch)
    time.sleep(0.3)
    behind = quick.model_copy(update={"dense_matrix_background_entries": 0})
    assert visible_view.view_for(graph, behind, viewer, params, key, DIM) is None
    assert reached.wait(10)
    gate.set()
    again = _view_when_ready(graph, behind.model_copy(update={"dense_matrix_seconds": 60.0}), world, viewer)
    assert visible_view.counters["listings"] == start["listings"] + 2 and len(again.entry_ids) > 5
