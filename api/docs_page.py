"""The API's interactive documentation (`/docs`: Swagger UI; `/redoc`: ReDoc) from files installed with the service
(the `fastapi-offline` package's copies, served under `/static-docs`), never a CDN: it works without the internet
and loads nothing from another site. Each page has its own Content-Security-Policy: this site's scripts, plus the
one inline script that starts Swagger UI, allowed by its hash; ReDoc also needs its inline styles and a worker. No
other page is loosened."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"
STATIC = "/static-docs"
_INLINE = re.compile(r"<script>(.*?)</script>", re.DOTALL)
_COMMON = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"


def _hashes(html: str) -> str:
    """The CSP sources of the page's inline scripts: their SHA-256, so nothing else inline runs."""
    return " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
        for body in _INLINE.findall(html)
    )


def add_docs(app: FastAPI) -> None:
    """/docs and /redoc on `app`, built with `docs_url=None, redoc_url=None`."""
    app.mount(STATIC, StaticFiles(directory=ASSETS), name="static-docs")
    title = app.title
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        page = get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{title} - Swagger UI",
            swagger_js_url=f"{STATIC}/swagger-ui-bundle.js",
            swagger_css_url=f"{STATIC}/swagger-ui.css",
            swagger_favicon_url=f"{STATIC}/favicon.png",
            oauth2_redirect_url=None,
        )
        html = bytes(page.body).decode()
        page.headers["Content-Security-Policy"] = f"{_COMMON}; script-src 'self' {_hashes(html)}; style-src 'self'"
        return page

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        page = get_redoc_html(
            openapi_url=openapi_url,
            title=f"{title} - ReDoc",
            redoc_js_url=f"{STATIC}/redoc.standalone.js",
            redoc_favicon_url=f"{STATIC}/favicon.png",
            with_google_fonts=False,
        )
        page.headers["Content-Security-Policy"] = (
            f"{_COMMON}; script-src 'self'; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:"
        )
        return page
