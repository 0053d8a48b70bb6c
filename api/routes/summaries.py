"""Summaries and the chapter generator's context: `GET /v1/projects/{p}/summary`, `GET /v1/projects/{p}/periods`,
`POST /v1/context/chapter` and `POST /v1/chapters/draft`, each answered with the caller's own audience variant."""

from __future__ import annotations

from fastapi import APIRouter

from api.actions import context as contexts
from api.actions import projects
from api.deps import ProjectMember, ReadBudget, SearchBudget, ServicesDep, ViewerDep
from api.models.summaries import ChapterContextOut, ChapterRequest, DraftOut, PeriodOut, SummaryOut
from api.ratelimit import READ_LIMITED, rate_limited
from api.responses import errors

router = APIRouter(tags=["summaries"])
_SEARCHES = {**errors(403), **rate_limited("the caller's search budget is spent")}


@router.get(
    "/v1/projects/{project_id}/summary",
    response_model=SummaryOut,
    dependencies=[ReadBudget],
    responses={**errors(403, 404), **READ_LIMITED},
)
def project_summary(project_id: str, who: ProjectMember, svc: ServicesDep) -> SummaryOut:
    """The project's level-2 summary built only from entries the caller may see."""
    return projects.summary(svc, who, project_id)


@router.get(
    "/v1/projects/{project_id}/periods",
    response_model=list[PeriodOut],
    dependencies=[ReadBudget],
    responses={**errors(403), **READ_LIMITED},
)
def project_periods(project_id: str, who: ProjectMember, svc: ServicesDep) -> list[PeriodOut]:
    """The periods with at least one entry the caller may see, in date order, each with the caller's summary."""
    return projects.periods(svc, who, project_id)


@router.post("/v1/context/chapter", response_model=ChapterContextOut, dependencies=[SearchBudget], responses=_SEARCHES)
def chapter(body: ChapterRequest, who: ViewerDep, svc: ServicesDep) -> ChapterContextOut:
    """Project summary, the periods matching the theme, and their best entries in date order with citations;
    `used_tokens <= budget_tokens`."""
    return contexts.chapter_for(svc, who, body)


@router.post("/v1/chapters/draft", response_model=DraftOut, dependencies=[SearchBudget], responses=_SEARCHES)
def chapter_draft(body: ChapterRequest, who: ViewerDep, svc: ServicesDep) -> DraftOut:
    """A first-person draft citing `[E<n>]` (with MEMORA_LLM_* configured) or a dated outline; it cites only
    entries of the context, all visible to the caller."""
    return contexts.draft_for(svc, who, body)
