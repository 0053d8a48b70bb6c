"""The write path on the real Neo4j and the real embedder: idempotence, edits, bad lines, outages, linking, chunking,
dates and conversation threads."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graph.db import Graph
from graph.entities import upsert_entity
from graph.ids import entity_id
from graph.members import set_member
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.chunking import TARGET_CHARS, chunk_text, split_sentences
from ingest.dates import parse_occurred
from ingest.pipeline import Ingestor, IngestReport
from ingest.records import read_jsonl
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

Ingest = Callable[..., IngestReport]
MAX_CHUNK_CHARS = 1600


def one(graph: Graph, query: str, **params: Any) -> Any:
    rows = graph.read(query, params)
    assert len(rows) == 1
    return rows[0][0]


def counts(graph: Graph, project_id: str) -> dict[str, int]:
    return {
        "entries": one(graph, "MATCH (e:Entry {project_id: $p}) RETURN count(e)", p=project_id),
        "chunks": one(graph, "MATCH (c:Chunk {project_id: $p}) RETURN count(c)", p=project_id),
        "mentions": one(graph, "MATCH (e:Entry {project_id: $p})-[m:MENTIONS]->() RETURN count(m)", p=project_id),
        "mention_pairs": one(
            graph, "MATCH (e:Entry {project_id: $p})-[:MENTIONS]->(x) RETURN count(DISTINCT [e.id, x.id])", p=project_id
        ),
        "entities": one(graph, "MATCH (x:Person|Place|Thing {project_id: $p}) RETURN count(x)", p=project_id),
        "next": one(graph, "MATCH (a:Entry {project_id: $p})-[r:NEXT]->() RETURN count(r)", p=project_id),
    }


def chunks_of(graph: Graph, entry_id: str) -> list[dict[str, Any]]:
    return [
        dict(r)
        for r in graph.read(
            "MATCH (c:Chunk)-[:OF]->(:Entry {id: $id}) RETURN c.id AS id, c.ord AS ord, c.text AS text, "
            "c.context AS context, c.embedding_status AS status, c.embedding_error AS error, "
            "c.emb_e5small IS NOT NULL AS has_vector ORDER BY c.ord",
            {"id": entry_id},
        )
    ]


def paragraph(topic: str, n: int) -> str:
    return " ".join(
        f"{topic} {n}.{i}: caminamos por el puerto y hablamos de la familia durante horas." for i in range(9)
    )


def chronicle(topic: str, paragraphs: int = 7) -> str:
    return "\n\n".join(paragraph(topic, n) for n in range(paragraphs))


# --- idempotence and edits ---------------------------------------------------------------------------------------


def family_rows(prefix: str) -> list[dict[str, Any]]:
    project = f"{prefix}idem"
    return [
        {
            "entry_id": f"{project}/short",
            "project_id": project,
            "author": f"{prefix}ana",
            "occurred_on": "2008-07-12",
            "text": "Fuimos a Cádiz con Josep y Marta; papá condujo todo el camino.",
            "persons": ["Josep", "Marta"],
            "places": ["Cádiz"],
            "tags": ["viaje"],
        },
        {
            "entry_id": f"{project}/long",
            "project_id": project,
            "author": f"{prefix}ana",
            "kind": "chronicle",
            "occurred_on": "2009",
            "text": chronicle("Crónica de Cádiz con Josep"),
            "persons": ["Josep"],
        },
        {"entry_id": f"{project}/undated", "project_id": project, "text": "Una nota sin fecha ni autor."},
    ]


def test_reingest_is_idempotent(graph: Graph, prefix: str, ingest: Ingest) -> None:
    rows = family_rows(prefix)
    project = rows[0]["project_id"]
    first = ingest(rows)
    assert (first.written, first.unchanged, first.errors) == (3, 0, [])
    assert first.chunks_embedded + first.chunks_reused > 3, "the chronicle has several chunks"
    before = counts(graph, project)
    stamps = {
        r["id"]: r["u"]
        for r in graph.read("MATCH (e:Entry {project_id: $p}) RETURN e.id AS id, e.updated_at AS u", {"p": project})
    }

    second = ingest(rows)
    assert (second.written, second.unchanged, second.chunks_embedded, second.chunks_pending) == (0, 3, 0, 0)
    assert second.errors == [] and second.written_ids == []
    assert counts(graph, project) == before
    assert before["mentions"] == before["mention_pairs"], "no duplicate MENTIONS"
    after = {
        r["id"]: r["u"]
        for r in graph.read("MATCH (e:Entry {project_id: $p}) RETURN e.id AS id, e.updated_at AS u", {"p": project})
    }
    assert after == stamps, "unchanged entries are not rewritten"


def test_forced_rewrite_does_not_duplicate_nodes_or_mentions(graph: Graph, prefix: str, ingest: Ingest) -> None:
    rows = family_rows(prefix)
    project = rows[0]["project_id"]
    ingest(rows)
    before = counts(graph, project)
    edited = [dict(r, tags=[*r.get("tags", []), "revisado"]) for r in rows]  # every entry changes, same mentions
    report = ingest(edited)
    assert (report.written, report.unchanged) == (3, 0)
    assert counts(graph, project) == before
    assert before["mentions"] == before["mention_pairs"]
    assert one(graph, "MATCH (:User)-[w:WROTE]->(e:Entry {project_id: $p}) RETURN count(w)", p=project) == 2


def test_edited_entry_embeds_only_changed_chunks(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}edit"
    text = chronicle(f"Crónica {prefix}")
    row = {
        "entry_id": f"{project}/c",
        "project_id": project,
        "author": f"{prefix}ana",
        "kind": "chronicle",
        "occurred_on": "2009-05-01",
        "text": text,
        "persons": ["Marta"],
    }
    first = ingest([row])
    old_chunks = chunk_text(text, "chronicle")
    assert len(old_chunks) >= 3
    assert first.chunks_embedded + first.chunks_reused == len(old_chunks)

    new_text = text + " Al final llovió muchísimo y volvimos empapados."
    new_chunks = chunk_text(new_text, "chronicle")
    changed = [c for c in new_chunks if c not in old_chunks]
    assert 0 < len(changed) < len(new_chunks)

    report = ingest([dict(row, text=new_text)])
    assert (report.written, report.unchanged) == (1, 0)
    assert report.chunks_embedded == len(changed)
    assert report.chunks_reused == len(new_chunks) - len(changed)
    stored = chunks_of(graph, row["entry_id"])
    assert [c["text"] for c in stored] == new_chunks
    assert [c["ord"] for c in stored] == list(range(len(new_chunks)))
    assert all(c["status"] == "done" and c["has_vector"] for c in stored)
    assert one(graph, "MATCH (e:Entry {id: $id}) RETURN e.body", id=row["entry_id"]) == new_text


def test_identical_content_elsewhere_reuses_vectors(
    graph: Graph, prefix: str, ingest: Ingest, embedder: CheckedEmbedder
) -> None:
    project = f"{prefix}copy"
    row = {
        "entry_id": f"{project}/a",
        "project_id": project,
        "author": f"{prefix}ana",
        "kind": "chronicle",
        "occurred_on": "2009-05-01",
        "text": chronicle(f"Copia {prefix}"),
    }
    first = ingest([row])
    n = len(chunk_text(row["text"], "chronicle"))
    assert (first.chunks_embedded, first.chunks_reused) == (n, 0)

    copy = ingest([dict(row, entry_id=f"{project}/b")])
    assert (copy.written, copy.chunks_embedded, copy.chunks_reused) == (1, 0, n)
    prop = f"emb_{embedder.slug}"
    pairs = graph.read(
        f"MATCH (a:Chunk)-[:OF]->(:Entry {{id: $a}}), (b:Chunk)-[:OF]->(:Entry {{id: $b}}) WHERE a.ord = b.ord "
        f"RETURN a.{prop} AS va, b.{prop} AS vb",
        {"a": row["entry_id"], "b": f"{project}/b"},
    )
    assert len(pairs) == n
    assert all(np.allclose(p["va"], p["vb"]) for p in pairs)


def test_edit_removes_stale_mentions(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}stale"
    row = {"entry_id": f"{project}/e", "project_id": project, "text": "Cena con Marta.", "persons": ["Marta", "Pep"]}
    ingest([row])
    ingest([dict(row, text="Cena con Marta, sin Pep.", persons=["Marta"])])
    names = {
        r["n"]
        for r in graph.read("MATCH (:Entry {id: $id})-[:MENTIONS]->(x) RETURN x.name AS n", {"id": row["entry_id"]})
    }
    assert names == {"Marta"}, "a listed name is not a declaration: only the entry that lists it names it"
    upsert_entity(graph, project, "person", "Pep")
    ingest([dict(row, text="Cena con Marta y Pep.", persons=["Marta"])])
    names = {
        r["n"]
        for r in graph.read("MATCH (:Entry {id: $id})-[:MENTIONS]->(x) RETURN x.name AS n", {"id": row["entry_id"]})
    }
    assert names == {"Marta", "Pep"}, "Pep is declared and named in the text"
    ingest([dict(row, text="Cena con Marta.", persons=["Marta"])])
    names = {
        r["n"]
        for r in graph.read("MATCH (:Entry {id: $id})-[:MENTIONS]->(x) RETURN x.name AS n", {"id": row["entry_id"]})
    }
    assert names == {"Marta"}


# --- bad lines -----------------------------------------------------------------------------------------------------


def test_bad_lines_are_reported_and_good_lines_written(
    graph: Graph, prefix: str, ingest: Ingest, embedder: CheckedEmbedder, tmp_jsonl: Callable[[list[str]], Path]
) -> None:
    project, elsewhere = f"{prefix}lines", f"{prefix}elsewhere"
    taken = {"entry_id": f"{elsewhere}/taken", "project_id": elsewhere, "text": "Entrada de otro proyecto."}
    assert ingest([taken]).written == 1

    def line(n: int, **fields: Any) -> str:
        return json.dumps(
            {"entry_id": f"{project}/{n}", "project_id": project, "text": f"Línea buena {n}.", **fields},
            ensure_ascii=False,
        )

    lines = [
        line(1),  # 1 good
        '{"entry_id": "broken", "project_id": ',  # 2 invalid JSON
        "",  # 3 blank: skipped, still counted
        json.dumps({"entry_id": f"{project}/4", "project_id": project}),  # 4 missing text
        line(5, intimacy="secret"),  # 5 bad intimacy enum
        line(6, occurred_on="2008-13-40"),  # 6 impossible date
        line(7, occurred_on="2008-07"),  # 7 good
        json.dumps({**taken, "project_id": project, "text": "Robada."}),  # 8 entry_id of another project
        "[1, 2, 3]",  # 9 not an object
        line(10, text="   "),  # 10 blank text
        line(11, intimacy="public"),  # 11 good
    ]
    report = Ingestor(graph, embedder).ingest(read_jsonl(tmp_jsonl(lines)))

    by_line = {e.line: e for e in report.errors}
    assert set(by_line) == {2, 4, 5, 6, 8, 9, 10}
    assert "invalid JSON" in by_line[2].reason
    assert "text" in by_line[4].reason and by_line[4].entry_id == f"{project}/4"
    assert "intimacy" in by_line[5].reason
    assert "month" in by_line[6].reason and by_line[6].entry_id == f"{project}/6"
    assert f"must start with '{project}/'" in by_line[8].reason and by_line[8].entry_id == taken["entry_id"]
    assert "object" in by_line[9].reason
    assert "text" in by_line[10].reason
    assert report.written == 3
    stored = {r["id"] for r in graph.read("MATCH (e:Entry {project_id: $p}) RETURN e.id AS id", {"p": project})}
    assert stored == {f"{project}/1", f"{project}/7", f"{project}/11"}
    kept = graph.read("MATCH (e:Entry {id: $id}) RETURN e.project_id AS p, e.body AS b", {"id": taken["entry_id"]})
    assert (kept[0]["p"], kept[0]["b"]) == (elsewhere, taken["text"]), "the other project's entry is untouched"


# --- embedding outage ----------------------------------------------------------------------------------------------


class Outage:
    """The real embedder whose passage endpoint is down (queries still work)."""

    def __init__(self, real: CheckedEmbedder) -> None:
        self.real = real
        self.model_id, self.slug, self.dimensions = real.model_id, real.slug, real.dimensions
        self.calls = 0

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        raise ConnectionError("embedding service unreachable")

    def embed_query(self, text: str) -> np.ndarray:
        return self.real.embed_query(text)


def test_embedding_outage_saves_entries_as_pending(
    graph: Graph, prefix: str, ingest: Ingest, settings: Settings, embedder: CheckedEmbedder
) -> None:
    project, owner = f"{prefix}outage", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    rows = [
        {
            "entry_id": f"{project}/a",
            "project_id": project,
            "author": owner,
            "text": f"Hoy plantamos girasoles {prefix} en el huerto de la abuela.",
        },
        {
            "entry_id": f"{project}/b",
            "project_id": project,
            "author": owner,
            "kind": "chronicle",
            "text": chronicle(f"Girasoles {prefix}"),
        },
    ]
    down = Outage(embedder)
    report = ingest(rows, emb=CheckedEmbedder(down))
    assert down.calls >= 1
    assert report.written == 2 and report.errors == []
    assert report.chunks_embedded == 0 and report.chunks_reused == 0
    n_chunks = 1 + len(chunk_text(rows[1]["text"], "chronicle"))
    assert report.chunks_pending == n_chunks
    pending = [c for r in rows for c in chunks_of(graph, r["entry_id"])]
    assert len(pending) == n_chunks
    assert all(c["status"] == "pending" and not c["has_vector"] and "unreachable" in c["error"] for c in pending)

    found = hybrid_search(
        graph, embedder, settings, Viewer(user_id=owner), "girasoles huerto", Scope(project_id=project), SearchOptions()
    )
    assert {r.entry_id for r in found.results} == {rows[0]["entry_id"], rows[1]["entry_id"]}
    assert all(set(r.score_breakdown) == {"fulltext"} for r in found.results), "only the keyword channel has them"

    healed = ingest(rows)
    assert (healed.written, healed.unchanged, healed.chunks_pending) == (2, 0, 0)
    assert healed.chunks_embedded == n_chunks
    done = [c for r in rows for c in chunks_of(graph, r["entry_id"])]
    assert len(done) == n_chunks, "no duplicated chunks"
    assert len({c["id"] for c in done}) == n_chunks
    assert all(c["status"] == "done" and c["has_vector"] and c["error"] is None for c in done)
    dense = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=owner),
        "flores amarillas en el jardín",
        Scope(project_id=project),
        SearchOptions(channels=("dense",)),
    )
    assert {r.entry_id for r in dense.results} == {rows[0]["entry_id"], rows[1]["entry_id"]}
    assert ingest(rows).unchanged == 2


def test_wrong_dimension_vectors_are_an_outage_too(
    graph: Graph, prefix: str, ingest: Ingest, embedder: CheckedEmbedder
) -> None:
    class Truncating(Outage):
        def embed_passages(self, texts: list[str]) -> np.ndarray:
            return np.asarray(self.real.embed_passages(texts))[:, :100]

    project = f"{prefix}dims"
    row = {"entry_id": f"{project}/a", "project_id": project, "text": f"Vector corto {prefix}."}
    report = ingest([row], emb=CheckedEmbedder(Truncating(embedder)))
    assert (report.written, report.chunks_pending, report.chunks_embedded) == (1, 1, 0)
    assert chunks_of(graph, row["entry_id"])[0]["status"] == "pending"


# --- entity linking ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Hoy llamé a Papá por su cumpleaños.",
        "HOY LLAMÉ A PAPA POR SU CUMPLEAÑOS.",
        "Called my dad today.",
        "Josep vino a cenar.",
    ],
)
def test_alias_in_text_links_to_the_known_person(graph: Graph, prefix: str, ingest: Ingest, text: str) -> None:
    project = f"{prefix}alias"
    josep = upsert_entity(graph, project, "person", "Josep", ["papá", "dad"])
    assert josep.id == entity_id(project, "person", "Josep")
    report = ingest([{"entry_id": f"{project}/e", "project_id": project, "text": text, "persons": []}])
    assert report.written == 1
    linked = graph.read(
        "MATCH (:Entry {id: $id})-[m:MENTIONS]->(x) RETURN x.id AS id, m.count AS n", {"id": f"{project}/e"}
    )
    assert [(r["id"], r["n"]) for r in linked] == [(josep.id, 1)]
    people = one(graph, "MATCH (x:Person {project_id: $p}) RETURN count(x)", p=project)
    assert people == 1, "no second person is created for the alias"


def test_listed_alias_resolves_to_the_known_person(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}alias2"
    josep = upsert_entity(graph, project, "person", "Josep", ["papá", "dad"])
    ingest([{"entry_id": f"{project}/e", "project_id": project, "text": "Paseo largo.", "persons": ["PAPÁ"]}])
    linked = [
        r["id"]
        for r in graph.read("MATCH (:Entry {id: $id})-[:MENTIONS]->(x) RETURN x.id AS id", {"id": f"{project}/e"})
    ]
    assert linked == [josep.id]


def test_alias_matches_whole_words_only(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}alias3"
    upsert_entity(graph, project, "person", "Josep", ["papá", "dad"])
    ingest(
        [
            {
                "entry_id": f"{project}/e",
                "project_id": project,
                "text": "El papagayo de los vecinos grita daddy todo el día.",
            }
        ]
    )
    assert not graph.read("MATCH (:Entry {id: $id})-[:MENTIONS]->(x) RETURN x", {"id": f"{project}/e"})


def test_alias_of_another_project_is_not_linked(graph: Graph, prefix: str, ingest: Ingest) -> None:
    upsert_entity(graph, f"{prefix}mine", "person", "Josep", ["papá"])
    project = f"{prefix}theirs"
    ingest([{"entry_id": f"{project}/e", "project_id": project, "text": "Hoy llamé a papá."}])
    assert not graph.read("MATCH (:Entry {id: $id})-[:MENTIONS]->(x) RETURN x", {"id": f"{project}/e"})


# --- chunking ------------------------------------------------------------------------------------------------------


def test_long_chronicle_gets_several_bounded_chunks(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}chunks"
    text = chronicle(f"Crónica {prefix}", paragraphs=8)[:5000].rsplit(" ", 1)[0] + "."
    assert 4900 <= len(text) <= 5000
    ingest(
        [
            {"entry_id": f"{project}/long", "project_id": project, "kind": "chronicle", "text": text},
            {"entry_id": f"{project}/short", "project_id": project, "text": "Hoy llovió. Nos quedamos en casa."},
        ]
    )
    stored = chunks_of(graph, f"{project}/long")
    assert len(stored) >= 3
    assert all(len(c["text"]) <= MAX_CHUNK_CHARS for c in stored)
    assert [c["ord"] for c in stored] == list(range(len(stored)))
    joined = " ".join(c["text"] for c in stored)
    assert all(s in joined for s in split_sentences(" ".join(text.split()))), "no sentence is lost"
    short = chunks_of(graph, f"{project}/short")
    assert [c["text"] for c in short] == ["Hoy llovió. Nos quedamos en casa."]


def test_text_without_sentence_breaks_is_still_cut() -> None:
    text = "palabra " * 900
    chunks = chunk_text(text, "chronicle")
    assert len(chunks) >= 4
    assert all(len(c) <= MAX_CHUNK_CHARS for c in chunks)
    assert "".join(chunks).replace(" ", "") == text.replace(" ", "")


def test_session_is_chunked_by_turn() -> None:
    turns = [
        f"{speaker}: " + "Me acuerdo de aquel verano en Cádiz con los primos. " * 6 for speaker in ("Ana", "Bob") * 8
    ]
    chunks = chunk_text("\n".join(turns), "session")
    assert len(chunks) >= 2
    assert all(len(c) <= MAX_CHUNK_CHARS for c in chunks)
    for chunk in chunks:
        assert all(line.startswith(("Ana: ", "Bob: ")) for line in chunk.split("\n")), "turns are never split"


def test_overlap_never_pushes_a_chunk_past_the_bound() -> None:
    last = "Al final de aquella tarde " + " ".join(["recordamos a los abuelos y sus historias del pueblo"] * 8) + "."
    para = " ".join(["Caminamos por el puerto viejo con los primos."] * 21) + " " + last
    chunks = chunk_text("\n\n".join([para] * 4), "chronicle")
    assert max(len(c) for c in chunks) <= MAX_CHUNK_CHARS, [len(c) for c in chunks]


def test_short_texts_are_one_chunk() -> None:
    text = "x" * TARGET_CHARS
    assert chunk_text(text, "diary") == [text]
    assert chunk_text("  Una línea.  ", "session") == ["Una línea."]


# --- dates ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "end", "precision"),
    [
        ("2008", date(2008, 1, 1), date(2008, 12, 31), "year"),
        ("2008-07", date(2008, 7, 1), date(2008, 7, 31), "month"),
        ("2008-02", date(2008, 2, 1), date(2008, 2, 29), "month"),
        ("2009-02", date(2009, 2, 1), date(2009, 2, 28), "month"),
        ("2008-07-12", date(2008, 7, 12), date(2008, 7, 12), "day"),
        (" 2008-07-12 ", date(2008, 7, 12), date(2008, 7, 12), "day"),
        ("2008-06-21/2008-09-22", date(2008, 6, 21), date(2008, 9, 22), "season"),
        ("2008-06..2008-08", date(2008, 6, 1), date(2008, 8, 31), "season"),
        ("2008/2008", date(2008, 1, 1), date(2008, 12, 31), "year"),
        ("2007/2009", date(2007, 1, 1), date(2009, 12, 31), "approx"),
        ("2008-07-12T21:30:00", date(2008, 7, 12), date(2008, 7, 12), "day"),
    ],
)
def test_parse_occurred(text: str, start: date, end: date, precision: str) -> None:
    parsed = parse_occurred(text)
    assert (parsed.start, parsed.end, parsed.precision) == (start, end, precision)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "2008-13-40",
        "2008-13",
        "2008-00",
        "2008-02-30",
        "0000",
        "08",
        "20080712",
        "julio 2008",
        "2008-07-12T25:00",
        "2009/2008",
        "2008-09-22/2008-06-21",
        "2008/",
        "/2008",
        "2008..",
        "2008-07-12/nope",
    ],
)
def test_parse_occurred_rejects_bad_input(text: str) -> None:
    with pytest.raises(ValueError):
        parse_occurred(text)


def test_stored_dates_are_ranges(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}dates"
    ingest(
        [{"entry_id": f"{project}/s", "project_id": project, "text": "Verano.", "occurred_on": "2008-06-21/2008-09-22"}]
    )
    row = graph.read(
        "MATCH (e:Entry {id: $id}) RETURN e.occurred_start AS s, e.occurred_end AS e, e.occurred_precision AS p",
        {"id": f"{project}/s"},
    )[0]
    assert (row["s"].to_native(), row["e"].to_native(), row["p"]) == (date(2008, 6, 21), date(2008, 9, 22), "season")


# --- conversation threads ------------------------------------------------------------------------------------------


def thread_rows(project: str, ana: str, bob: str, first_intimacy: str) -> list[dict[str, Any]]:
    at = "2020-01-01T10:00:00"
    return [
        {
            "entry_id": f"{project}/t1",
            "project_id": project,
            "author": ana,
            "intimacy": first_intimacy,
            "occurred_at": at,
            "turn": 1,
            "kind": "session",
            "text": "Confieso que odio las lentejas moradas.",
        },
        {
            "entry_id": f"{project}/t2",
            "project_id": project,
            "author": bob,
            "intimacy": "circle",
            "occurred_at": at,
            "turn": 2,
            "kind": "session",
            "text": "Pues yo prefiero la paella valenciana.",
        },
        {
            "entry_id": f"{project}/t3",
            "project_id": project,
            "author": ana,
            "intimacy": "circle",
            "occurred_at": at,
            "turn": 3,
            "kind": "session",
            "text": "Vale, mañana hacemos eso.",
        },
    ]


def next_links(graph: Graph, project: str) -> list[tuple[str, str]]:
    return sorted(
        (r["a"], r["b"])
        for r in graph.read(
            "MATCH (a:Entry {project_id: $p})-[:NEXT]->(b:Entry) RETURN a.id AS a, b.id AS b", {"p": project}
        )
    )


def test_thread_turns_are_linked_in_order(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}thread"
    rows = thread_rows(project, f"{prefix}ana", f"{prefix}bob", "circle")
    assert ingest(rows).written == 3
    assert next_links(graph, project) == [(f"{project}/t1", f"{project}/t2"), (f"{project}/t2", f"{project}/t3")]
    again = ingest(rows)
    assert again.unchanged == 3
    assert next_links(graph, project) == [(f"{project}/t1", f"{project}/t2"), (f"{project}/t2", f"{project}/t3")]


def test_thread_continues_across_ingest_runs(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}thread2"
    rows = thread_rows(project, f"{prefix}ana", f"{prefix}bob", "circle")
    ingest(rows[:2])
    ingest(rows[2:])
    assert next_links(graph, project) == [(f"{project}/t1", f"{project}/t2"), (f"{project}/t2", f"{project}/t3")]
    assert "paella valenciana" in chunks_of(graph, f"{project}/t3")[0]["context"]


def test_private_turn_is_not_lent_to_a_circle_reply(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}lend"
    ana, bob = f"{prefix}ana", f"{prefix}bob"
    ingest(thread_rows(project, ana, bob, "private"))
    reply = chunks_of(graph, f"{project}/t2")
    assert reply and all("lentejas" not in c["context"] for c in reply)
    assert one(graph, "MATCH (e:Entry {id: $id}) RETURN e.context", id=f"{project}/t2") is None
    # ... while the circle turn by bob is lent to ana's circle reply.
    third = chunks_of(graph, f"{project}/t3")
    assert all("Pues yo prefiero la paella valenciana." in c["context"] for c in third)
    assert "paella valenciana" in one(graph, "MATCH (e:Entry {id: $id}) RETURN e.context", id=f"{project}/t3")
    # [:NEXT] links a reply to the turn it borrows from: the private turn lends to nobody.
    assert next_links(graph, project) == [(f"{project}/t2", f"{project}/t3")]


def test_private_turn_words_do_not_find_the_reply(
    graph: Graph, prefix: str, ingest: Ingest, settings: Settings, embedder: CheckedEmbedder
) -> None:
    project = f"{prefix}lendsearch"
    ana, bob = f"{prefix}ana", f"{prefix}bob"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, bob, "coauthor")
    ingest(thread_rows(project, ana, bob, "private"))
    resp = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=bob),
        "lentejas moradas",
        Scope(project_id=project),
        SearchOptions(channels=("fulltext",)),
    )
    assert resp.source == "recency", "no entry bob may see matches the words of ana's private turn"


def test_own_intimate_turn_is_lent_to_own_intimate_reply(graph: Graph, prefix: str, ingest: Ingest) -> None:
    project = f"{prefix}own"
    ana = f"{prefix}ana"
    rows = thread_rows(project, ana, ana, "intimate")
    rows[1]["intimacy"] = "intimate"
    ingest(rows)
    assert "lentejas" in chunks_of(graph, f"{project}/t2")[0]["context"]


def test_narrowing_a_turn_withdraws_its_lent_context(
    graph: Graph, prefix: str, ingest: Ingest, settings: Settings, embedder: CheckedEmbedder
) -> None:
    project = f"{prefix}narrow"
    ana, bob = f"{prefix}ana", f"{prefix}bob"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, bob, "coauthor")
    rows = thread_rows(project, ana, bob, "circle")
    ingest(rows)
    ingest([dict(rows[1], intimacy="private")])  # bob makes his turn private
    resp = hybrid_search(
        graph,
        embedder,
        settings,
        Viewer(user_id=ana),
        "valenciana",
        Scope(project_id=project),
        SearchOptions(channels=("fulltext",)),
    )
    assert resp.source == "recency", [r.entry_id for r in resp.results]
    assert all("valenciana" not in c["context"] for c in chunks_of(graph, f"{project}/t3"))


def test_a_reply_written_before_its_narrowed_turn_in_the_same_file_loses_its_words(
    graph: Graph, prefix: str, ingest: Ingest
) -> None:
    """The reply's line comes first: it is placed against the old turn, and reconciled once the turn is narrowed."""
    project = f"{prefix}order"
    rows = thread_rows(project, f"{prefix}ana", f"{prefix}bob", "circle")
    ingest(rows)
    assert "valenciana" in one(graph, "MATCH (e:Entry {id: $id}) RETURN e.context", id=f"{project}/t3")
    ingest([rows[2], dict(rows[1], intimacy="private")])
    assert "valenciana" not in (one(graph, "MATCH (e:Entry {id: $id}) RETURN e.context", id=f"{project}/t3") or "")
    assert all("valenciana" not in c["context"] for c in chunks_of(graph, f"{project}/t3"))
    assert "lentejas" in one(graph, "MATCH (e:Entry {id: $id}) RETURN e.context", id=f"{project}/t3"), (
        "the closest turn that may lend (ana's circle turn) lends instead"
    )


def test_a_turn_that_moves_to_another_session_and_narrows_is_withdrawn_from_its_old_reply(
    graph: Graph, prefix: str, ingest: Ingest
) -> None:
    project = f"{prefix}moved"
    rows = thread_rows(project, f"{prefix}ana", f"{prefix}bob", "private")
    ingest(rows)
    assert "valenciana" in one(graph, "MATCH (e:Entry {id: $id}) RETURN e.context", id=f"{project}/t3")
    ingest([dict(rows[1], occurred_at="2021-02-02T09:00:00", intimacy="private")])
    assert one(graph, "MATCH (e:Entry {id: $id}) RETURN e.context", id=f"{project}/t3") is None
    assert all("valenciana" not in c["context"] for c in chunks_of(graph, f"{project}/t3"))
    assert next_links(graph, project) == []


def test_a_hidden_turn_between_two_visible_ones_changes_nothing_they_show(
    graph: Graph, prefix: str, ingest: Ingest
) -> None:
    """A private turn inserted between a circle turn and its circle reply neither lends nor stands in the way."""
    project = f"{prefix}between"
    rows = thread_rows(project, f"{prefix}ana", f"{prefix}bob", "circle")
    ingest(rows[:2])
    before = graph.read(
        "MATCH (e:Entry {id: $id}) RETURN e.context AS c, e.updated_at AS u, e.content_hash AS h",
        {"id": f"{project}/t2"},
    )[0]
    ingest(
        [{**rows[0], "entry_id": f"{project}/t1b", "turn": 1, "intimacy": "private", "text": "Esto no lo sabe nadie."}]
    )
    after = graph.read(
        "MATCH (e:Entry {id: $id}) RETURN e.context AS c, e.updated_at AS u, e.content_hash AS h",
        {"id": f"{project}/t2"},
    )[0]
    assert dict(after) == dict(before)
