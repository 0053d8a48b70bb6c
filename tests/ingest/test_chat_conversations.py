"""A chat's messages on the real Neo4j: each carries its own time, so the `session` they name makes them one
conversation, and a message borrows the one before it, never one its viewers may not see."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.db import Graph
from inference.embedders import CheckedEmbedder
from ingest.pipeline import IngestReport
from ingest.relink import conversations_lagging, refresh_conversations

Ingest = Callable[..., IngestReport]


def message(project: str, n: int, author: str, text: str, session: Any = 1, intimacy: str = "circle") -> dict[str, Any]:
    return {
        "entry_id": f"{project}/m{n}",
        "project_id": project,
        "author": author,
        "occurred_at": f"2024-03-0{1 + n // 10}T10:{n % 60:02d}",
        "turn": n,
        "session": session,
        "intimacy": intimacy,
        "text": text,
    }


def chat(project: str, ana: str, bob: str) -> list[dict[str, Any]]:
    return [
        message(project, 1, ana, "¿Qué tal fue la entrevista en la cooperativa de Gràcia?"),
        message(project, 2, bob, "uf"),
        message(project, 3, bob, "me dieron el puesto!!"),
        message(project, 4, ana, "¡enhorabuena!"),
    ]


def context_of(graph: Graph, entry_id: str) -> str:
    rows = graph.read("MATCH (e:Entry {id: $id}) RETURN coalesce(e.context, '') AS c", {"id": entry_id})
    return str(rows[0]["c"])


def next_links(graph: Graph, project: str) -> list[tuple[str, str]]:
    rows = graph.read("MATCH (a:Entry {project_id: $p})-[:NEXT]->(b) RETURN a.id AS a, b.id AS b", {"p": project})
    return sorted((r["a"], r["b"]) for r in rows)


def test_messages_of_one_session_are_one_conversation_whatever_their_times(
    graph: Graph, prefix: str, ingest: Ingest
) -> None:
    project = f"{prefix}chat"
    rows = chat(project, f"{prefix}ana", f"{prefix}bob")
    rows.append(message(project, 15, f"{prefix}ana", "Otro día: ¿vienes el sábado?", session=2))
    assert ingest(rows).written == 5
    ids = [f"{project}/m{n}" for n in (1, 2, 3, 4)]
    assert next_links(graph, project) == sorted(zip(ids, ids[1:], strict=False))
    assert context_of(graph, f"{project}/m15") == "", "another session lends nothing"


def test_a_short_message_borrows_the_message_before_it_in_its_session(
    graph: Graph, prefix: str, ingest: Ingest
) -> None:
    project = f"{prefix}burst"
    ana, bob = f"{prefix}ana", f"{prefix}bob"
    ingest(chat(project, ana, bob))
    assert "me dieron el puesto" in context_of(graph, f"{project}/m4")
    assert "uf" in context_of(graph, f"{project}/m3")
    assert "entrevista" in context_of(graph, f"{project}/m2"), "messages minutes apart, one conversation"


def test_a_hidden_message_lends_nothing_to_the_burst(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}burstpriv"
    ana, bob = f"{prefix}ana", f"{prefix}bob"
    rows = chat(project, ana, bob)
    rows[1] = dict(rows[1], intimacy="private", text="uf, lloré en el metro")
    ingest(rows)
    third = context_of(graph, f"{project}/m3")
    assert "metro" not in third and "entrevista" in third, "the closest message that may lend lends instead"
    ingest([dict(rows[1], intimacy="circle")])
    assert "metro" in context_of(graph, f"{project}/m3"), "opened, it lends to the messages after it"


def test_migrate_places_again_the_messages_an_older_rule_cut_by_their_times(
    graph: Graph, prefix: str, ingest: Ingest, embedder: CheckedEmbedder
) -> None:
    project = f"{prefix}older"
    ingest(chat(project, f"{prefix}ana", f"{prefix}bob"))
    graph.write(
        "MATCH (e:Entry {project_id: $p}) OPTIONAL MATCH (e)-[n:NEXT]->() DELETE n "
        "SET e.thread_id = e.id, e.context = null, e.prev_id = null, e.thread_rule = null",
        {"p": project},
    )
    lagging = conversations_lagging(graph)
    assert {f"{project}/m{n}" for n in (1, 2, 3, 4)} <= {i for i, _ in lagging}
    refresh_conversations(graph, embedder, lagging)
    ids = [f"{project}/m{n}" for n in (1, 2, 3, 4)]
    assert next_links(graph, project) == sorted(zip(ids, ids[1:], strict=False))
    assert "uf" in context_of(graph, f"{project}/m3")
    assert not {i for i, _ in conversations_lagging(graph)} & set(ids), "marked: a second migrate has nothing to do"
