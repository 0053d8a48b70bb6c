"""`memora import`: a project exported by `graph/export.py` written back, optionally under another project id.

Order matters and is fixed here, not by the file: the project, its members, entity nodes, declarations and
rejected candidate names first (an entry is linked through the declarations that exist when it is written), then the
entries through the ordinary ingest pipeline (same validation, chunking, linking, threads; vectors re-embedded,
identical chunk content reusing a stored vector), then the witness grants (their chapters exist by then). Everything
is an idempotent MERGE keyed by ids derived from the project id, so a second run of the same import changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graph.db import Graph
from graph.export import FORMAT, MARKER, VERSION
from graph.generations import bump
from graph.ids import entity_id, period_id, sha256
from graph.member_people import link
from graph.members import ENSURE_PROJECT, set_member, update_project
from graph.textnorm import fold
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor, IngestReport
from ingest.records import PROJECT_ID_PATTERN, EntryRecord, LineError
from ingest.relink import relink_project

_LABEL = {"person": "Person", "place": "Place", "thing": "Thing"}
Level = Literal["private", "intimate", "circle", "public"]
EntityKind = Literal["person", "place", "thing"]

IMPORT_ENTITY = {
    kind: f"""
MERGE (n:{label} {{id: $id}})
ON CREATE SET n.project_id = $project_id, n.kind = '{kind}', n.name = $name, n.aliases = [], n.aliases_text = '',
              n.created_at = datetime()
"""
    for kind, label in _LABEL.items()
}
IMPORT_DECLARATION = {
    kind: IMPORT_ENTITY[kind]
    + f"""
MERGE (d:Declaration {{id: $declaration_id}})
SET d.project_id = $project_id, d.entity_id = $id, d.kind = '{kind}', d.name = $name, d.aliases = $aliases,
    d.intimacy = $audience, d.author_id = $author, d.created_at = datetime($created_at), d.updated_at = datetime()
MERGE (d)-[:DECLARES]->(n)
"""
    for kind in _LABEL
}
IMPORT_DISMISSAL = """
MERGE (d:Dismissal {id: $id})
SET d.project_id = $project_id, d.kind = $kind, d.key = $key, d.name = $name, d.intimacy = $audience,
    d.author_id = $author, d.created_at = datetime($created_at), d.entity_id = $entity
"""
IMPORT_GRANT = """
MATCH (p:Project {id: $project_id})
MERGE (per:Period {id: $period_id})
ON CREATE SET per.project_id = $project_id, per.level = 'chapter', per.created_at = datetime()
MERGE (per)-[:PART_OF]->(p)
MERGE (g:WitnessGrant {id: $id})
SET g.project_id = $project_id, g.period_id = $period_id, g.period_name = $period, g.created_by = $created_by,
    g.label = $label,
    g.created_at = datetime($created_at), g.expires_at = datetime($expires_at), g.revoked = $revoked
MERGE (g)-[:FOR]->(per)
"""


class ExportFileError(ValueError):
    """The file is not a memora export this version can read; the message says which line and why."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    memora_record: str


class ProjectRecord(_Record):
    format: Literal["memora-export"]
    version: int
    project_id: str = Field(pattern=PROJECT_ID_PATTERN)
    name: str | None = Field(default=None, max_length=500)
    hemisphere: Literal["north", "south"] = "north"


class MemberRecord(_Record):
    user_id: str = Field(min_length=1, max_length=200)
    role: Literal["owner", "coauthor", "reader"]
    person: str | None = Field(default=None, max_length=400)  # version 4: the person they are


class EntityRecord(_Record):
    kind: EntityKind
    name: str = Field(min_length=1, max_length=200)
    id: str | None = Field(default=None, max_length=400)  # version 2; a renamed entity keeps its first name's id


class DeclarationRecord(_Record):
    entity_id: str | None = Field(default=None, max_length=400)  # version 2
    kind: EntityKind
    name: str = Field(min_length=1, max_length=200)
    aliases: list[str] = Field(default_factory=list, max_length=200)
    audience: Level = "circle"
    author: str | None = Field(default=None, max_length=200)
    created_at: str


class DismissalRecord(_Record):
    """A rejected candidate name (graph/candidates.py), or a name messages gave a person rejected for them (kind
    `called`, naming the entity: graph/called.py), for the audience its author saw it at."""

    kind: EntityKind | Literal["called"]
    entity: str | None = Field(default=None, max_length=400)  # version 3, kind `called` only
    name: str = Field(min_length=1, max_length=200)
    audience: Level = "circle"
    author: str = Field(min_length=1, max_length=200)
    created_at: str


class GrantRecord(_Record):
    id: str = Field(min_length=1, max_length=100)
    period: str = Field(min_length=1, max_length=200)
    label: str | None = Field(default=None, max_length=500)
    created_by: str | None = Field(default=None, max_length=200)
    created_at: str
    expires_at: str
    revoked: bool = False


_MODELS: dict[str, type[_Record]] = {
    "member": MemberRecord,
    "entity": EntityRecord,
    "declaration": DeclarationRecord,
    "dismissal": DismissalRecord,
    "witness_grant": GrantRecord,
}


@dataclass
class ImportReport:
    project_id: str
    members: int = 0
    entities: int = 0
    declarations: int = 0
    dismissals: int = 0
    witness_grants: int = 0
    entries: IngestReport = field(default_factory=IngestReport)

    def as_dict(self) -> dict[str, Any]:
        return {
            "project_id": self.project_id,
            "members": self.members,
            "entities": self.entities,
            "declarations": self.declarations,
            "dismissals": self.dismissals,
            "witness_grants": self.witness_grants,
            **self.entries.as_dict(),
        }


@dataclass
class ExportFile:
    """The header and the non-entry records of an export (small), and how many entry lines follow."""

    path: Path
    header: ProjectRecord
    records: list[_Record]
    entries: int


def _reason(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'record'}: {e['msg']}" for e in exc.errors())


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with path.open(encoding="utf-8") as fh:
        for number, text in enumerate(fh, start=1):
            if text.strip():
                yield number, text


def read_export(path: Path) -> ExportFile:
    """Check the header and every non-entry record before anything is written (entries are checked as they are
    ingested, each on its own, like `memora ingest`)."""
    header: ProjectRecord | None = None
    records: list[_Record] = []
    entries = 0
    end: int | None = None
    for number, text in _lines(path):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ExportFileError(f"line {number}: invalid JSON: {exc.msg}") from exc
        if not isinstance(data, dict):
            raise ExportFileError(f"line {number}: a line must be a JSON object")
        kind = data.get(MARKER)
        if header is None:
            if kind != "project":
                raise ExportFileError(
                    f"line {number}: not a memora export (its first line must be the "
                    f'{{"{MARKER}": "project", "format": "{FORMAT}", …}} header); to load entries '
                    "use `memora ingest`"
                )
            try:
                header = ProjectRecord.model_validate(data)
            except ValidationError as exc:
                raise ExportFileError(f"line {number}: bad header: {_reason(exc)}") from exc
            if header.version > VERSION:
                raise ExportFileError(
                    f"line {number}: export format version {header.version} is newer than this memora reads ({VERSION})"
                )
        elif end is not None:
            raise ExportFileError(f"line {number}: a line after the export's end record")
        elif kind == "end":
            count = data.get("entries")
            if not isinstance(count, int):
                raise ExportFileError(f"line {number}: the end record must give the number of entries")
            end = count
        elif kind is None:
            entries += 1
        elif kind in _MODELS:
            try:
                records.append(_MODELS[kind].model_validate(data))
            except ValidationError as exc:
                raise ExportFileError(f"line {number}: bad {kind} record: {_reason(exc)}") from exc
        else:
            raise ExportFileError(
                f"line {number}: unknown record type {kind!r} (known: project, {', '.join(_MODELS)}, end)"
            )
    if header is None:
        raise ExportFileError("the file is empty")
    for r in records:  # an id names a node of this project only (never another project's)
        if isinstance(r, MemberRecord) and r.person and not r.person.startswith(f"{header.project_id}/person/"):
            raise ExportFileError(f"person {r.person!r} is not a person of project {header.project_id}")
        if isinstance(r, EntityRecord | DeclarationRecord):
            carried = r.id if isinstance(r, EntityRecord) else r.entity_id
            if carried is not None and not carried.startswith(f"{header.project_id}/{r.kind}/"):
                raise ExportFileError(f"entity id {carried!r} is not a {r.kind} of project {header.project_id}")
    if end is None:
        raise ExportFileError(
            "no end record: the export was cut short (an interrupted download or copy); export it again"
        )
    if end != entries:
        raise ExportFileError(f"the end record counts {end} entries but the file holds {entries}")
    return ExportFile(path, header, records, entries)


class Restorer:
    """Writes an ExportFile into the graph as project `target` (the header's id unless renamed)."""

    def __init__(
        self, graph: Graph, embedder: CheckedEmbedder, export: ExportFile, target: str | None = None, embed: bool = True
    ) -> None:
        self.graph, self.embedder, self.export, self.embed = graph, embedder, export, embed
        self.source = export.header.project_id
        self.target = target or self.source
        # A copy under another id in the same graph cannot share grant ids (they are unique): it gets fresh ones
        # (old links do not open the copy). A witness's account keeps its author (`witness:<original grant>`): it
        # says who wrote it, grants nothing, and its vectors stay the same.
        self.grant_ids = {
            r.id: (r.id if self.target == self.source else sha256(self.target, r.id)[:16])
            for r in export.records
            if isinstance(r, GrantRecord)
        }

    def rehome(self, data: dict[str, Any]) -> dict[str, Any]:
        """An entry of the source project as an entry of the target one."""
        if data.get("project_id") == self.source:
            data["project_id"] = self.target
            entry = data.get("entry_id")
            if isinstance(entry, str) and entry.startswith(f"{self.source}/"):
                data["entry_id"] = f"{self.target}/{entry[len(self.source) + 1 :]}"
        return data

    def entity_id(self, kind: str, name: str, carried: str | None) -> str:
        """The entity's id in the target project: the exported one (rehomed), or, from a version 1 file, the id its
        name gives."""
        if carried is None:
            return entity_id(self.target, kind, name)
        return f"{self.target}/{carried[len(self.source) + 1 :]}"

    def _entries(self) -> Iterator[tuple[int, EntryRecord | LineError]]:
        for number, text in _lines(self.export.path):
            data = json.loads(text)
            if MARKER in data:
                continue
            if data.get("project_id") != self.source:
                yield (
                    number,
                    LineError(number, data.get("entry_id"), f"project_id is not the export's project ({self.source})"),
                )
                continue
            try:
                yield number, EntryRecord.model_validate(self.rehome(data))
            except ValidationError as exc:
                yield number, LineError(number, data.get("entry_id"), _reason(exc))

    def run(self, progress: Callable[[int], None] | None = None) -> ImportReport:
        p, head = self.target, self.export.header
        report = ImportReport(p)
        self.graph.write(ENSURE_PROJECT, {"project_id": p, "name": head.name})
        update_project(self.graph, p, head.name, head.hemisphere)
        for r in self.export.records:
            if isinstance(r, MemberRecord):
                set_member(self.graph, p, r.user_id, r.role)
                report.members += 1
            elif isinstance(r, EntityRecord):
                self.graph.write(
                    IMPORT_ENTITY[r.kind], {"id": self.entity_id(r.kind, r.name, r.id), "project_id": p, "name": r.name}
                )
                report.entities += 1
        for r in self.export.records:
            if isinstance(r, DeclarationRecord):
                eid = self.entity_id(r.kind, r.name, r.entity_id)
                self.graph.write(
                    IMPORT_DECLARATION[r.kind],
                    {
                        "id": eid,
                        "project_id": p,
                        "name": r.name,
                        "aliases": r.aliases,
                        "audience": r.audience,
                        "author": r.author,
                        "created_at": r.created_at,
                        "declaration_id": sha256(eid, r.audience, r.author or "")[:32],
                    },
                )
                report.declarations += 1
            elif isinstance(r, DismissalRecord):
                key = fold(r.name)
                entity = self.entity_id("person", r.name, r.entity) if r.entity else None
                self.graph.write(
                    IMPORT_DISMISSAL,
                    {
                        "id": sha256(p, key, r.audience, r.author, *([entity] if entity else []))[:32],
                        "entity": entity,
                        "project_id": p,
                        "kind": r.kind,
                        "key": key,
                        "name": r.name,
                        "audience": r.audience,
                        "author": r.author,
                        "created_at": r.created_at,
                    },
                )
                report.dismissals += 1
        # Members are their persons before their entries are written, which then name them (graph/member_people.py);
        # a person only entries make known to every member is theirs once those are written: re-linked then.
        unshared = False
        for r in self.export.records:
            if isinstance(r, MemberRecord) and r.person:
                linked = link(self.graph, p, r.user_id, self.entity_id("person", "", r.person), None, shared_only=False)
                unshared = unshared or (linked is not None and not linked.name)
        Ingestor(self.graph, self.embedder, embed=self.embed).ingest(
            self._entries(), report=report.entries, progress=progress
        )
        if unshared:
            relink_project(self.graph, self.embedder, p, embed=self.embed)
        for r in self.export.records:
            if isinstance(r, GrantRecord):
                self.graph.write(
                    IMPORT_GRANT,
                    {
                        "id": self.grant_ids[r.id],
                        "project_id": p,
                        "period_id": period_id(p, r.period),
                        "period": r.period,
                        "label": r.label,
                        "created_by": r.created_by,
                        "created_at": r.created_at,
                        "expires_at": r.expires_at,
                        "revoked": r.revoked,
                    },
                )
                report.witness_grants += 1
        bump(self.graph, [p])  # entities, declarations and grants written above (entries bump as they land)
        return report
