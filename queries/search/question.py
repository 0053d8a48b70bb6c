"""The question of one search as understanding read it, built once and read by every later stage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from graph.lexicon import ProjectLexicon
from queries.search.query_constraints import Parsed
from queries.search.scope import SearchScope


@dataclass(frozen=True)
class Question:
    """`parsed`: the words to search for, and the dates, people, places and author the question implies (soft
    constraints, relaxed when they leave nothing); `scope`: the projects, the caller's hard filters and the viewer,
    which no stage relaxes."""

    text: str
    projects: list[str]
    lexicons: Mapping[str, ProjectLexicon]
    parsed: Parsed
    scope: SearchScope
