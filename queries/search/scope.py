"""Where one search looks and who looks, as a typed value: the projects, the caller's hard filters (names resolved to
ids), the viewer, and the question's own constraints after any relaxation. Every stage and channel reads it; it turns
into Cypher parameters only where a statement is run (`params`), so no stage reads a parameter name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cached_property
from typing import Any

from graph.lexicon import ProjectLexicon
from graph.textnorm import fold
from graph.visibility import Viewer, levels_up_to, visibility_params
from queries.search.query_constraints import SoftConstraints
from queries.search.request import Filters


@dataclass(frozen=True)
class SearchScope:
    """`soft` is never the caller's: the question's dates, people and author, relaxed when they leave nothing (a
    relaxation is a new scope, `under`); everything else only narrows and is never relaxed."""

    viewer: Viewer
    project_ids: tuple[str, ...]
    date_from: date | None = None
    date_to: date | None = None
    intimacy_levels: tuple[str, ...] | None = None
    author_ids: tuple[str, ...] | None = None
    kinds: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    period_id: str | None = None
    person_ids: tuple[str, ...] | None = None
    place_ids: tuple[str, ...] | None = None
    soft: SoftConstraints = field(default_factory=SoftConstraints)

    @classmethod
    def of(cls, viewer: Viewer, projects: list[str], f: Filters, lexicons: Mapping[str, ProjectLexicon]) -> SearchScope:
        """The caller's filters with person and place names resolved in the viewer's lexicons; a name nobody visible
        answers to resolves to an id no entity has, so the filter matches nothing rather than being dropped."""
        levels = levels_up_to(f.intimacy_max)
        return cls(
            viewer,
            tuple(projects),
            f.date_from,
            f.date_to,
            tuple(levels) if levels is not None else None,
            _tuple(f.author_ids),
            _tuple(f.kinds),
            _tuple(f.tags),
            f.period_id,
            _resolve(lexicons, "person", f.persons, f.person_ids),
            _resolve(lexicons, "place", f.places, f.place_ids),
        )

    def under(self, soft: SoftConstraints) -> SearchScope:
        return replace(self, soft=soft)

    @property
    def one_project(self) -> str | None:
        return self.project_ids[0] if len(self.project_ids) == 1 else None

    def params(self) -> dict[str, Any]:
        """The parameters every channel statement reads: scope (`project_id` set when it is one project, what the
        statements over one project read), filters, the visibility predicate's and the soft constraints'
        (queries/search/channels.py `QUERY_SCOPE`). Built once per scope; each caller gets its own copy to extend."""
        return dict(self._params)

    @cached_property
    def _params(self) -> dict[str, Any]:
        return {
            "project_ids": list(self.project_ids),
            "project_id": self.one_project,
            "date_from": self.date_from,
            "date_to": self.date_to,
            "intimacy_levels": _list(self.intimacy_levels),
            "author_ids": _list(self.author_ids),
            "kinds": _list(self.kinds),
            "tags": _list(self.tags),
            "period_id": self.period_id,
            "person_ids": _list(self.person_ids),
            "place_ids": _list(self.place_ids),
            **visibility_params(self.viewer),
            **self.soft.params(),
        }


def _tuple(values: list[str] | None) -> tuple[str, ...] | None:
    return tuple(values) if values is not None else None


def _list(values: tuple[str, ...] | None) -> list[str] | None:
    return list(values) if values is not None else None


def _resolve(
    lexicons: Mapping[str, ProjectLexicon], kind: str, names: list[str] | None, ids: list[str] | None
) -> tuple[str, ...] | None:
    if names is None and ids is None:
        return None
    out = list(ids or [])
    for name in names or []:
        for lex in lexicons.values():
            found = lex.by_key.get((kind, fold(name)))
            out.append(found.id if found else f"\x00unknown:{name}")
    return tuple(out)
