"""Pages from the Jinja2 templates (autoescaped), in the viewer's language, with the headers every page carries: a
Content-Security-Policy that allows this site's own scripts and styles only, no framing, no caching of a page that
shows memories."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from api.deps import get_services
from api.web.i18n import MONTHS, language, remember_language, translator
from api.web.session import CSRF_FIELD, WebSession
from api.web.when import Hemisphere, when
from graph.members import project_hemisphere, role_of
from graph.visibility import INTIMACY_LEVELS

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=HERE / "templates")
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_MARKS = re.compile(r"\\\*|\\_|\*\*")
DONE = {"deleted": "entry_deleted"}
"""What a redirect's `?done=` may announce on the page it lands on, by the key of its words."""


def snippet_html(markdown: str) -> Markup:
    """A search snippet (`queries/search/snippets.py`: words in `**bold**`, `*` and `_` escaped) as HTML, each
    highlighted word in `<mark>`; everything else escaped."""
    out: list[str] = []
    bold, at = False, 0
    for found in _MARKS.finditer(markdown):
        out.append(str(escape(markdown[at : found.start()])))
        token = found.group(0)
        if token == "**":
            out.append("</mark>" if bold else "<mark>")
            bold = not bold
        else:
            out.append(token[1])
        at = found.end()
    out.append(str(escape(markdown[at:])))
    if bold:
        out.append("</mark>")
    return Markup("".join(out))


def page(
    request: Request,
    template: str,
    context: dict[str, Any] | None = None,
    session: WebSession | None = None,
    status: int = 200,
) -> HTMLResponse:
    lang = language(request)
    values = {
        "t": translator(lang),
        "lang": lang,
        "months": MONTHS[lang],
        "session": session,
        "csrf_field": CSRF_FIELD,
        "levels": INTIMACY_LEVELS,
        "done": DONE.get(request.query_params.get("done", "")),
        **(context or {}),
    }
    values["role"] = _role(request, session, values)
    values.setdefault("hemisphere", hemisphere_of(request, values.get("seasons_of") or values.get("project_id")))
    response = TEMPLATES.TemplateResponse(request, template, values, status_code=status)
    response.headers.update(HEADERS)
    remember_language(request, response)
    return response


def hemisphere_of(request: Request, project_id: object) -> Hemisphere:
    """What a season means in the page's project, read once and only when a date on the page is a season's span;
    without a project, the north (the default of every project)."""
    known: list[str] = []

    def hemisphere() -> str:
        if not known:
            graph = get_services(request).graph
            known.append(project_hemisphere(graph, [str(project_id)]) if project_id else "north")
        return known[0]

    return hemisphere


@pass_context
def when_filter(context: Context, value: object, end: object = None) -> object:
    """`{{ date | when }}`, `{{ start | when(end) }}`: a date in words in the page's language (`api/web/when.py`)."""
    return when(value, context.get("lang", "en"), context.get("hemisphere", "north"), end)


def _role(request: Request, session: WebSession | None, values: dict[str, Any]) -> str | None:
    """The viewer's role in the page's project, for the menus: one lookup, unless the page already knows it."""
    if "role" in values:
        known: str | None = values["role"]
        return known
    project_id = values.get("project_id")
    if session is None or not project_id:
        return None
    return role_of(get_services(request).graph, str(project_id), session.viewer.user_id or "")


TEMPLATES.env.filters["snippet_html"] = snippet_html
TEMPLATES.env.filters["when"] = when_filter
