"""The query's vector, started before the search has read anything.

A search first reads the viewer's generations (its role, the cache key, whether their lexicon is still current), then
understands the query with that lexicon, and only then knows the text to embed: a round trip and a parse on the
critical path before the one step that costs most. When this viewer has a lexicon kept from an earlier search, the
text is guessed with it at once and embedded beside those steps; the search uses that vector only if the text it
finally embeds is the very same (the vector is a function of the text alone), and embeds again otherwise; when the
lexicons the search reads are the very ones the guess used, it keeps the guess's understanding too. Nothing
the guess read can reach the results: it is never an answer, only a head start. A wasted guess (a result-cache hit,
a lexicon changed by a write) costs one embedding of CPU, no round trip; a question shaped like an entity question
(answered without a vector) is not guessed for.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from graph.db import Graph
from graph.lexicon import ProjectLexicon
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import kept_lexicons
from queries.search.query_constraints import Parsed, parse_query
from queries.search.query_vectors import embeddable, query_vector

if TYPE_CHECKING:
    from queries.search.request import SearchOptions

# The model embeds one query at a time (its lock): more workers would only queue there.
_EMBED = ThreadPoolExecutor(max_workers=2, thread_name_prefix="memora-early-embed")


@dataclass(frozen=True)
class EarlyVector:
    text: str
    vector: Future[list[float]]
    parsed: Parsed | None = None  # the guess's understanding, and the kept lexicons it came from
    lexicons: dict[str, ProjectLexicon] = field(default_factory=dict)

    def understanding(self, current: dict[str, ProjectLexicon]) -> Parsed | None:
        """The guess's understanding when the search's lexicons are the very ones it used (none changed since)."""
        if self.parsed is None or current.keys() != self.lexicons.keys():
            return None
        return self.parsed if all(current[p] is self.lexicons[p] for p in current) else None


def start(
    graph: Graph,
    embedder: CheckedEmbedder,
    viewer: Viewer,
    projects: list[str],
    query: str,
    options: SearchOptions,
    cache_size: int,
    entity_question: bool = False,
) -> EarlyVector | None:
    """The query embedded in the background, as this viewer's kept lexicons of `projects` understand it; None when
    the search has no dense channel, would skip it (a keyword query), the query has an entity question's shape (its
    answer needs no vector: an embedding beside it would only slow it), or a lexicon is not kept yet."""
    asked = options.channels or ()  # resolved by the door before this runs
    if "dense" not in asked or viewer.user_id is None or not projects or entity_question:
        return None
    text, parsed, found = query, None, {}
    if options.understand:
        kept = {p: kept_lexicons.kept_lexicon(graph, p, viewer) for p in projects}
        found = {p: lex for p, lex in kept.items() if lex is not None}
        if len(found) < len(kept):
            return None
        parsed = parse_query(graph, query, found, projects, True, options.now or date.today(), options.locale)
        if parsed.layer == "keyword" and len(asked) > 1:
            return None
        text = parsed.text_for_search
    if not text.strip():
        return None
    text = embeddable(text)
    return EarlyVector(
        text,
        _EMBED.submit(copy_context().run, query_vector, graph, embedder, text, cache_size, f"user:{viewer.user_id}"),
        parsed,
        found,
    )
