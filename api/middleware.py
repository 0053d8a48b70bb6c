"""ASGI middleware shared by every route: the request body limit (MEMORA_MAX_BODY_BYTES)."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as AsgiScope


class BodyLimit:
    """Refuse bodies over the limit, declared (Content-Length) or streamed (chunked), with a 422 and a reason.

    A streamed body is cut at the limit and whatever the application answers to the truncated request is replaced.
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
        seen = 0
        too_large = False
        replaced = False

        async def counted() -> Message:
            nonlocal seen, too_large
            message = await receive()
            if message["type"] == "http.request" and not too_large:
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    too_large = True
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def guarded(message: Message) -> None:
            nonlocal replaced
            if not too_large:
                await send(message)
            elif message["type"] == "http.response.start" and not replaced:
                replaced = True
                await self._reject(scope, receive, send)

        await self.app(scope, counted, guarded)

    async def _reject(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        response = JSONResponse(status_code=422, content={"detail": [{
            "loc": ["body"], "msg": f"request body larger than the limit of {self.limit} bytes",
            "type": "body_too_large"}]})
        await response(scope, receive, send)
