"""ASGI middleware shared by every route: the host names and origins the service answers (MEMORA_ALLOWED_HOSTS) and
the request body limit (MEMORA_MAX_BODY_BYTES)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as AsgiScope

from graph.settings import Settings

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FETCH_SITES_ADMITTED = frozenset({"same-origin", "none"})
MISDIRECTED = "this service does not answer to that host name (MEMORA_ALLOWED_HOSTS lists the names it serves)"
FOREIGN_ORIGIN = "a request that changes something must come from this service's own pages, not from another site"


def host_name(value: str) -> str:
    """The name of a `Host` header or an origin's authority, port and IPv6 brackets dropped, lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else ""
    return value.rsplit(":", 1)[0].rstrip(".") if value.count(":") <= 1 else value


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def served_names(settings: Settings, bound: str) -> tuple[str, ...]:
    """MEMORA_ALLOWED_HOSTS, and the name the service is bound to when it is one (not a wildcard address)."""
    name = host_name(bound)
    return settings.host_names + ((name,) if name and name not in ("0.0.0.0", "::") else ())


def host_allowed(name: str, allowed: tuple[str, ...]) -> bool:
    """Whether the service answers to `name`: an address always (a page of another site is never served through
    one), a listed name, or a subdomain of a `*.` entry; `*` admits every name."""
    if not name:
        return False
    if is_address(name):
        return True
    return any(a == "*" or a == name or (a.startswith("*.") and name.endswith(a[1:])) for a in allowed)


def _header(scope: AsgiScope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _requested_host(scope: AsgiScope) -> str:
    """The `Host` a request names; without one (HTTP/1.0, no browser sends that), the address it reached."""
    host = _header(scope, b"host")
    if host is not None:
        return host
    server = scope.get("server")
    return str(server[0]) if server else ""


def origin_refusal(scope: AsgiScope) -> str | None:
    """Why a state-changing request from a browser is refused, or None. A browser says where a request comes from
    (`Sec-Fetch-Site`, `Origin`); only this service's own origin may change anything, so neither another site nor
    another port of the same machine (`same-site`) can post a form or a fetch through the visitor's cookies.
    A client that sends neither header is not a browser acting for a page (curl, the SDKs) and is judged by its
    token alone."""
    if str(scope.get("method", "")).upper() not in STATE_CHANGING:
        return None
    site = _header(scope, b"sec-fetch-site")
    if site is not None and site.strip().lower() not in FETCH_SITES_ADMITTED:
        return FOREIGN_ORIGIN
    origin = _header(scope, b"origin")
    if origin is None:
        return None
    host = (_header(scope, b"host") or "").strip().lower()
    parts = urlsplit(origin.strip().lower())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.netloc != host:
        return FOREIGN_ORIGIN
    return None


class TrustedOrigins:
    """Refuse a request whose `Host` the service does not serve (421), and a state-changing request a browser sent
    for another origin (403), before anything else reads it. Against DNS rebinding: a page whose name now resolves
    to 127.0.0.1 reaches this port, but under its own name, which is not served. The MCP server checks hosts only:
    its clients are programs, some of them pages of their own origin (an inspector) that a token already admits."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...], check_origin: bool = True) -> None:
        self.app = app
        self.allowed = allowed
        self.check_origin = check_origin

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not host_allowed(host_name(_requested_host(scope)), self.allowed):
            await JSONResponse(status_code=421, content={"detail": MISDIRECTED})(scope, receive, send)
            return
        reason = origin_refusal(scope) if self.check_origin else None
        if reason is not None:
            await JSONResponse(status_code=403, content={"detail": reason})(scope, receive, send)
            return
        await self.app(scope, receive, send)


def too_large(limit: int) -> str:
    """The reason a body over MEMORA_MAX_BODY_BYTES is refused (shared with the MCP server's stdio door)."""
    return f"request body larger than the limit of {limit} bytes"


class BodyLimit:
    """Refuse bodies over the limit, declared (Content-Length) or streamed (chunked), with a 422 and a reason.

    A streamed body is read whole (up to the limit) before the application sees any of it, so a refused request
    never reaches a handler and writes nothing.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._reject(scope, receive, send)
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            if message["type"] != "http.request":
                continue
            body = message.get("body", b"")
            seen += len(body)
            if seen > self.limit:
                await self._reject(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _reject(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        response = JSONResponse(
            status_code=422,
            content={"detail": [{"loc": ["body"], "msg": too_large(self.limit), "type": "body_too_large"}]},
        )
        await response(scope, receive, send)
