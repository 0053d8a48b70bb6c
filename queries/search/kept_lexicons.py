"""A member's lexicon of one project: the names of the entities they may know of, which a question's names resolve
to. Listing it names every entity from the declarations and mentions the viewer may see (~0.5 s at 100,000 entries),
too much to pay again on the next search after every write the viewer may see.

So it is kept per (viewer, project) under their generations (`graph/generations.py`), and after a write only the
entities that the steps of the viewer's own generations name (those the written entries mention, before or after the
write) are listed again, by the same statement restricted to them; the rest are kept. A step that does not say
(a declaration, an entity edit or merge, a membership change), one no longer kept, a role change or the backstop
(`MEMORA_ANALYTICS_CACHE_SECONDS`) lists everything. Witnesses and a turned-off cache list every time.
tests/search/test_kept_lexicons.py checks a lexicon kept in part against one listed in full, for every role.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from graph import analytics_cache, generations
from graph.db import Graph
from graph.entities import Entity, list_visible_entities, list_visible_entities_among
from graph.lexicon import ProjectLexicon
from graph.settings import get_settings
from graph.viewer_lru import ViewerLRU
from graph.visibility import Viewer

AMONG_MAX = 2000  # past this many entities named since, the lexicon is listed in full
counters = {"listed": 0, "listed_in_part": 0}


@dataclass(frozen=True)
class _Kept:
    generations: dict[str, object]
    listed_at: float
    entities: tuple[Entity, ...]  # in the statement's order (by id)
    lexicon: ProjectLexicon


def _lexicons(graph: Graph) -> ViewerLRU:
    """The lexicons kept on this database handle (graph/kept.py)."""
    return graph.kept.room("search.lexicons", ViewerLRU)


def _ordered(entities: list[Entity]) -> list[Entity]:
    """By id as Neo4j orders strings (UTF-16 code units), so a lexicon kept in part adds them as a full one does."""
    return sorted(entities, key=lambda e: e.id.encode("utf-16-be"))


def _lexicon_of(project_id: str, entities: list[Entity]) -> ProjectLexicon:
    lexicon = ProjectLexicon(project_id)
    for entity in entities:
        lexicon.add(entity)
    return lexicon


def lexicon(graph: Graph, project_id: str, viewer: Viewer) -> ProjectLexicon:
    """The names the viewer's visible entities of the project answer to (the caller does not change it)."""
    user_id = viewer.user_id
    if user_id is None or not analytics_cache.enabled(viewer):
        counters["listed"] += 1
        return _lexicon_of(project_id, list_visible_entities(graph, [project_id], viewer))
    settings = get_settings()
    store = _lexicons(graph)
    store.max_viewers = max(1, settings.analytics_cache_size)
    gens = generations.read(graph, [project_id], user_id)[0]
    found, kept = store.get(user_id, project_id, float("inf"))
    if found and time.monotonic() - kept.listed_at > settings.analytics_cache_seconds:
        found = False
    if found and kept.generations == gens:
        return kept.lexicon
    changed = (
        generations.changed_since(graph, user_id, kept.generations, gens, "entity_ids", AMONG_MAX) if found else None
    )
    if changed is not None:
        again = list_visible_entities_among(graph, [project_id], viewer, sorted(changed)) if changed else []
        entities = _ordered([e for e in kept.entities if e.id not in changed] + again)
        listed_at = kept.listed_at
        counters["listed_in_part"] += 1
    else:
        entities = list_visible_entities(graph, [project_id], viewer)
        listed_at = time.monotonic()
        counters["listed"] += 1
    made = _lexicon_of(project_id, entities)
    # Kept only if no write the viewer depends on landed while listing (the next one lists what changed since).
    if generations.read(graph, [project_id], user_id, fresh=True)[0] == gens:
        store.put(user_id, project_id, _Kept(gens, listed_at, tuple(entities), made), 4)
    return made


def kept_lexicon(graph: Graph, project_id: str, viewer: Viewer) -> ProjectLexicon | None:
    """The lexicon last kept for this viewer and project, as it is, without asking whether a write changed it: a
    guess a search may start from (queries/search/early_vector.py), never what it answers with."""
    if viewer.user_id is None:
        return None
    found, k = _lexicons(graph).get(viewer.user_id, project_id, float("inf"))
    return k.lexicon if found else None


def clear(graph: Graph) -> None:
    _lexicons(graph).clear()
