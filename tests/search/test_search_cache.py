"""The search caches on the real Neo4j: results reused only for the same viewer and the same data, every write path
invalidating its project at once (also a write made outside the API, as a CLI ingest is), and the query-embedding
LRU."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import Services, create_app
from graph import generations
from graph.db import Graph
from graph.entities import upsert_entity
from graph.entries import delete_entry
from graph.ids import period_id
from graph.members import set_member, update_project
from graph.settings import Settings
from graph.visibility import Viewer
from graph.witnesses import create_grant
from inference.embedders import CheckedEmbedder
from queries.search import query_vectors, result_cache
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

Q = "Zanahoria secreta"


@pytest.fixture()
def api(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> Iterator[TestClient]:
    cached = settings.model_copy(update={"search_cache_seconds": 300.0, "search_log_sample": 0.0})
    result_cache.clear(graph)
    with TestClient(create_app(Services(cached, graph=graph, embedder=embedder))) as c:
        yield c


def _search(api: TestClient, headers: dict[str, str], project: str, q: str = Q) -> dict[str, Any]:
    r = api.post("/v1/search", json={"q": q, "project_id": project, "k": 30}, headers=headers)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _ids(body: dict[str, Any]) -> set[str]:
    return {r["entry_id"] for r in body["results"]}


def _hit(body: dict[str, Any]) -> bool:
    return "cache" in body["latency_ms"]


def test_a_repeated_search_is_served_from_the_cache_and_an_edit_shows_on_the_very_next(
    api: TestClient, family: dict[str, str], auth: Callable[[str], dict[str, str]]
) -> None:
    owner, p = auth(family["owner"]), family["project"]
    first = _search(api, owner, p)
    again = _search(api, owner, p)
    assert not _hit(first) and _hit(again)
    assert again["results"] == first["results"] and again["search_id"] != first["search_id"]

    created = api.post(
        "/v1/entries",
        headers=owner,
        json={
            "entry_id": f"{p}/new",
            "project_id": p,
            "text": "Zanahoria secreta nueva en la huerta.",
            "intimacy": "circle",
        },
    )
    assert created.status_code == 201, created.text
    after_create = _search(api, owner, p)
    assert not _hit(after_create) and f"{p}/new" in _ids(after_create)

    edited = api.patch(f"/v1/entries/{p}/new", headers=owner, json={"text": "Una berenjena sin nombre."})
    assert edited.status_code == 200, edited.text
    assert f"{p}/new" not in _ids(_search(api, owner, p))

    assert api.delete(f"/v1/entries/{p}/owner-public", headers=owner).status_code == 200
    assert f"{p}/owner-public" not in _ids(_search(api, owner, p))


def test_a_reader_never_gets_the_owners_cached_results(
    api: TestClient, family: dict[str, str], auth: Callable[[str], dict[str, str]]
) -> None:
    p = family["project"]
    owner_view = _search(api, auth(family["owner"]), p)
    assert f"{p}/owner-private" in _ids(owner_view)
    reader_view = _search(api, auth(family["reader"]), p)
    assert not _hit(reader_view)
    assert _ids(reader_view) == {f"{p}/{a}-{lvl}" for a in ("owner", "other") for lvl in ("circle", "public")}
    # the reader's own repeat is a hit, and still only what the reader may see
    again = _search(api, auth(family["reader"]), p)
    assert _hit(again) and _ids(again) == _ids(reader_view)


def test_a_relevel_and_a_membership_change_show_on_the_next_search(
    api: TestClient, family: dict[str, str], auth: Callable[[str], dict[str, str]]
) -> None:
    p, reader, owner = family["project"], auth(family["reader"]), auth(family["owner"])
    assert f"{p}/owner-circle" in _ids(_search(api, reader, p))
    assert api.patch(f"/v1/entries/{p}/owner-circle", headers=owner, json={"intimacy": "private"}).status_code == 200
    assert f"{p}/owner-circle" not in _ids(_search(api, reader, p))

    assert f"{p}/owner-intimate" not in _ids(_search(api, reader, p))
    promoted = api.put(
        f"/v1/projects/{p}/members", headers=owner, json={"user_id": family["reader"], "role": "coauthor"}
    )
    assert promoted.status_code == 200, promoted.text
    assert f"{p}/owner-intimate" in _ids(_search(api, reader, p))


def test_a_write_outside_the_api_invalidates_the_servers_cache(
    api: TestClient, family: dict[str, str], auth: Callable[[str], dict[str, str]], ingest: Callable[..., Any]
) -> None:
    """What `memora ingest` does from another process: the generation is in the graph, not in this process."""
    p, owner = family["project"], auth(family["owner"])
    _search(api, owner, p)
    assert _hit(_search(api, owner, p))
    assert not ingest(
        [
            {
                "entry_id": f"{p}/cli",
                "project_id": p,
                "author": family["owner"],
                "intimacy": "circle",
                "text": "Zanahoria secreta que llegó por la línea de órdenes.",
            }
        ]
    ).errors
    after = _search(api, owner, p)
    assert not _hit(after) and f"{p}/cli" in _ids(after)


def test_every_write_path_bumps_the_projects_generation(
    graph: Graph, family: dict[str, str], ingest: Callable[..., Any]
) -> None:
    p = family["project"]

    def gen() -> int:
        return int(generations.read(graph, [p], None)[0]["generation"])

    def own() -> int:
        return int(generations.read(graph, [p], family["owner"])[0]["own"])

    before_all, before_own = gen(), own()
    ingest(
        [
            {
                "entry_id": f"{p}/mine",
                "project_id": p,
                "author": family["owner"],
                "text": "Sólo mío.",
                "intimacy": "private",
            }
        ]
    )
    assert gen() == before_all and own() > before_own  # a private entry concerns its author alone

    steps: list[tuple[str, Callable[[], object]]] = [
        ("member", lambda: set_member(graph, p, f"{family['outsider']}", "reader")),
        ("hemisphere", lambda: update_project(graph, p, hemisphere="south")),
        ("declaration", lambda: upsert_entity(graph, p, "person", "Remedios", ["Reme"])),
        (
            "entry",
            lambda: ingest(
                [
                    {
                        "entry_id": f"{p}/g",
                        "project_id": p,
                        "author": family["owner"],
                        "text": "Otra zanahoria.",
                        "intimacy": "circle",
                        "period": "Verano",
                    }
                ]
            ),
        ),
        ("delete", lambda: delete_entry(graph, f"{p}/g")),
    ]
    for name, step in steps:
        before = gen()
        step()
        assert gen() > before, name
    ingest(
        [
            {
                "entry_id": f"{p}/h",
                "project_id": p,
                "author": family["owner"],
                "text": "Más zanahorias.",
                "intimacy": "circle",
                "period": "Verano",
            }
        ]
    )  # a grant needs a chapter with an entry its creator sees
    before = gen()  # a grant changes nothing members see (the witness's key holds its chapter)
    grant = create_grant(graph, p, period_id(p, "Verano"), family["owner"], timedelta(days=1))
    assert grant is not None and gen() == before


def test_a_write_hidden_from_a_viewer_never_touches_their_cached_results(
    api: TestClient, family: dict[str, str], auth: Callable[[str], dict[str, str]]
) -> None:
    """Whether a repeat is a hit must not tell a reader that someone wrote something they may not see."""
    p, owner, other, reader = family["project"], auth(family["owner"]), auth(family["other"]), auth(family["reader"])
    reader_first, owner_first = _search(api, reader, p), _search(api, owner, p)
    assert (
        api.post(
            "/v1/entries",
            headers=owner,
            json={
                "entry_id": f"{p}/diary",
                "project_id": p,
                "text": "Zanahoria secreta que solo yo leo.",
                "intimacy": "private",
            },
        ).status_code
        == 201
    )
    reader_again = _search(api, reader, p)
    assert _hit(reader_again) and reader_again["results"] == reader_first["results"]
    owner_again = _search(api, owner, p)
    assert not _hit(owner_again) and f"{p}/diary" in _ids(owner_again)

    assert (
        api.post(
            "/v1/entries",
            headers=other,
            json={
                "entry_id": f"{p}/inner",
                "project_id": p,
                "text": "Zanahoria secreta entre nosotros.",
                "intimacy": "intimate",
            },
        ).status_code
        == 201
    )
    assert _hit(_search(api, reader, p))
    owner_third = _search(api, owner, p)
    assert not _hit(owner_third) and f"{p}/inner" in _ids(owner_third)
    assert owner_first["results"] != owner_third["results"]


def test_keys_separate_viewers_and_a_stored_response_is_never_returned_to_another(
    graph: Graph, embedder: CheckedEmbedder, settings: Settings, family: dict[str, str]
) -> None:
    on = settings.model_copy(update={"search_cache_seconds": 300.0})
    p, options = family["project"], SearchOptions(k=5)
    owner, reader = Viewer(user_id=family["owner"]), Viewer(user_id=family["reader"])
    k_owner = result_cache.key_for(graph, embedder, on, owner, Q, [p], options)
    k_reader = result_cache.key_for(graph, embedder, on, reader, Q, [p], options)
    assert k_owner is not None and k_reader is not None and k_owner.digest != k_reader.digest
    assert result_cache.key_for(graph, embedder, on, owner, f"  {Q} ", [p], options) == k_owner
    assert result_cache.key_for(graph, embedder, on, owner, Q, [p], SearchOptions(k=6)) != k_owner
    floor = on.model_copy(update={"dense_floor": 0.5})
    assert result_cache.key_for(graph, embedder, floor, owner, Q, [p], options) != k_owner
    resp = hybrid_search(graph, embedder, on, owner, Q, Scope(project_id=p), options)
    result_cache.put(graph, k_owner, on, resp)
    forged = result_cache.CacheKey(k_owner.digest, reader)  # even a colliding digest keeps the viewer apart
    assert result_cache.get(graph, forged, on) is None
    assert (
        result_cache.key_for(
            graph, embedder, settings.model_copy(update={"search_cache_seconds": 0.0}), owner, Q, [p], options
        )
        is None
    )


def test_the_query_embedding_is_computed_once_per_viewer_model_and_text(
    graph: Graph, embedder: CheckedEmbedder
) -> None:
    query_vectors.clear(graph)
    text = "¿qué dijo papá del piso?"
    first = query_vectors.query_vector(graph, embedder, text, 16, "user:ana")
    second = query_vectors.query_vector(graph, embedder, text, 16, "user:ana")
    assert (query_vectors.kept_vectors(graph).stats.misses, query_vectors.kept_vectors(graph).stats.hits) == (1, 1)
    assert first == second == [float(x) for x in embedder.embed_query(text)]
    second[0] = 99.0  # a caller's change never reaches the next caller
    assert query_vectors.query_vector(graph, embedder, text, 16, "user:ana")[0] == first[0]
    # Another viewer asking the same words misses: a hit (a near-zero `embed` latency) would tell them ana asked it.
    query_vectors.query_vector(graph, embedder, text, 16, "user:lola")
    assert (query_vectors.kept_vectors(graph).stats.misses, query_vectors.kept_vectors(graph).stats.hits) == (2, 2)
    for i in range(20):
        query_vectors.query_vector(graph, embedder, f"pregunta {i}", 16, "user:ana")
    query_vectors.query_vector(graph, embedder, text, 16, "user:ana")  # evicted by the 20 newer texts: embedded again
    assert query_vectors.kept_vectors(graph).stats.misses == 23
