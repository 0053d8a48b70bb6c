"""Forgetting a person, place or thing: the entity goes, and its names go from the text of every entry the caller
may edit.

The names are the entity's name and aliases and the words the caller's visible entries were linked by, all as the
caller sees them. Every entry the caller may edit (the owner: every entry they see; a coauthor: their own) that names
it is rewritten through ingest with each occurrence replaced by a neutral mark (ingest/redaction.py) in its text,
title, tags and metadata, and without the names in its `persons`/`places`; ingest re-chunks it, its chunks are
embedded again and the summaries built from its old text are dropped (built again at the next read). Then the
entity is deleted in the sources the caller may see (graph/entity_edits.py), with their rejections of the name and
their merge records, and the project is re-linked.

Entries the caller may see but not edit keep their text: they are counted, never listed. Entries hidden from the
caller are neither changed nor counted, so what a caller is told does not depend on what they cannot see. The
redaction runs before the entity is deleted: a forget interrupted half-way can be run again and finishes the job.
Chapter names are not rewritten (rename the chapter).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from graph import relink_epochs
from graph.db import Graph
from graph.entities import Entity
from graph.entity_edits import delete_entity, visible_sources
from graph.forgetting import drop_fed_summaries, drop_name_records, naming_entries
from graph.textnorm import fold, term_string, words
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import BATCH, Ingestor, stored_records
from ingest.records import EntryRecord
from ingest.redaction import MARK, name_pattern, redact

# What identifies an entry or places it in time and in a chapter: never rewritten.
_KEPT = frozenset(
    {"entry_id", "project_id", "author", "intimacy", "kind", "occurred_on", "occurred_at", "period", "turn"}
)


@dataclass(frozen=True)
class Redaction:
    entry_id: str
    occurrences: int


@dataclass
class ForgetPlan:
    """What forgetting `entity` changes, as the caller may know it."""

    entity: Entity
    names: list[str]
    entries: list[Redaction] = field(default_factory=list)
    declarations: int = 0
    not_editable: int = 0
    records: list[EntryRecord] = field(default_factory=list, repr=False)


def _redact_value(value: Any, pattern: Any) -> tuple[Any, int]:
    if isinstance(value, str):
        return redact(value, pattern)
    if isinstance(value, list):
        pairs = [_redact_value(v, pattern) for v in value]
        return [v for v, _ in pairs], sum(n for _, n in pairs)
    if isinstance(value, dict):
        out, total = {}, 0
        for k, v in value.items():
            out[k], n = _redact_value(v, pattern)
            total += n
        return out, total
    return value, 0


def redact_record(stored: dict[str, Any], pattern: Any) -> tuple[dict[str, Any], int]:
    """The stored record with the names replaced; a listed person, place or tag that was only a name (nothing left
    but the mark) is dropped."""
    out: dict[str, Any] = {}
    total = 0
    for key, value in stored.items():
        if key in _KEPT or value is None:
            out[key] = value
            continue
        new, n = _redact_value(value, pattern)
        if key in ("persons", "places", "tags"):
            new = [v for v in new if v.replace(MARK, "").strip(" ,.;:-")]
        total += n
        out[key] = new
    return out, total


def plan_forget(graph: Graph, entity: Entity, viewer: Viewer, owner: bool) -> ForgetPlan:
    """Read what forgetting `entity` would change for this caller; nothing is written."""
    declarations, linked_by = visible_sources(graph, entity, viewer)
    names = list(dict.fromkeys([entity.name, *entity.aliases, *linked_by]))
    plan = ForgetPlan(entity=entity, names=names, declarations=declarations)
    pattern = name_pattern(names)
    terms = list(dict.fromkeys(term_string(words(n)) for n in names if words(n)))
    found = naming_entries(graph, entity.project_id, entity.id, terms, viewer, owner)
    may_edit = dict(found)
    ids = [entry_id for entry_id, _ in found]
    for start in range(0, len(ids), BATCH):
        for stored in stored_records(graph, ids[start : start + BATCH]):
            new, n = redact_record(stored, pattern)
            if new == stored:
                continue
            if not may_edit[stored["entry_id"]]:
                plan.not_editable += 1
                continue
            plan.entries.append(Redaction(stored["entry_id"], n))
            plan.records.append(EntryRecord.model_validate(new))
    return plan


def forget(
    graph: Graph,
    embedder: CheckedEmbedder,
    plan: ForgetPlan,
    viewer: Viewer,
    embed: bool = False,
    progress: Callable[[int], None] | None = None,
) -> ForgetPlan:
    """Carry `plan` out: rewrite the entries, drop the summaries built from their old text, then delete the entity
    and the records of its names in what the caller may see. The caller re-links the project afterwards."""
    entity = plan.entity
    if plan.records:
        # Each redaction bumps the project's names with its write: a re-linking job that read the texts before
        # writes nothing, so it never puts a forgotten name back (graph/relink_epochs.py).
        bump = partial(relink_epochs.bump, project_id=entity.project_id)
        report = Ingestor(graph, embedder, embed=embed, source="api", writer=viewer, before_write=bump).ingest(
            ((i, r) for i, r in enumerate(plan.records, 1)), progress=progress
        )
        if report.errors:
            raise ValueError(report.errors[0].reason)
        drop_fed_summaries(graph, [r.entry_id for r in plan.entries])
    delete_entity(graph, entity, viewer)
    drop_name_records(graph, entity.project_id, entity.kind, entity.id, [fold(n) for n in plan.names], viewer)
    return plan
