"""What a user reads about their projects: which they belong to and in what role (`GET /v1/projects`, the web's
search page, the MCP resources), and a project's summary and chapters as their audience variant
(`GET /v1/projects/{p}/summary` and `/periods`, the MCP `summary` tool and resources).

The summary and the chapters are a member's: the door checks membership first (the routes' `ProjectMember`, the MCP
tool's `require_member`; the MCP resources list only the caller's own projects). Unpaid: the door pays its read (the
routes' budget dependency, `api.actions.read.paid_read`)."""

from __future__ import annotations

from typing import Any

from api.actions.refusals import NotFound
from api.models.core import MembershipOut
from api.models.summaries import PeriodOut, SummaryOut
from api.services import Services
from graph.members import projects_of
from graph.summaries import visible_periods
from graph.visibility import Viewer
from ingest.summary_jobs import serving_summaries


def memberships(svc: Services, viewer: Viewer) -> list[MembershipOut]:
    """The viewer's projects and their role in each."""
    return [MembershipOut.model_validate(p) for p in projects_of(svc.graph, viewer.user_id or "")]


def summary(svc: Services, viewer: Viewer, project_id: str) -> SummaryOut:
    """The project's level-2 summary, built only from entries the member may see."""
    out = _summary(serving_summaries(svc.graph, svc.settings, svc.embedder).for_viewer(viewer, project_id, None))
    if out is None:
        raise NotFound("no summary for this project")
    return out


def periods(svc: Services, viewer: Viewer, project_id: str) -> list[PeriodOut]:
    """The periods with at least one entry the member may see, in date order, each with their summary."""
    summaries = serving_summaries(svc.graph, svc.settings, svc.embedder)
    return [
        PeriodOut(**p, summary=_summary(summaries.for_viewer(viewer, project_id, p["id"])))
        for p in visible_periods(svc.graph, project_id, viewer)
    ]


def _summary(row: dict[str, Any] | None) -> SummaryOut | None:
    return SummaryOut.model_validate(row) if row else None
