"""Context for a writer: a chapter's (its context, or a draft of it) and an interviewer's live context. Each runs
searches, so each costs one from the caller's search budget, as `POST /v1/context/chapter`, `/v1/chapters/draft` and
`/v1/context/live` do. The web's chapter page and the MCP `chapter_context` and `live_context` tools and prompt run
here."""

from __future__ import annotations

from collections.abc import Callable

from api.actions.budgets import Budgets, Who, given
from api.models.live import LiveContextOut, LiveRequest
from api.models.summaries import ChapterContextOut, ChapterRequest, DraftOut
from api.ratelimit import Budget
from api.routes import live, summaries
from api.services import Services

BUDGET: Budget = "search"


def chapter(
    svc: Services, budgets: Budgets, who: Who, body: ChapterRequest | Callable[[], ChapterRequest]
) -> ChapterContextOut:
    """The project summary, the chapters matching the theme and their best entries, within the token budget."""
    budgets.spend(BUDGET, who.key)
    return summaries.chapter(given(body), who.viewer, svc)


def chapter_draft(
    svc: Services, budgets: Budgets, who: Who, body: ChapterRequest | Callable[[], ChapterRequest]
) -> DraftOut:
    """A first-person draft (or a dated outline) citing only the chapter context's entries."""
    budgets.spend(BUDGET, who.key)
    return summaries.chapter_draft(given(body), who.viewer, svc)


def live_context(
    svc: Services, budgets: Budgets, who: Who, body: LiveRequest | Callable[[], LiveRequest]
) -> LiveContextOut:
    budgets.spend(BUDGET, who.key)
    return live.context_live(given(body), who.viewer, svc)
