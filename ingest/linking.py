"""Entity linking: the persons and places an entry lists, plus any known name or alias found in its text, plus the
person its author is (graph/member_people.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from graph.db import Graph
from graph.lexicon import ProjectLexicon
from graph.member_people import LinkedPerson, person_of
from graph.textnorm import fold


@dataclass
class Mention:
    id: str
    kind: str
    name: str
    count: int
    author: bool = False
    """The entry's author is this person: an edge of its own (count 0) when the text does not name them."""

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


def with_author(found: list[Mention], person: LinkedPerson | None) -> list[Mention]:
    """`found` and the person the author is: their mention marked as the author's, or a mention of its own that counts
    no occurrence (counts stay those of the text)."""
    if person is None:
        return found
    named = next((m for m in found if m.id == person.id), None)
    if named is not None:
        return [replace(m, author=True) if m is named else m for m in found]
    return sorted([*found, Mention(person.id, "person", person.name, 0, author=True)], key=lambda m: m.id)


def hashed_mentions(found: list[Mention]) -> str:
    """The links as an entry's content hash reads them: an entry whose author is no one's person hashes as before."""
    return json.dumps([(m.id, m.count, "author", m.name) if m.author else (m.id, m.count) for m in found])


class AuthorPeople:
    """The person each author is in a project, read once per ingest run (as its lexicons are)."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self._known: dict[tuple[str, str], LinkedPerson | None] = {}

    def with_author(self, project_id: str, author: str | None, found: list[Mention]) -> list[Mention]:
        if not author:
            return found
        if (project_id, author) not in self._known:
            self._known[(project_id, author)] = person_of(self.graph, project_id, author)
        return with_author(found, self._known[(project_id, author)])


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
    what the message calls that person (`called`, by entity id; ingest/addressing.py). An author's own edge is hidden
    from witnesses, who see public declarations only (the link is not one)."""
    return [
        {
            "entry_id": entry_id,
            "id": m.id,
            "kind": m.kind,
            "name": m.name,
            "count": m.count,
            "witness_hidden": witness.hides(m) or (m.author and m.count == 0),
            "author": m.author or None,
            "witness_count": witness.count_of(m),
            "told_starts": None,
            "told_ends": None,
            **told.get(m.id, {}),
            "introduced": called.get(m.id, {}).get("introduced") or None,
            "addressed": called.get(m.id, {}).get("addressed") or None,
        }
        for m in found
    ]
