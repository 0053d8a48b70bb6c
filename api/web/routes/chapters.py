"""A project's chapter page (`/p/{project_id}/chapters?theme=…&words=…`): a theme and a length in words → the chapter
context (the project summary, the periods the theme matched with their events, the cited entries), or the draft, from
the context actions (`api.actions.context`) that `POST /v1/context/chapter` and `POST /v1/chapters/draft` run, from
the viewer's search budget; the same, as a Markdown file (`/p/{project_id}/chapters.md`); the project's declared
chapters, and for its owner a witness link to one of them. Every view of the page or its file also pays one from the
viewer's read budget (`api.actions.read`), as the API's periods route does.

A length is asked in words, which people count, and given to the actions in tokens, which they count:
`TOKENS_PER_WORD` (the default embedder's tokenizer counts about 1.4 tokens per word of Spanish, English or French
prose; the three-characters approximation used without one, about 1.8). An older link's `budget`, in tokens, still
works.

A witness link is made by a POST that answers 303 to the link's own page (post/redirect/get). The link's secret
never travels in a URL: the POST hands it to that page once, in a cookie scoped to the page's path, HttpOnly,
SameSite=Strict, alive a few minutes and bound to the session by an HMAC; the page shows it and drops the cookie. A
reload shows the chapter, the witness and the expiry, and says the link was shown once, as the API shows it once."""

from __future__ import annotations

import hmac
import math
import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Annotated
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from api import auth
from api.actions import chapter_theme, witnesses
from api.actions.authors import shown_authors
from api.actions.budgets import Budgets, Who
from api.actions.read import paid_read
from api.deps import BudgetsDep, ServicesDep, require_member
from api.models.core import WitnessIn
from api.models.summaries import MAX_BUDGET, MAX_THEME, ChapterContextOut, ChapterRequest, DraftOut
from api.responses import invalid_field
from api.services import Services
from api.web.chapter_file import chapter_markdown
from api.web.i18n import language, translator
from api.web.markdown import render
from api.web.render import HEADERS, page
from api.web.session import SessionDep, WebSession, check_csrf, form_token
from graph.members import role_of
from graph.summaries import visible_periods
from ingest.pipeline import WITNESS_AUTHOR_PREFIX

router = APIRouter(include_in_schema=False)
TOKENS_PER_WORD = 1.5
DEFAULT_WORDS = 1300
MAX_WORDS = int(MAX_BUDGET / TOKENS_PER_WORD)
INVITED = "memora_invited"
INVITED_SECONDS = 300


def tokens_for(words: int) -> int:
    return min(MAX_BUDGET, math.ceil(words * TOKENS_PER_WORD))


def words_for(tokens: int) -> int:
    return round(tokens / TOKENS_PER_WORD)


@dataclass(frozen=True)
class Asked:
    """A chapter as the page asks it: a theme, a length in words, a draft or the context, and whether to show the
    nearest by meaning when the theme names nothing."""

    theme: str
    words: int
    draft: bool
    near: bool

    def query(self) -> str:
        return urlencode(
            {"theme": self.theme, "words": self.words}
            | ({"draft": "true"} if self.draft else {})
            | ({"near": "true"} if self.near else {})
        )


def asked_of(
    theme: Annotated[str, Query(max_length=MAX_THEME)] = "",
    words: Annotated[int | None, Query(ge=1, le=MAX_WORDS, description="the chapter's length, in words")] = None,
    budget: Annotated[int | None, Query(ge=1, le=MAX_BUDGET, description="an older link's length, in tokens")] = None,
    draft: bool = False,
    near: bool = False,
) -> Asked:
    """The length in words: `words`, else an older link's `budget` in tokens, in words, else the default."""
    return Asked(theme, words or (words_for(budget) if budget else DEFAULT_WORDS), draft, near)


AskedDep = Annotated[Asked, Depends(asked_of)]


def _built(
    svc: Services, budgets: Budgets, who: Who, project_id: str, asked: Asked
) -> tuple[ChapterContextOut | None, DraftOut | None, bool]:
    """The context (and the draft, if asked) and whether the theme found anything; no theme, nothing to build."""
    if not asked.theme.strip():
        return None, None, True
    body = ChapterRequest(project_id=project_id, theme=asked.theme, budget_tokens=tokens_for(asked.words))
    return chapter_theme.chapter_page(svc, budgets, who, body, asked.draft, asked.near)


def _authors(
    svc: Services, session: WebSession, project_id: str, context: ChapterContextOut | None
) -> dict[str, str | None]:
    """Entry id -> the author shown: the person a member is (`api.actions.authors`), else their id, the name a
    witness's link was given, or "" for a witness's account under a link with no name (the page says "a witness")."""
    if context is None:
        return {}
    names = witnesses.witness_names(svc, session.viewer, [e.entry_id for e in context.entries])
    shown = shown_authors(svc, session.viewer, project_id, [e.author_id for e in context.entries])
    return {
        e.entry_id: names.get(e.entry_id)
        or ("" if (e.author_id or "").startswith(WITNESS_AUTHOR_PREFIX) else shown.get(e.author_id or "", e.author_id))
        for e in context.entries
    }


@router.get("/p/{project_id}/chapters", response_class=HTMLResponse)
def chapters(
    request: Request, project_id: str, session: SessionDep, svc: ServicesDep, budgets: BudgetsDep, asked: AskedDep
) -> Response:
    who = session.viewer
    caller = Who.user(who)
    paid_read(budgets, caller, lambda: require_member(svc, project_id, who))
    context, draft_out, found = _built(svc, budgets, caller, project_id, asked)
    here = f"/p/{quote(project_id, safe='')}/chapters"
    values = {
        "project_id": project_id,
        "asked": asked,
        "max_words": MAX_WORDS,
        "draft": draft_out,
        "draft_html": render(draft_out.text, 2, [e.citation for e in draft_out.context.entries]) if draft_out else None,
        "context": context if found else None,
        "found": found,
        "nearest": f"{here}?{replace(asked, near=True).query()}",
        "used_words": words_for(context.used_tokens) if context else 0,
        "authors": _authors(svc, session, project_id, context),
        "download": f"{here}.md?{asked.query()}",
        "declared": [p for p in visible_periods(svc.graph, project_id, who) if not p["automatic"]],
        "owner": role_of(svc.graph, project_id, who.user_id or "") == "owner",
    }
    return page(request, "chapters.html", values, session)


@router.get("/p/{project_id}/chapters.md")
def chapter_file(
    request: Request, project_id: str, session: SessionDep, svc: ServicesDep, budgets: BudgetsDep, asked: AskedDep
) -> Response:
    """The chapter as the page builds it (the same actions, the same length), as a Markdown file to keep."""
    who = session.viewer
    caller = Who.user(who)
    paid_read(budgets, caller, lambda: require_member(svc, project_id, who))
    if not asked.theme.strip():
        raise invalid_field("query", "theme", "a chapter needs a theme")
    context, draft_out, found = _built(svc, budgets, caller, project_id, asked)
    t = translator(language(request))
    authors = _authors(svc, session, project_id, context)
    text = chapter_markdown(t, asked.theme, context if found else None, draft_out, authors)
    headers = HEADERS | {"Content-Disposition": _attachment(asked.theme)}
    return Response(text, media_type="text/markdown; charset=utf-8", headers=headers)


def _attachment(theme: str) -> str:
    """`attachment` named after the theme: an ASCII name for every browser, the theme's own in `filename*`."""
    slug = re.sub(r"[^\w]+", "-", theme.lower()).strip("-")[:80] or "chapter"
    plain = re.sub(r"[^a-z0-9-]+", "", unicodedata.normalize("NFKD", slug).encode("ascii", "ignore").decode())
    return f"attachment; filename=\"{plain or 'chapter'}.md\"; filename*=UTF-8''{quote(slug, safe='')}.md"


class InviteForm(BaseModel):
    csrf: str = Field(default="", max_length=200)
    period_id: str = Field(max_length=300)
    ttl_days: int = Field(default=30, ge=1, le=365)
    name: str = Field(default="", max_length=200)


InviteDep = Annotated[InviteForm, Form()]


def _link_page(project_id: str, grant_id: str) -> str:
    return f"/p/{quote(project_id, safe='')}/witnesses/{quote(grant_id, safe='')}"


def _flash_mac(svc: Services, session: WebSession, grant_id: str, token: str) -> str:
    return form_token(svc.settings, "invited", f"{session.csrf}.{grant_id}.{token}")


@router.post("/p/{project_id}/witnesses", response_class=HTMLResponse)
def invite(request: Request, project_id: str, session: SessionDep, svc: ServicesDep, form: InviteDep) -> Response:
    """A witness link to one declared chapter, by the action `POST /v1/projects/{p}/witnesses` runs (owners only),
    the witness's name kept as the link's label; then 303 to the link's page, which shows it once."""
    check_csrf(request, session, form.csrf)
    asked = WitnessIn(period_id=form.period_id, ttl_days=form.ttl_days, label=form.name.strip() or None)
    made = witnesses.invite(svc, session.viewer, project_id, asked)
    where = _link_page(project_id, made.grant_id)
    response = RedirectResponse(where, status_code=303)
    response.set_cookie(
        INVITED,
        f"{_flash_mac(svc, session, made.grant_id, made.token)}.{made.token}",
        max_age=INVITED_SECONDS,
        path=where,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


def _flashed(request: Request, svc: Services, session: WebSession, grant_id: str) -> str | None:
    """The link's token the invite handed this session for this grant, if it did and it still names the grant."""
    mac, _, token = request.cookies.get(INVITED, "").partition(".")
    if not token or not hmac.compare_digest(mac, _flash_mac(svc, session, grant_id, token)):
        return None
    try:
        return token if auth.verify_witness(svc.settings, token) == grant_id else None
    except auth.TokenError:
        return None


@router.get("/p/{project_id}/witnesses/{grant_id}", response_class=HTMLResponse)
def invited(request: Request, project_id: str, grant_id: str, session: SessionDep, svc: ServicesDep) -> Response:
    """A witness link as its project's owner reads it back: the chapter, the witness, the expiry, and the link itself
    once, right after it was made."""
    grant = witnesses.made_link(svc, session.viewer, project_id, grant_id)
    token = _flashed(request, svc, session, grant_id)
    values = {
        "project_id": project_id,
        "grant": grant,
        "link": str(request.base_url).rstrip("/") + f"/w/{quote(token, safe='')}" if token else None,
    }
    response = page(request, "invited.html", values, session)
    if INVITED in request.cookies:
        response.delete_cookie(INVITED, path=_link_page(project_id, grant_id), httponly=True, samesite="strict")
    return response
