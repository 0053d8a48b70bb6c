"""A project's known names: its entities indexed by folded name and alias, for linking an entry's text at ingest and
for resolving the names a question uses."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graph.entities import Entity
from graph.ids import entity_id
from graph.textnorm import fold


@dataclass
class ProjectLexicon:
    """Known entities of one project, indexed by folded name and alias."""

    project_id: str
    by_key: dict[tuple[str, str], Entity] = field(default_factory=dict)
    _pattern: re.Pattern[str] | None = None
    _key_kind: dict[str, list[Entity]] = field(default_factory=dict)

    def add(self, entity: Entity) -> None:
        for key in entity.answers_to():
            self.by_key[(entity.kind, key)] = entity
            bucket = self._key_kind.setdefault(key, [])
            if entity not in bucket:
                bucket.append(entity)
        self._pattern = None

    def entities(self) -> list[Entity]:
        """Each known entity once (by_key holds one row per name and alias)."""
        return list({e.id: e for e in self.by_key.values()}.values())

    def resolve(self, kind: str, name: str) -> Entity:
        """The known entity answering to `name`, or a new one (created on write). A listed name never joins the
        lexicon: one entry's list must not decide how another entry's text is linked."""
        found = self.by_key.get((kind, fold(name)))
        if found is None:
            found = Entity(entity_id(self.project_id, kind, name), self.project_id, kind, name, ())
        return found

    def find_in(self, text: str) -> dict[str, tuple[Entity, int]]:
        """Whole-word occurrences of known names and aliases in `text`, accent- and case-insensitive."""
        keys = [k for k in self._key_kind if len(k) >= 3]
        if not keys:
            return {}
        if self._pattern is None:
            alternatives = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
            self._pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
        found: dict[str, tuple[Entity, int]] = {}
        for match in self._pattern.finditer(fold(text)):
            for entity in self._key_kind.get(match.group(0), []):
                prev = found.get(entity.id)
                found[entity.id] = (entity, (prev[1] if prev else 0) + 1)
        return found
