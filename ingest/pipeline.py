"""Ingest: validate -> link entities -> chunk -> add context -> embed (or mark pending) -> one batched write.

Unchanged entries (same content hash, chunks embedded by the active model) are skipped; identical chunk content
reuses the stored vector; an embedding failure never blocks the write.

Each entry keeps two fingerprints of its record (`EntryRecord.fingerprint`): `record_hash`, what is stored now (set by
every write), and `file_hash`, what a file last wrote (set by file ingest only). A file line for an entry whose
`record_hash` is set and differs from its `file_hash` (edited or created through the API since a file last wrote it)
is skipped and reported, unless the run overwrites: re-ingesting a file never silently reverts an edit.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from neo4j import ManagedTransaction

from graph.db import Graph
from graph.entities import linkable_entities
from graph.entries import (
    EXISTING,
    MARK_FILE_WRITTEN,
    REUSABLE_VECTORS,
    VISIBLE_REUSABLE_VECTORS,
    EntryExists,
    delete_entry,
    entry_thread,
    load_records,
    write_batch,
)
from graph.ids import chunk_id, sha256
from graph.lexicon import ProjectLexicon
from graph.periods import AUTO_RULE
from graph.schema import vector_property
from graph.textnorm import term_string, words
from graph.visibility import Viewer, visibility_params
from inference.embedders import CheckedEmbedder, EmbeddingError
from ingest.addressing import called_by_entity
from ingest.chapters import chapter_of
from ingest.chunking import chunk_text
from ingest.context import chunk_context
from ingest.event_times import EVENT_FORM, Hemispheres, event_props, mention_times, times_told, told_props
from ingest.linking import AuthorPeople, Mention, WitnessView, hashed_mentions, link, linked_names, mention_rows
from ingest.recognition import Recognition, recognize
from ingest.records import EntryRecord, LineError
from ingest.threads import THREAD_RULE, Placement, Threads

log = logging.getLogger(__name__)
BATCH = 64
WITNESS_AUTHOR_PREFIX = "witness:"
SPARSE_TERMS = 128
Source = Literal["file", "api", "refresh"]
"""Who writes: a file (conflicts checked, `file_hash` set), the API (`record_hash` only), or a refresh re-deriving
stored records after a neighbour changed (their record, and so both fingerprints, unchanged)."""
EDITED_SINCE_FILE = (
    "changed through the API since a file last wrote it (or created there); "
    "not overwritten (use --overwrite to replace it)"
)


@dataclass
class IngestReport:
    written: int = 0
    unchanged: int = 0
    chunks_embedded: int = 0
    chunks_reused: int = 0
    chunks_pending: int = 0
    errors: list[LineError] = field(default_factory=list)
    written_ids: list[str] = field(default_factory=list)
    skipped: list[LineError] = field(default_factory=list)
    """Lines not written because their entry changed through the API since a file last wrote it."""
    pending_ids: set[str] = field(default_factory=set)
    """Entries written with chunks left for the worker (the entries re-derived after a write are not counted: a
    write's answer must not tell of a neighbour hidden from its writer)."""

    COUNTS = ("written", "unchanged", "chunks_embedded", "chunks_reused", "chunks_pending")

    def as_dict(self) -> dict[str, Any]:
        counts = {k: getattr(self, k) for k in self.COUNTS}
        return {**counts, "skipped": [e.__dict__ for e in self.skipped], "errors": [e.__dict__ for e in self.errors]}


# Written on every entry: its witness view (`_witness_view`) was derived. Entries written before ingest derived it
# have none, and `memora migrate` re-derives them (ingest/relink.py: refresh_witness_views).
WITNESS_VIEW = 1


class Ingestor:
    def __init__(
        self,
        graph: Graph,
        embedder: CheckedEmbedder,
        embed: bool = True,
        source: Source = "file",
        overwrite: bool = False,
        *,
        writer: Viewer | None = None,
        before_write: Callable[[ManagedTransaction], object] | None = None,
    ) -> None:
        """With `embed=False` a write is acknowledged once committed: chunks without a reusable vector are left
        pending for the embedding worker, so a long entry never holds its writer (or anyone) waiting. `source` says
        who writes (see the module's docstring); with `overwrite`, a file replaces entries edited through the API.

        `writer` is the person whose request causes the write (an API caller, a witness): whether a stored vector
        is reused shows in the answer and its time, so only chunks of entries they may see are reused. Without one
        (a trusted operator: CLI, restore, relink), any chunk of the same project is.

        `before_write` runs first in every write transaction (graph/relink_epochs.py): a re-linking job's check that
        the names it linked with are still current, or a forget's bump of them."""
        self.graph = graph
        self.before_write = before_write
        self.source = source
        self.overwrite = overwrite
        self.writer = writer
        self.embedder = embedder
        self.embed = embed
        self.prop = vector_property(embedder.slug)
        self._lexicons: dict[tuple[str, str | None, str, bool], ProjectLexicon] = {}
        self.hemispheres = Hemispheres(graph)
        self.threads = Threads(graph)
        self.authors = AuthorPeople(graph)

    def lexicon(self, rec: EntryRecord, witness: bool = False) -> ProjectLexicon:
        """The declared names this entry may be linked through (graph.entities.linkable_entities); with `witness`,
        those a witness may see (public declarations only)."""
        witness = witness or bool(rec.author and rec.author.startswith(WITNESS_AUTHOR_PREFIX))
        key = (rec.project_id, rec.author, rec.intimacy, witness)
        if key not in self._lexicons:
            lex = ProjectLexicon(rec.project_id)
            for entity in linkable_entities(self.graph, rec.project_id, rec.author, rec.intimacy, witness):
                lex.add(entity)
            self._lexicons[key] = lex
        return self._lexicons[key]

    def ingest(
        self,
        records: Iterable[tuple[int, EntryRecord | LineError]],
        report: IngestReport | None = None,
        progress: Callable[[int], None] | None = None,
        create_only: bool = False,
    ) -> IngestReport:
        """Write records in batches of BATCH, each batch in one transaction. `report` (when given) is filled as
        batches commit, so a caller that is interrupted still knows what was written. With `create_only`, an id
        that exists raises EntryExists and nothing of its batch is written."""
        report = report or IngestReport()
        batch: list[tuple[int, EntryRecord]] = []
        for number, item in records:
            if isinstance(item, LineError):
                report.errors.append(item)
                if progress:
                    progress(1)
                continue
            batch.append((number, item))
            if len(batch) >= BATCH:
                self._flush(batch, report, progress, create_only)
                batch = []
        if batch:
            self._flush(batch, report, progress, create_only)
        self.refresh(self.threads.stale(), report)
        return report

    def refresh(self, stale: list[tuple[str, int]], report: IngestReport | None = None) -> IngestReport:
        """Re-derive entries (id, thread position) from what is stored after a neighbour changed; unchanged ones
        are skipped by their content hash."""
        report = report or IngestReport()
        if not stale:
            return report
        positions = dict(stale)
        records = [
            (positions[data["entry_id"]], EntryRecord.model_validate(data))
            for data in stored_records(self.graph, list(positions))
        ]
        batch_report = IngestReport()
        for start in range(0, len(records), BATCH):
            self._flush(records[start : start + BATCH], batch_report, None, source="refresh")
        for k in ("written", "chunks_embedded", "chunks_reused", "chunks_pending"):
            setattr(report, k, getattr(report, k) + getattr(batch_report, k))
        return report

    def delete(self, entry_id: str) -> bool:
        """Delete an entry; the turns of its conversation are re-derived without it."""
        tid = entry_thread(self.graph, entry_id)
        deleted = delete_entry(self.graph, entry_id)
        if deleted and tid:
            self.threads.reload(tid)
            self.refresh(self.threads.stale())
        return deleted

    def _flush(
        self,
        batch: list[tuple[int, EntryRecord]],
        report: IngestReport,
        progress: Callable[[int], None] | None,
        create_only: bool = False,
        source: Source | None = None,
    ) -> None:
        source = source or self.source
        seen: dict[str, int] = {}
        unique: list[tuple[int, EntryRecord]] = []
        for number, rec in batch:
            if rec.entry_id in seen:
                unique[seen[rec.entry_id]] = (number, rec)
            else:
                seen[rec.entry_id] = len(unique)
                unique.append((number, rec))
        existing = {
            r["id"]: r
            for r in self.graph.read(
                EXISTING, {"ids": [rec.entry_id for _, rec in unique], "model": self.embedder.model_id}
            )
        }
        entries: list[dict[str, Any]] = []
        periods: list[dict[str, Any]] = []
        mentions: dict[str, list[dict[str, Any]]] = {"person": [], "place": [], "thing": []}
        chunks: list[dict[str, Any]] = []
        adopted: list[dict[str, str]] = []
        recognized = dict(
            zip(
                [rec.entry_id for _, rec in unique],
                recognize(
                    [
                        (f"{rec.title or ''}\n{rec.text}", self.lexicon(rec), rec.persons + rec.places)
                        for _, rec in unique
                    ]
                ),
                strict=True,
            )
        )
        for number, rec in unique:
            prior = existing.get(rec.entry_id)
            if create_only and prior is not None:
                raise EntryExists(rec.entry_id)
            if prior is not None and prior["project_id"] != rec.project_id:
                report.errors.append(LineError(number, rec.entry_id, "entry_id already belongs to another project"))
                continue
            fingerprint = rec.fingerprint()
            if source == "file" and not self.overwrite and edited_since_file(prior, fingerprint):
                report.skipped.append(LineError(number, rec.entry_id, EDITED_SINCE_FILE))
                continue
            placed = self.threads.prepare(
                rec, rec.turn if rec.turn is not None else number, prior["thread_id"] if prior is not None else None
            )
            prepared = self._prepare(rec, placed, recognized[rec.entry_id])
            if source != "refresh":
                prepared["props"]["record_hash"] = fingerprint
            if source == "file":
                prepared["props"]["file_hash"] = fingerprint
            # Unchanged: same content (and record: a listed name's case is not in the content hash), and every chunk
            # embedded (or left to the worker, when this run defers).
            if (
                prior is not None
                and prior["content_hash"] == prepared["props"]["content_hash"]
                and prior["record_hash"] in (None, fingerprint)
                and prior["thread_id"] == placed.thread_id
                and prior["chunks"] > 0
                and (prior["chunks"] == prior["embedded"] or not self.embed)
            ):
                report.unchanged += 1
                if source == "file" and (prior["file_hash"], prior["record_hash"]) != (fingerprint, fingerprint):
                    adopted.append({"id": rec.entry_id, "hash": fingerprint})  # the file now agrees with it
                continue
            entries.append({"id": rec.entry_id, "project_id": rec.project_id, "props": prepared["props"]})
            if prepared["chapter"] is not None:
                periods.append({"entry_id": rec.entry_id, "project_id": rec.project_id, **prepared["chapter"]})
            for m in prepared["mentions"]:
                mentions[m["kind"]].append(m)
            chunks.extend(prepared["chunks"])
        if adopted:
            self.graph.write(MARK_FILE_WRITTEN, {"rows": adopted})
        if entries:
            self._embed(chunks, report)
            write_batch(
                self.graph, entries, periods, mentions, chunks, self.prop, create=create_only, guard=self.before_write
            )
            report.written += len(entries)
            report.written_ids.extend(e["id"] for e in entries)
        if progress:
            progress(len(batch))

    def _prepare(self, rec: EntryRecord, placed: Placement, recognized: Recognition) -> dict[str, Any]:
        occurred = rec.occurred()
        chapter = chapter_of(rec)
        thread_id, lent_text = placed.thread_id, placed.lent_text
        lex = self.lexicon(rec)
        found = link(lex, f"{rec.title or ''}\n{rec.text}", rec.persons, rec.places)
        authored = self.authors.with_author(rec.project_id, rec.author, found)
        called = called_by_entity(lex, rec.text, rec.author, rec.persons)
        names = linked_names(rec.author, lex, found)
        tokens = words(" ".join((rec.title or "", rec.text, " · ".join(n for n in names if n), lent_text or "")))
        witness = self._witness_view(rec, found, names, lent_text)
        metadata = json.dumps(rec.metadata(), ensure_ascii=False, sort_keys=True, default=str)
        content_hash = sha256(
            self.embedder.model_id,
            EVENT_FORM,
            rec.text,
            rec.title or "",
            rec.author or "",
            rec.occurred_on or "",
            rec.occurred_at or "",
            rec.intimacy,
            rec.kind,
            rec.period or "",
            json.dumps(rec.tags),
            hashed_mentions(authored),
            " ".join(names),
            metadata,
            placed.prev_id or "",
            lent_text or "",
            json.dumps(recognized.props(), ensure_ascii=False),
            *witness.hash_parts(),
            *([json.dumps(called, ensure_ascii=False, sort_keys=True)] if called else []),
        )
        props: dict[str, Any] = {
            "project_id": rec.project_id,
            "author_id": rec.author,
            "kind": rec.kind,
            "intimacy": rec.intimacy,
            "title": rec.title,
            "body": rec.text,
            "names": " · ".join(n for n in names if n),
            "tags": rec.tags,
            "occurred_start": occurred.start if occurred else None,
            "occurred_end": occurred.end if occurred else None,
            "occurred_precision": occurred.precision if occurred else None,
            "occurred_at": rec.occurred_at,
            "period_name": rec.period,
            "auto_period_name": chapter["name"] if chapter and chapter["automatic"] else None,
            "period_rule": AUTO_RULE,
            "content_hash": content_hash,
            "metadata": metadata,
            "thread_id": thread_id,
            "thread_pos": placed.pos if thread_id else None,
            "thread_rule": THREAD_RULE if thread_id else None,
            "occurred_on": rec.occurred_on,
            "listed_persons": rec.persons,
            "listed_places": rec.places,
            "prev_id": placed.prev_id,
            "context": lent_text,
            "ft_len": len(tokens),
            "ft_terms": term_string(tokens),
            **witness.props(),
            "witness_view": WITNESS_VIEW,
            **recognized.props(),
        }
        # The context is embedded with the text and every reader of the entry scores against it: only names all of
        # them may see (a witness of its chapter included).
        shown = [m for m in found if not witness.hides(m)]
        context = chunk_context(
            title=rec.title,
            author=rec.author,
            occurred=occurred,
            period=rec.period,
            persons=[m.name for m in shown if m.kind == "person"],
            places=[m.name for m in shown if m.kind == "place"],
        )
        if thread_id:
            context = "\n".join(p for p in (context, lent_text, f"{rec.author}:" if rec.author else "") if p)
        hemisphere = self.hemispheres.of(rec.project_id)
        chunks, told_in_entry = [], []
        for ordinal, text in enumerate(chunk_text(rec.text, rec.kind)):
            told = times_told(text, occurred, hemisphere)
            told_in_entry += told
            chunks.append(
                {
                    "id": chunk_id(rec.entry_id, ordinal),
                    "entry_id": rec.entry_id,
                    "ord": ordinal,
                    "text": text,
                    "context": context,
                    "model": self.embedder.model_id,
                    "embedding_hash": sha256(self.embedder.model_id, context, text),
                    "vector": None,
                    "error": None,
                    "sparse_tokens": None,
                    "sparse_weights": None,
                    **event_props(told),
                }
            )
        props.update(told_props(told_in_entry))
        dated = mention_times(lex, found, told_in_entry)
        return {
            "props": props,
            "chapter": chapter,
            "chunks": chunks,
            "mentions": mention_rows(rec.entry_id, authored, witness, dated, called),
        }

    def _witness_view(
        self, rec: EntryRecord, found: list[Mention], names: list[str], lent_text: str | None
    ) -> WitnessView:
        """How a witness of the entry's chapter may see its links and keyword text. A witness sees circle entries
        but only `public` declarations, so a circle entry linked through a name or alias declared for members keeps,
        for them, only the links, counts and names that public declarations alone would give (ingest/linking.py)."""
        if rec.intimacy != "circle" or not rec.period or not found:
            # Public entries link through public declarations only, witnesses see no other level, an entry outside
            # every chapter is no witness's, and what members' declarations link nothing in, public ones do not.
            return WitnessView()
        public = self.lexicon(rec, witness=True)
        seen = {m.key: m.count for m in link(public, f"{rec.title or ''}\n{rec.text}", rec.persons, rec.places)}
        hidden = frozenset(m.key for m in found if m.key not in seen)
        shown = [m for m in found if m.key not in hidden]
        counts = tuple(sorted((m.key, seen[m.key]) for m in shown if seen[m.key] != m.count))
        w_names = linked_names(rec.author, public, shown)
        if not hidden and not counts and w_names == names:
            return WitnessView()
        w_tokens = words(" ".join((rec.title or "", rec.text, " · ".join(n for n in w_names if n), lent_text or "")))
        return WitnessView(
            True, hidden, counts, " · ".join(n for n in w_names if n), term_string(w_tokens), len(w_tokens)
        )

    def _embed(self, chunks: list[dict[str, Any]], report: IngestReport) -> None:
        """Reuse stored vectors for identical content of the same project (and, for a writer, of entries they may
        see: a reuse is observable); embed the rest; on failure leave them pending."""
        if not chunks:
            return

        # An entry id starts with "<project_id>/" (ingest.records), and a chunk is written into its entry's project.
        def key(c: dict[str, Any]) -> tuple[str, str]:
            return c["entry_id"].partition("/")[0], c["embedding_hash"]

        wanted = {key(c) for c in chunks}
        params: dict[str, Any] = {"rows": [{"project_id": p, "hash": h} for p, h in sorted(wanted)], "prop": self.prop}
        if self.writer is None:
            rows = self.graph.read(REUSABLE_VECTORS, params)
        else:
            rows = self.graph.read(VISIBLE_REUSABLE_VECTORS, {**params, **visibility_params(self.writer)})
        reusable = {(r["project_id"], r["hash"]): r for r in rows}
        todo = []
        for c in chunks:
            stored = reusable.get(key(c))
            if stored is not None and (stored["sparse_tokens"] is not None or not self.embedder.supports_sparse):
                c["vector"] = list(stored["vector"])
                c["sparse_tokens"], c["sparse_weights"] = stored["sparse_tokens"], stored["sparse_weights"]
                report.chunks_reused += 1
            else:
                todo.append(c)
        if not todo:
            return
        if not self.embed:
            report.chunks_pending += len(todo)
            report.pending_ids.update(c["entry_id"] for c in todo)
            return
        try:
            vectors = self.embedder.embed_passages([embedding_input(c["context"], c["text"]) for c in todo])
        except EmbeddingError as exc:
            log.warning("embedding failed for %d chunks; saved as pending: %s", len(todo), exc)
            for c in todo:
                c["error"] = str(exc)[:500]
            report.chunks_pending += len(todo)
            report.pending_ids.update(c["entry_id"] for c in todo)
            return
        for c, vec in zip(todo, vectors, strict=True):
            c["vector"] = [float(x) for x in vec]
        report.chunks_embedded += len(todo)
        if self.embedder.supports_sparse:
            for c, arrays in zip(todo, sparse_arrays(self.embedder, todo), strict=True):
                c.update(arrays)


def sparse_arrays(embedder: CheckedEmbedder, chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lexical weights (bge-m3) as two parallel arrays per chunk, since Neo4j properties cannot hold maps; empty
    dicts when the model has none or they fail (they never block the dense vectors)."""
    if not embedder.supports_sparse:
        return [{} for _ in chunks]
    try:
        weights = embedder.embed_sparse([embedding_input(c["context"] or "", c["text"]) for c in chunks])
    except EmbeddingError as exc:
        log.warning("sparse weights unavailable for %d chunks: %s", len(chunks), exc)
        return [{} for _ in chunks]
    out = []
    for w in weights:
        top = sorted(w.items(), key=lambda kv: -kv[1])[:SPARSE_TERMS]
        out.append({"sparse_tokens": [t for t, _ in top], "sparse_weights": [float(v) for _, v in top]})
    return out


def edited_since_file(prior: Any, fingerprint: str) -> bool:
    """True when writing `fingerprint` from a file would revert what the API wrote since a file last wrote the entry.
    Entries from before fingerprints (no `record_hash`) count as file-written."""
    if prior is None or prior["record_hash"] is None or prior["record_hash"] == fingerprint:
        return False
    return bool(prior["record_hash"] != prior["file_hash"])


def stored_records(graph: Graph, ids: list[str]) -> list[dict[str, Any]]:
    """What was written for these entries, metadata unfolded, ready for `EntryRecord.model_validate`."""
    out = []
    for row in load_records(graph, ids):
        metadata = json.loads(row.pop("metadata") or "{}")
        out.append({**metadata, **row})
    return out


def embedding_input(context: str, text: str) -> str:
    return f"{context}\n{text}" if context else text
