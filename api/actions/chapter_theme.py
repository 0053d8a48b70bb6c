"""Whether a chapter's theme names anything the viewer may see, before a chapter is built on it (the web's chapters
page). The chapter context always finds something: it matches periods by the similarity of their summaries, with no
floor, and its entries by a search whose dense channel ranks every entry above the model's floor for a string of
nonsense as readily as for a real theme (with the default small model, "qxzvw blorfnik" and "the summers in Cádiz"
are equally near the same entries). So a theme counts as found only by what reads its words: a chapter it names (its
id, or a word of its name), or a visible entry found by the keyword or the names-and-dates channels. A theme naming
a recurring time ("los veranos en Cádiz", queries/context/seasons.py) is found only when a visible entry falls in
one of its occurrences (and names its place, when it names one). `chapter_page` pays one search for the check and
the chapter built on it, as the chapter context alone would."""

from __future__ import annotations

from api.actions import context as contexts
from api.actions.budgets import Budgets, Who
from api.actions.roles import must_be_member
from api.models.summaries import ChapterContextOut, ChapterRequest, DraftOut
from api.services import Services
from graph.ids import period_id
from graph.summaries import visible_periods
from graph.textnorm import words
from graph.visibility import Viewer
from queries.context import seasons
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions

READS_WORDS = ("fulltext", "structured")
MIN_NAME_WORD = 4


def found(svc: Services, viewer: Viewer, project_id: str, theme: str) -> bool:
    """A chapter the theme names, or an entry the viewer may see that its words or names find."""
    must_be_member(svc, project_id, viewer)
    periods = visible_periods(svc.graph, project_id, viewer)
    if any(theme.strip() == p["id"] or period_id(project_id, theme) == p["id"] for p in periods):
        return True
    season = seasons.season_of(svc.graph, svc.embedder, svc.settings, viewer, project_id, theme)
    if season is not None:
        return bool(season.occurrences)
    wanted = {w for w in words(theme) if len(w) >= MIN_NAME_WORD}
    if any(wanted & set(words(p["name"])) for p in periods):
        return True
    answer = hybrid_search(
        svc.graph,
        svc.embedder,
        svc.settings,
        viewer,
        theme,
        Scope(project_id=project_id),
        SearchOptions(k=1, channels=READS_WORDS, diversify=False),
    )
    return any(set(r.score_breakdown) & set(READS_WORDS) for r in answer.results)


def chapter_page(
    svc: Services, budgets: Budgets, who: Who, body: ChapterRequest, draft: bool, near: bool
) -> tuple[ChapterContextOut | None, DraftOut | None, bool]:
    """The chapter context (and its draft, if asked) and whether the theme found anything; a theme that names nothing
    builds no chapter unless `near` asks for the nearest by meaning anyway."""
    budgets.spend(contexts.BUDGET, who.key)
    if not near and not found(svc, who.viewer, body.project_id, body.theme):
        return None, None, False
    if draft:
        made = contexts.draft_for(svc, who.viewer, body)
        return made.context, made, matched(made.context)
    context = contexts.chapter_for(svc, who.viewer, body)
    return context, None, matched(context)


def matched(context: ChapterContextOut) -> bool:
    """Whether the context holds more than the project's summary: a period or an entry."""
    return bool(context.periods or context.entries)
