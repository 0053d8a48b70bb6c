"""Embedding reuse tells a writer nothing about what is hidden from them.

A write reuses the stored vector of an identical chunk (same model, context and text) instead of embedding it again,
and that shows: the write's answer says `embedding: "done"` rather than `"pending"` (and with `wait=true` it comes
sooner). So reuse is confined to chunks of the same project and, for a writer (an API caller, a witness), to entries
they may see (graph/entries.py, VISIBLE_REUSABLE_VECTORS); a trusted operator's ingest reuses within the project.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graph.db import Graph
from graph.members import set_member
from graph.schema import vector_property
from inference.embedders import CheckedEmbedder
from ingest.chunking import chunk_text
from ingest.embedding_jobs import backfill
from ingest.pipeline import IngestReport

Headers = Callable[[str], dict[str, str]]
Ingest = Callable[..., IngestReport]

CHUNK_STATES = """
MATCH (c:Chunk)-[:OF]->(:Entry {id: $id})
RETURN c.embedding_status AS status, c[$prop] IS NOT NULL AS has_vector ORDER BY c.ord
"""
# The family fixture's dates and names (tests/conftest.py): what makes a chunk's context equal to its entries'.
FAMILY_FIELDS = {"occurred_on": "2008-07-12", "persons": ["Josep"], "places": ["Cádiz"]}


def family_text(level: str, author_key: str) -> str:
    """The text the family fixture gave the entry `<author_key>-<level>`."""
    return f"Zanahoria secreta {level} escrita por {author_key}: fuimos a Cádiz con papá."


def states(graph: Graph, embedder: CheckedEmbedder, entry_id: str) -> list[tuple[str, bool]]:
    """(embedding_status, has a vector) of each chunk of the entry, in order."""
    return [
        (r["status"], r["has_vector"])
        for r in graph.read(CHUNK_STATES, {"id": entry_id, "prop": vector_property(embedder.slug)})
    ]


def edit(client: TestClient, headers: dict[str, str], method: str, entry_id: str, text: str) -> dict[str, Any]:
    """Replace (PUT, the family fields sent again) or patch (PATCH) the entry's text; the answer's body."""
    if method == "PUT":
        resp = client.put(f"/v1/entries/{entry_id}", headers=headers, json={"text": text, **FAMILY_FIELDS})
    else:
        resp = client.patch(f"/v1/entries/{entry_id}", headers=headers, json={"text": text})
    assert resp.status_code == 200, resp.text
    return dict(resp.json())


@pytest.mark.parametrize("method", ["PUT", "PATCH"])
def test_an_edit_to_the_text_of_a_hidden_entry_answers_like_a_text_nobody_wrote(
    method: str, client: TestClient, auth: Headers, graph: Graph, embedder: CheckedEmbedder, family: dict[str, str]
) -> None:
    """The owner may edit a coauthor's circle entry but not see the coauthor's private one: giving the circle entry
    the private one's exact text (and so its exact chunk context) must not reuse the private chunk's vectors."""
    project, owner = family["project"], auth(family["owner"])
    secret = edit(client, owner, method, f"{project}/other-circle", family_text("private", "other"))
    nobody = edit(
        client,
        owner,
        method,
        f"{project}/other-public",
        "Zanahoria secreta que nadie escribió: fuimos a Cádiz con papá.",
    )
    assert secret["embedding"] == nobody["embedding"] == "pending"
    assert (
        states(graph, embedder, f"{project}/other-circle")
        == states(graph, embedder, f"{project}/other-public")
        == [("pending", False)]
    )
    assert states(graph, embedder, f"{project}/other-private") == [("done", True)], "the hidden entry is embedded"


def test_a_write_in_one_project_never_reuses_another_projects_vectors(
    client: TestClient, auth: Headers, graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Ingest
) -> None:
    """An entry of project A names the writer as its author (same chunk context as the writer's own entries), but
    the writer is no member of A: their write in B of the same text is embedded afresh, like any new text."""
    a, b, writer = f"{prefix}a", f"{prefix}b", f"{prefix}writer"
    set_member(graph, a, f"{prefix}alice", "owner")
    set_member(graph, b, writer, "owner")
    text = "Nadie más sabe que guardé la carta de Lucía en el cajón de la cocina."
    assert (
        ingest(
            [{"entry_id": f"{a}/letter", "project_id": a, "author": writer, "intimacy": "public", "text": text}]
        ).chunks_embedded
        == 1
    )
    probe = client.post(
        "/v1/entries", headers=auth(writer), json={"project_id": b, "entry_id": f"{b}/probe", "text": text}
    )
    fresh = client.post(
        "/v1/entries",
        headers=auth(writer),
        json={"project_id": b, "entry_id": f"{b}/fresh", "text": "Un texto que nadie escribió nunca."},
    )
    assert probe.status_code == fresh.status_code == 201, probe.text
    assert probe.json()["embedding"] == fresh.json()["embedding"] == "pending"
    assert states(graph, embedder, f"{b}/probe") == states(graph, embedder, f"{b}/fresh") == [("pending", False)]


def test_reuse_follows_what_the_writer_may_see_now(
    client: TestClient, auth: Headers, graph: Graph, embedder: CheckedEmbedder, family: dict[str, str]
) -> None:
    """Reuse is not simply gone: the owner sees the coauthor's intimate entry, so writing its text reuses its
    vectors, and an edit reuses the entry's own previous ones. Once its author makes it private, the same write
    is embedded afresh."""
    project, owner, other = family["project"], auth(family["owner"]), auth(family["other"])
    shared = family_text("intimate", "other")
    assert edit(client, owner, "PATCH", f"{project}/other-public", shared)["embedding"] == "done"
    assert states(graph, embedder, f"{project}/other-public") == [("done", True)]
    retagged = client.patch(f"/v1/entries/{project}/other-public", headers=owner, json={"tags": ["revisado"]})
    assert retagged.json() == {**retagged.json(), "status": "updated", "embedding": "done"}, "its own chunks"
    assert client.delete(f"/v1/entries/{project}/other-public", headers=owner).status_code == 200

    closed = client.patch(f"/v1/entries/{project}/other-intimate", headers=other, json={"intimacy": "private"})
    assert closed.json() == {**closed.json(), "status": "updated", "embedding": "done"}, "its author sees it"
    assert edit(client, owner, "PATCH", f"{project}/other-circle", shared)["embedding"] == "pending"
    assert states(graph, embedder, f"{project}/other-circle") == [("pending", False)]


def test_a_trusted_ingest_reuses_only_within_the_project(
    graph: Graph, embedder: CheckedEmbedder, prefix: str, ingest: Ingest
) -> None:
    """`memora ingest` (no writer: the operator) reuses any chunk of the same project, never another project's,
    also when one batch writes to several projects."""
    a, b, c = f"{prefix}a", f"{prefix}b", f"{prefix}c"
    text = "El verano que aprendimos a nadar en el río, antes de la tormenta."
    assert len(chunk_text(text, "diary")) == 1

    def row(project: str, name: str) -> dict[str, Any]:
        return {"entry_id": f"{project}/{name}", "project_id": project, "text": text}

    first = ingest([row(a, "one")])
    assert (first.chunks_embedded, first.chunks_reused) == (1, 0)
    elsewhere = ingest([row(b, "one")])
    assert (elsewhere.chunks_embedded, elsewhere.chunks_reused) == (1, 0), "another project's vector is not reused"
    mixed = ingest([row(a, "two"), row(b, "two"), row(c, "one")])
    assert (mixed.chunks_embedded, mixed.chunks_reused) == (1, 2), "a and b reuse their own; c embeds"
    for project in (a, b, c):
        assert states(graph, embedder, f"{project}/one") == [("done", True)]


def test_a_witness_reuses_the_vectors_of_their_own_accounts(
    client: TestClient, auth: Headers, graph: Graph, embedder: CheckedEmbedder, family: dict[str, str], ingest: Ingest
) -> None:
    """A witness writes as a witness viewer of their chapter: an account they wrote before (circle, in the chapter)
    is theirs to see, so writing it again reuses its vectors."""
    project = family["project"]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/berlin",
                "project_id": project,
                "author": family["owner"],
                "intimacy": "circle",
                "period": "Berlín 2008",
                "text": "Invierno en Berlín.",
            }
        ]
    ).errors
    made = client.post(
        f"/v1/projects/{project}/witnesses", json={"period": "Berlín 2008"}, headers=auth(family["owner"])
    )
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    account = {"text": "Yo estaba allí: la estación olía a carbón y a castañas."}
    assert client.post(f"/v1/w/{token}/entries", json=account).json()["embedding"] == "pending"
    backfill(graph, embedder, project_id=project)
    again = client.post(f"/v1/w/{token}/entries", json=account)
    assert again.status_code == 201 and again.json()["embedding"] == "done"


def test_a_write_answers_for_its_own_chunks_not_for_the_hidden_turns_it_re_derives(
    client: TestClient, auth: Headers, graph: Graph, prefix: str, ingest: Ingest
) -> None:
    """A coauthor's turn lends its words to the owner's private reply: editing the turn re-derives that reply, whose
    chunks then wait for a vector. The edit's answer must be the one it gets in a project where the reply does not
    exist ("done": the turn's own chunk is reused from the coauthor's earlier session of that day)."""
    answers = []
    for with_reply in (True, False):
        project = f"{prefix}{'with' if with_reply else 'without'}"
        owner, coauthor = f"{prefix}owner", f"{prefix}coauthor"
        set_member(graph, project, owner, "owner")
        set_member(graph, project, coauthor, "coauthor")
        turn = {"project_id": project, "author": coauthor, "intimacy": "circle", "kind": "session", "turn": 1}
        records = [
            {
                **turn,
                "entry_id": f"{project}/earlier",
                "occurred_at": "2023-05-08T09:00:00",
                "text": "El faro se apagó aquella noche.",
            },
            {
                **turn,
                "entry_id": f"{project}/turn",
                "occurred_at": "2023-05-08T18:00:00",
                "text": "Llovía sobre el puerto.",
            },
        ]
        if with_reply:
            records.append(
                {
                    "entry_id": f"{project}/reply",
                    "project_id": project,
                    "author": owner,
                    "intimacy": "private",
                    "kind": "session",
                    "turn": 2,
                    "occurred_at": "2023-05-08T18:00:00",
                    "text": "Y nadie lo vio.",
                }
            )
        assert not ingest(records).errors
        resp = client.patch(
            f"/v1/entries/{project}/turn", headers=auth(coauthor), json={"text": "El faro se apagó aquella noche."}
        )
        assert resp.status_code == 200, resp.text
        answers.append(resp.json()["embedding"])
    assert answers == ["done", "done"]
