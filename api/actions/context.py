"""Context for a writer: a chapter's (its context, or a draft of it) and an interviewer's live context. Each runs
searches, so each costs one from the caller's search budget, as `POST /v1/context/chapter`, `/v1/chapters/draft` and
`/v1/context/live` do. The web's chapter page and the MCP `chapter_context` and `live_context` tools and prompt run
the paid ones; the routes, whose budget dependency has paid before the body was read, run the unpaid ones
(`chapter_for`, `draft_for`, `live_for`) that the paid ones run too."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict

from api.actions.budgets import Budgets, Who, given
from api.actions.refusals import NotAllowed
from api.actions.roles import NOT_MEMBER, must_be_member
from api.models.live import LiveContextOut, LiveRequest
from api.models.summaries import ChapterContextOut, ChapterRequest, DraftOut
from api.ratelimit import Budget
from api.services import Services
from graph.summaries import NotMember
from graph.visibility import Viewer
from inference.providers.llm import chat_client
from ingest.summary_jobs import serving_summaries
from queries.context.chapter import ChapterContext, chapter_context, draft
from queries.context.live import live_context as live_context_of
from queries.context.live import shared_cache
from queries.search.request import AccessDenied

BUDGET: Budget = "search"


def chapter(
    svc: Services, budgets: Budgets, who: Who, body: ChapterRequest | Callable[[], ChapterRequest]
) -> ChapterContextOut:
    """The project summary, the chapters matching the theme and their best entries, within the token budget."""
    budgets.spend(BUDGET, who.key)
    return chapter_for(svc, who.viewer, given(body))


def chapter_draft(
    svc: Services, budgets: Budgets, who: Who, body: ChapterRequest | Callable[[], ChapterRequest]
) -> DraftOut:
    """A first-person draft (or a dated outline) citing only the chapter context's entries."""
    budgets.spend(BUDGET, who.key)
    return draft_for(svc, who.viewer, given(body))


def live_context(
    svc: Services, budgets: Budgets, who: Who, body: LiveRequest | Callable[[], LiveRequest]
) -> LiveContextOut:
    budgets.spend(BUDGET, who.key)
    return live_for(svc, who.viewer, given(body))


def chapter_for(svc: Services, viewer: Viewer, body: ChapterRequest) -> ChapterContextOut:
    """`chapter`, its search already paid; `used_tokens <= budget_tokens`."""
    must_be_member(svc, body.project_id, viewer)
    return ChapterContextOut.model_validate(_context(svc, viewer, body).as_dict())


def draft_for(svc: Services, viewer: Viewer, body: ChapterRequest) -> DraftOut:
    """`chapter_draft`, its search already paid: the language model's draft (with MEMORA_LLM_* configured) or a
    dated outline, citing only entries of the context, all visible to the viewer."""
    must_be_member(svc, body.project_id, viewer)
    ctx = _context(svc, viewer, body)
    llm = chat_client(svc.settings)
    try:
        result = draft(ctx, body.theme, llm)
    finally:
        if llm is not None:
            llm.close()
    return DraftOut(
        text=result.text,
        producer=result.producer,
        citations=result.citations,
        fallback_reason=result.fallback_reason,
        context=ChapterContextOut.model_validate(ctx.as_dict()),
    )


def live_for(svc: Services, viewer: Viewer, body: LiveRequest) -> LiveContextOut:
    """`live_context`, its search already paid: the entries most related to the end of the transcript, and whom
    to ask about (docs/live.md)."""
    must_be_member(svc, body.project_id, viewer)
    cache = shared_cache(
        svc.graph,
        svc.settings.live_cache_size,
        svc.settings.live_cache_ttl_seconds,
        svc.settings.live_cache_check_seconds,
    )
    ctx = live_context_of(svc.graph, svc.embedder, viewer, body.project_id, body.transcript, cache)
    return LiveContextOut.model_validate(asdict(ctx))


def _context(svc: Services, viewer: Viewer, body: ChapterRequest) -> ChapterContext:
    """A membership lost after the check is refused as the check would have refused it."""
    try:
        return chapter_context(
            svc.graph,
            svc.embedder,
            svc.settings,
            serving_summaries(svc.graph, svc.settings, svc.embedder),
            viewer,
            body.project_id,
            body.theme,
            body.budget_tokens,
        )
    except (NotMember, AccessDenied) as exc:
        raise NotAllowed(NOT_MEMBER) from exc
