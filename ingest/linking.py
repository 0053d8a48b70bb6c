"""Entity linking: the persons and places an entry lists, plus any known name or alias found in its text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graph.lexicon import ProjectLexicon
from graph.textnorm import fold


@dataclass
class Mention:
    id: str
    kind: str
    name: str
    count: int

    @property
    def key(self) -> tuple[str, str, str]:
        """The link as a witness view compares it: the same entity under the same name."""
        return self.kind, self.id, self.name


def link(lexicon: ProjectLexicon, text: str, persons: list[str], places: list[str]) -> list[Mention]:
    """Listed names count once each at least; text occurrences of declared names and aliases add to the count."""
    mentions: dict[str, Mention] = {}
    for kind, names in (("person", persons), ("place", places)):
        for name in names:
            entity = lexicon.resolve(kind, name)
            mentions.setdefault(entity.id, Mention(entity.id, entity.kind, entity.name, 0)).count = 1
    for entity, count in lexicon.find_in(text).values():
        mention = mentions.setdefault(entity.id, Mention(entity.id, entity.kind, entity.name, 0))
        mention.count = max(mention.count, count)
    return sorted(mentions.values(), key=lambda m: m.id)


def linked_names(author: str | None, lexicon: ProjectLexicon, found: list[Mention]) -> list[str]:
    """What the keyword index reads of an entry's links (its `names`): the author, and each linked entity's
    declared name with its aliases, as `lexicon` declares them."""
    return [author or ""] + [
        " ".join((e.name, *e.aliases)) for m in found if (e := lexicon.by_key.get((m.kind, fold(m.name))))
    ]


@dataclass(frozen=True)
class WitnessView:
    """An entry as a witness may see its links, where that differs from what members see: the mentions made
    through a name declared for members only (`hidden`, as (kind, id, name)), the mentions a witness counts
    otherwise (an alias declared for members also occurs in the text), and the keyword fields built from public
    declarations only. `differs` is False when a witness sees what members see."""

    differs: bool = False
    hidden: frozenset[tuple[str, str, str]] = frozenset()
    counts: tuple[tuple[tuple[str, str, str], int], ...] = ()
    names: str = ""
    ft_terms: str = ""
    ft_len: int = 0

    def hides(self, mention: Mention) -> bool:
        return mention.key in self.hidden

    def count_of(self, mention: Mention) -> int | None:
        """The witness's count of a mention, where it differs from the members' (else None)."""
        return dict(self.counts).get(mention.key)

    def props(self) -> dict[str, str | int | None]:
        """The entry's `w_*` properties (null when nothing differs: readers then use the members' fields)."""
        if not self.differs:
            return {"w_names": None, "w_ft_terms": None, "w_ft_len": None}
        return {"w_names": self.names, "w_ft_terms": self.ft_terms, "w_ft_len": self.ft_len}

    def hash_parts(self) -> list[str]:
        """Parts of the entry's content hash: none when nothing differs, so such entries keep their hash."""
        if not self.differs:
            return []
        return [
            "witness",
            *sorted("|".join(h) for h in self.hidden),
            *(f"{'|'.join(k)}={n}" for k, n in self.counts),
            self.names,
        ]


def mention_rows(
    entry_id: str,
    found: list[Mention],
    witness: WitnessView,
    told: Mapping[str, Mapping[str, Any]],
    called: Mapping[str, Mapping[str, list[str]]],
) -> list[dict[str, Any]]:
    """The `MENTIONS` links an entry writes (graph/entries.py, LINK_MENTIONS): each entity with its count, how a
    witness sees it, the times told where it is named (`told`, by entity id; ingest/event_times.mention_times) and
    what the message calls that person (`called`, by entity id; ingest/addressing.py)."""
    return [
        {
            "entry_id": entry_id,
            "id": m.id,
            "kind": m.kind,
            "name": m.name,
            "count": m.count,
            "witness_hidden": witness.hides(m),
            "witness_count": witness.count_of(m),
            "told_starts": None,
            "told_ends": None,
            **told.get(m.id, {}),
            "introduced": called.get(m.id, {}).get("introduced") or None,
            "addressed": called.get(m.id, {}).get("addressed") or None,
        }
        for m in found
    ]
