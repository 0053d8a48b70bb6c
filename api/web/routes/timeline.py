"""A project's timeline (`/p/{project_id}/timeline`): the viewer's visible entries counted by year (a bar to click
into), then by month within a year, the chapters as bands, and the entries of the chosen year or month, listed by
the action the API's `GET /v1/projects/{p}/entries` runs. The bands are the declared chapters, read by the
statement behind `GET /v1/projects/{p}/periods` (the automatic ones, months and sessions, are the histogram's).
All of it is the timeline read (`api.actions.read.timeline`): each view pays one from the viewer's read budget, as
the listing route does. Every entry counts once, in the month holding the middle of its date range (a season in its
middle month; a year or a longer span in its year only), and a year or month without a visible entry says so. Each
entry's author shows by name (`api.actions.authors`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from api.actions import read
from api.actions.authors import shown_authors
from api.actions.budgets import Who
from api.deps import BudgetsDep, ServicesDep
from api.web.i18n import language, translator
from api.web.render import page
from api.web.session import SessionDep

router = APIRouter(include_in_schema=False)
PAGE = 50
BAND_COLOURS = 6


def _bands(periods: list[dict[str, Any]], first: str, last: str) -> list[dict[str, Any]]:
    """The chapters whose span of visible entries overlaps the months `first`..`last` ("YYYY-MM")."""
    return [p for p in periods if p["start"] and p["start"][:7] <= last and (p["end"] or p["start"])[:7] >= first]


@router.get("/p/{project_id}/timeline", response_class=HTMLResponse)
def timeline(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    budgets: BudgetsDep,
    year: Annotated[int | None, Query(ge=1, le=9999)] = None,
    month: Annotated[int | None, Query(ge=1, le=12)] = None,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> Response:
    seen = read.timeline(
        svc, budgets, Who.user(session.viewer), read.TimelineAsked(project_id, year, month, cursor, limit=PAGE)
    )
    bars = seen.bars
    years: dict[int, int] = {}
    for bar in bars:
        if bar.year is not None:
            years[bar.year] = years.get(bar.year, 0) + bar.entries
    months = {bar.month: bar.entries for bar in bars if year is not None and bar.year == year and bar.month}
    undated = sum(bar.entries for bar in bars if bar.year is None)
    periods = [{**p, "colour": n % BAND_COLOURS} for n, p in enumerate(seen.declared)]
    empty = seen.listing is not None and not seen.listing.entries and cursor is None
    context = {
        "project_id": project_id,
        "years": years,
        "peak": max(years.values(), default=1),
        "year": year,
        "month": month,
        "months_count": months,
        "month_peak": max(months.values(), default=1),
        "undated": undated,
        "without_month": years.get(year, 0) - sum(months.values()) if year is not None else 0,
        "nothing_in": _when(request, year, month) if empty else None,
        "listing": seen.listing,
        "authors": shown_authors(
            svc, session.viewer, project_id, [e.author for e in seen.listing.entries] if seen.listing else []
        ),
        "periods": periods,
        "year_bands": {y: _bands(periods, f"{y:04d}-01", f"{y:04d}-12") for y in years},
        "month_bands": {m: _bands(periods, f"{year:04d}-{m:02d}", f"{year:04d}-{m:02d}") for m in range(1, 13)}
        if year is not None
        else {},
    }
    return page(request, "timeline.html", context, session)


def _when(request: Request, year: int | None, month: int | None) -> str:
    """The chosen year, or month of it, in words of the page's language ("marzo de 1970")."""
    t = translator(language(request))
    if month is None:
        return str(year)
    return t("month_year").format(month=t("month_names").split()[month - 1], year=year)
