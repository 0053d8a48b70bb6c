"""What understanding returns: the entities it matches against, the date range and entity matches it finds, the
`Understanding` itself and its JSON form (the `query_understanding` of a search response)."""

from __future__ import annotations

from dataclasses import dataclass

from inference.dates.ranges import TemporalRange


@dataclass(frozen=True)
class KnownEntity:
    """A project entity; kinship words ("papá", "my father") are aliases, so the parser holds no kinship table."""

    id: str
    kind: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class EntityMatch:
    """An entity found in the query; ambiguous when several entities share the matched words."""

    id: str
    name: str
    kind: str
    text: str
    ambiguous: bool = False


@dataclass
class Understanding:
    """Everything the search layers need from a query: filters, the text to embed and routing hints."""

    text: str
    cleaned_text: str
    temporal: TemporalRange | None
    persons: list[EntityMatch]
    places: list[EntityMatch]
    things: list[EntityMatch]
    tags: list[str]
    author: EntityMatch | None
    emotion: str
    intent: str
    language: str
    layer: str


def to_json(u: Understanding) -> dict[str, object]:
    """JSON-ready dict: ISO dates, entities and author as {"id", "name"} (+ "ambiguous": true only when so); a
    recurring date says "recurring": true (its start/end are then the most recent occurrence)."""

    def ent(m: EntityMatch) -> dict[str, object]:
        d: dict[str, object] = {"id": m.id, "name": m.name}
        if m.ambiguous:
            d["ambiguous"] = True
        return d

    t = u.temporal
    temporal: dict[str, object] | None = None
    if t is not None:
        temporal = {"start": t.start.isoformat(), "end": t.end.isoformat(), "precision": t.precision, "text": t.text}
        if t.recurring:
            temporal["recurring"] = True
    return {
        "text": u.text,
        "cleaned_text": u.cleaned_text,
        "temporal": temporal,
        "persons": [ent(m) for m in u.persons],
        "places": [ent(m) for m in u.places],
        "things": [ent(m) for m in u.things],
        "tags": list(u.tags),
        "author": None if u.author is None else ent(u.author),
        "emotion": u.emotion,
        "intent": u.intent,
        "language": u.language,
        "layer": u.layer,
    }
