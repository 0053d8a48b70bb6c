"""The projects a viewer belongs to (`/`), and a project's search page (`/p/{project_id}`): one box, answered by the
search action (`api.actions.search`) that `POST /v1/search` runs, as the signed-in viewer, from their search
budget."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from api.actions import album
from api.actions import search as searching
from api.actions.authors import shown_authors
from api.actions.budgets import Who
from api.actions.projects import memberships
from api.deps import BudgetsDep, ServicesDep, require_member
from api.models.search import SearchRequest
from api.responses import invalid_field
from api.web.i18n import language
from api.web.render import hemisphere_of, page
from api.web.session import SessionDep
from api.web.when import Hemisphere, when

router = APIRouter(include_in_schema=False)
RESULTS = 20
MAX_ASIDE = 20


@router.get("/", response_class=HTMLResponse)
def home(request: Request, session: SessionDep, svc: ServicesDep) -> Response:
    """The viewer's projects; with only one, its search page."""
    projects = memberships(svc, session.viewer)
    if len(projects) == 1:
        return RedirectResponse(f"/p/{quote(projects[0].project_id, safe='')}", status_code=303)
    return page(request, "home.html", {"projects": projects}, session)


@router.get("/p/{project_id}", response_class=HTMLResponse)
def project_search(
    request: Request,
    project_id: str,
    session: SessionDep,
    svc: ServicesDep,
    budgets: BudgetsDep,
    q: Annotated[str, Query(max_length=10_000)] = "",
    ignore: Annotated[list[str] | None, Query(description="understood constraints set aside")] = None,
) -> Response:
    """The search box and, for a question, the door's answer: results, the understood constraints as chips that
    set one aside (and bring it back), and an entity answer; without one, the project's home (`api.actions.album`)."""
    who = session.viewer
    require_member(svc, project_id, who)
    aside = list(dict.fromkeys(i for i in ignore or [] if i))
    if len(aside) > MAX_ASIDE or any(len(i) > 300 for i in aside):
        raise invalid_field("query", "ignore", f"at most {MAX_ASIDE} values of at most 300 characters each")
    answer = None
    if q.strip():
        body = SearchRequest(q=q, project_id=project_id, k=RESULTS, explain=True, ignore=aside)
        answer = searching.search(svc, budgets, Who.user(who), searching.asked_of(body))
    understanding = answer.query_understanding if answer else None
    hemisphere = hemisphere_of(request, project_id)
    understood = chips(project_id, q, aside, understanding, language(request), hemisphere)
    home = album.project_home(svc, budgets, Who.user(who), project_id, date.today()) if answer is None else None
    name = home.name if home else album.project_name(svc, who, project_id)
    context: dict[str, object] = {"project_id": project_id, "q": q, "answer": answer, "understood": understood}
    context["hemisphere"] = hemisphere
    if answer is not None:
        authors = [r.author_id for r in answer.results] + [
            r.replies_to.author_id for r in answer.results if r.replies_to
        ]
    else:
        authors = [e.author_id for e in (home.latest + home.on_this_day if home else []) if not e.by_witness]
    context["authors"] = shown_authors(svc, who, project_id, authors)
    context |= {"album": home, "project_name": name}
    return page(request, "search.html", context, session)


@dataclass(frozen=True)
class Chip:
    """One constraint the door read from the question; `href` is this search with it set aside, or brought back."""

    label: str
    off: bool
    href: str
    unmet: bool = False  # nothing the viewer may see met it, so the door set it aside (`relaxed`)


def chips(
    project_id: str,
    q: str,
    aside: list[str],
    understanding: dict[str, object] | None,
    lang: str = "en",
    hemisphere: Hemisphere = "north",
) -> list[Chip]:
    """The constraints the door read ("summer 2008", "Pep"), each a link that searches again without it (or, once
    set aside, with it). A date is said in words in the page's language, a season in the project's hemisphere; one
    that recurs ("en verano": every summer) as the question said it."""
    if not understanding:
        return []
    relaxed = understanding.get("relaxed")
    unmet = set(relaxed) if isinstance(relaxed, list) else set()
    found: list[tuple[str, str, bool]] = []
    temporal = understanding.get("temporal")
    if isinstance(temporal, dict) and temporal.get("start"):
        said = temporal.get("text")
        worded = when(temporal.get("start"), lang, hemisphere, temporal.get("end"))
        found.append(("date", str(said if temporal.get("recurring") and said else worded), "temporal" in unmet))
    author = understanding.get("author")
    if isinstance(author, dict):
        found.append(("author", f"✎ {author.get('name')}", "author" in unmet))
    for key in ("persons", "places"):
        named = understanding.get(key)
        if isinstance(named, list):
            found += [(str(x.get("id")), str(x.get("name")), "entities" in unmet) for x in named if isinstance(x, dict)]
    base = f"/p/{quote(project_id, safe='')}?"
    out: list[Chip] = []
    for key, label, not_met in found:
        off = key in aside
        kept = [i for i in aside if i != key] if off else [*aside, key]
        out.append(Chip(label, off, base + urlencode({"q": q, "ignore": kept}, doseq=True), not_met and not off))
    return out
