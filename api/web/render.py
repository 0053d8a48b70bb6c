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
from markupsafe import Markup, escape

from api.web.i18n import MONTHS, language, translator
from api.web.session import CSRF_FIELD, WebSession
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
        **(context or {}),
    }
    response = TEMPLATES.TemplateResponse(request, template, values, status_code=status)
    response.headers.update(HEADERS)
    return response


TEMPLATES.env.filters["snippet_html"] = snippet_html
