"""ASGI middleware shared by every route: the request body limit (MEMORA_MAX_BODY_BYTES)."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as AsgiScope


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
