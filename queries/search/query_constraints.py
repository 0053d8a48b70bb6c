"""What a query implies for the search: its soft constraints (dates, people, places, author) out of understanding,
the project's hemisphere, and warnings about filter values the viewer has no visible entity for.

A recurring date ("en verano", "in August", "por Navidad": no year, no "last/this") constrains to any year's
occurrence: the channels receive one occurrence per year (`q_occ`, indexed from `q_occ_base`) instead of one range.
Someone named after "without" ("Christmas without dad", "la Navidad sin papá") is missed in what is looked for, so
seldom named in it: they weigh as a person the question is about but constrain nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from graph.db import Graph
from graph.lexicon import ProjectLexicon
from graph.members import project_hemisphere
from graph.textnorm import fold
from queries.search.understanding import EntityMatch, KnownEntity, TemporalRange, to_json, understand

# Occurrences of a recurring date are listed for this many years before `now` (and the next one).
RECURRING_YEARS_BACK = 150
DAY_REACH = 1  # a question's day meets entries written up to this many days after it
DAY_FAR_REACH = 2  # and, weighing less with the ranker, up to this many


@dataclass(frozen=True)
class SoftConstraints:
    """Constraints the query itself implied: they narrow every channel, and are relaxed (temporal first, then
    entities) only when they leave nothing. The caller's explicit filters are never relaxed.

    A date is either one range (`date_from`..`date_to`) or, when recurring, one occurrence per year from
    `first_year` (`occurrences`, None for a year without one). `people_named` is evidence for the ranker, not a
    constraint: each person the query names, as (entity id, a folded name they answer to), so an entry written by
    someone the question is about can weigh more (in a conversation the one who tells it is usually the one named)."""

    date_from: date | None = None
    date_to: date | None = None
    entity_ids: tuple[str, ...] = ()
    author_keys: tuple[str, ...] = ()
    occurrences: tuple[tuple[date, date] | None, ...] = ()
    first_year: int = 0
    people_named: tuple[tuple[str, str], ...] = ()
    date_own_to: date | None = None  # the last day of the question's date before its reach (None: `date_to`)

    @property
    def dated(self) -> bool:
        return self.date_from is not None or bool(self.occurrences)

    @property
    def spans(self) -> list[tuple[date, date]]:
        """The question's date as the spans a date must meet: its range, or each year's occurrence of a recurring
        date (none when it names no date, or only one bound)."""
        if self.date_from is not None and self.date_to is not None:
            return [(self.date_from, self.date_to)]
        return [o for o in self.occurrences if o is not None]

    @property
    def told_to(self) -> date | None:
        """The last day a time an entry tells may end on: the reach past a day is the written clock's alone (what is
        written a day or two late), not the told one's (a day told is the day it says)."""
        return self.date_own_to or self.date_to

    @property
    def own_spans(self) -> list[tuple[date, date]]:
        """`spans` without the reach past a day (`date_constraints`): the days a date meets the question's own."""
        if self.date_own_to is not None and self.date_from is not None:
            return [(self.date_from, self.date_own_to)]
        return self.spans

    @property
    def empty(self) -> bool:
        return not self.dated and not self.entity_ids and not self.author_keys

    def next_relaxation(self) -> str:
        if self.dated:
            return "temporal"
        return "entities" if self.entity_ids else "author"

    def relaxed(self, what: str) -> SoftConstraints:
        if what == "temporal":
            return SoftConstraints(None, None, self.entity_ids, self.author_keys)
        if what == "entities":
            return SoftConstraints(None, None, (), self.author_keys)
        return SoftConstraints()

    def params(self) -> dict[str, Any]:
        occ = [list(o) if o else None for o in self.occurrences] if self.occurrences else None
        return {
            "q_from": self.date_from,
            "q_to": self.date_to,
            "q_told_to": self.told_to,
            "q_entity_ids": list(self.entity_ids),
            "q_author_keys": list(self.author_keys),
            "q_occ": occ,
            "q_occ_base": self.first_year,
        }


def date_constraints(t: TemporalRange | None, now: date) -> dict[str, Any]:
    """SoftConstraints' date fields for an understood date: its range, or every year's occurrence. A day reaches
    the next one: what is told of a day is often written that night after midnight or the next morning (a chat's
    late replies, a diary written the day after); and, weighing less (`date_own_to`), the one after that: a day
    recalled is often a day or two off, and a chat's night runs past midnight."""
    if t is None:
        return {}
    if not t.recurring:
        if t.precision != "day":
            return {"date_from": t.start, "date_to": t.end}
        own = t.end + timedelta(days=DAY_REACH)
        return {"date_from": t.start, "date_to": t.end + timedelta(days=DAY_FAR_REACH), "date_own_to": own}
    first = now.year - RECURRING_YEARS_BACK
    return {"occurrences": tuple(t.by_year(first, now.year + 1)), "first_year": first}


@dataclass
class Parsed:
    text_for_search: str
    layer: str
    constraints: SoftConstraints
    rank_entity_ids: list[str]
    explain: dict[str, Any]


def parse_query(
    graph: Graph,
    query: str,
    lexicons: dict[str, ProjectLexicon],
    projects: list[str],
    enabled: bool,
    now: date,
    locale: str | None,
) -> Parsed:
    """Dates, people, places and author out of the query (no language model); the rest is what gets embedded."""
    if not enabled or not query.strip():
        return Parsed(query, "balanced", SoftConstraints(), [], {"understanding": "off"})
    entities = {e.id: e for lex in lexicons.values() for e in lex.entities()}
    known = [KnownEntity(e.id, e.kind, e.name, e.aliases + e.called) for e in entities.values()]
    u = understand(query, sorted(known, key=lambda k: k.id), now, locale, lambda: project_hemisphere(graph, projects))
    missed = _missed(query, u.persons)
    people_places = [m.id for m in (*u.persons, *u.places) if m.id not in missed]
    author_keys: tuple[str, ...] = ()
    people_named = tuple(
        (m.id, key) for m in u.persons if m.id in entities and m.id not in missed for key in entities[m.id].answers_to()
    )
    if u.author is not None:
        entity = entities.get(u.author.id)
        author_keys = tuple(entity.answers_to()) if entity else (fold(u.author.name),)
    constraints = SoftConstraints(
        entity_ids=tuple(people_places),
        author_keys=author_keys,
        people_named=people_named,
        **date_constraints(u.temporal, now),
    )
    text = u.cleaned_text or query
    explain = to_json(u)
    if missed:
        explain["persons"] = [p for p in explain["persons"] if p["id"] not in missed]  # type: ignore[attr-defined]
        explain["missed"] = [{"id": m.id, "name": m.name} for m in u.persons if m.id in missed]
    ranked = people_places + sorted(missed) + [m.id for m in u.things]
    return Parsed(text, u.layer, constraints, ranked, explain)


_WITHOUT = r"(?:without|sin|sans)\s+(?:(?:my|our|the|mi|mis|nuestro|nuestra|el|la|los|las|mon|ma|mes|notre|le|les)\s+)?"


def _missed(query: str, persons: list[EntityMatch]) -> set[str]:
    """The people the question names right after "without" / "sin" / "sans"."""
    folded = fold(query)
    return {m.id for m in persons if m.text and re.search(rf"\b{_WITHOUT}{re.escape(fold(m.text))}\b", folded)}


def set_aside(parsed: Parsed, ignore: tuple[str, ...]) -> Parsed:
    """The understanding without the constraints the caller set aside: `date`, `author`, or the id of a person, place
    or thing the query named (a chip removed on the search page). A value the query did not imply changes nothing."""
    if not ignore:
        return parsed
    drop = set(ignore)
    c = parsed.constraints
    undated = "date" in drop
    constraints = SoftConstraints(
        date_from=None if undated else c.date_from,
        date_to=None if undated else c.date_to,
        entity_ids=tuple(i for i in c.entity_ids if i not in drop),
        author_keys=() if "author" in drop else c.author_keys,
        occurrences=() if undated else c.occurrences,
        first_year=0 if undated else c.first_year,
        people_named=tuple(s for s in c.people_named if s[0] not in drop),
        date_own_to=None if undated else c.date_own_to,
    )
    named = {str(e.get("id")) for k in ("persons", "places", "things") for e in parsed.explain.get(k) or []}
    implied = named | ({"date"} if c.dated else set()) | ({"author"} if c.author_keys else set())
    explain = {**parsed.explain, "set_aside": sorted(drop & implied)}
    ranked = [i for i in parsed.rank_entity_ids if i not in drop]
    return Parsed(parsed.text_for_search, parsed.layer, constraints, ranked, explain)


def unknown_names(
    lexicons: dict[str, ProjectLexicon], kind: str, names: list[str] | None, ids: list[str] | None
) -> list[str]:
    """Filter values (names or ids) no entity the viewer may know of answers to. The lexicons hold visible entities
    only, so a name known only from hidden entries gets the same answer as one that does not exist."""
    known_ids = {e.id for lex in lexicons.values() for e in lex.entities() if e.kind == kind}
    missing = [i for i in ids or [] if i not in known_ids]
    missing += [n for n in names or [] if not any((kind, fold(n)) in lex.by_key for lex in lexicons.values())]
    return missing


def relaxed_warnings(relaxed: list[str], explain: dict[str, Any]) -> list[str]:
    """A constraint the query implied that nothing visible met was set aside: say so in `warnings`, or a client
    takes the results for answers within it (the decision rests on the viewer's visible entries only)."""
    said: list[str] = []
    for what in relaxed:
        if what == "temporal":
            words = (explain.get("temporal") or {}).get("text")
            said.append(
                f"nothing you can see matched the query's date{f' ({words!r})' if words else ''}; "
                f"these results ignore it"
            )
        elif what == "entities":
            aside = set(explain.get("set_aside") or ())
            names = [
                e["name"] for k in ("persons", "places", "things") for e in explain.get(k) or [] if e["id"] not in aside
            ]
            said.append(
                f"nothing you can see matched the people, places or things the query names "
                f"({', '.join(names)}); these results ignore them"
            )
        else:
            said.append("nothing you can see by the author the query names matched; these results ignore the author")
    return said
