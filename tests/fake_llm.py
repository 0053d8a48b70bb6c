"""A small local OpenAI-compatible chat server for tests: `/v1/chat/completions` answers with what the test's
`reply(messages)` returns, records every request, and can be made slow or failing. It stands in for the external
language model (which cannot be reached here); Neo4j is never faked."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from bench.serving import served_in_thread

Reply = Callable[[list[dict[str, str]]], str]


@dataclass
class FakeLLM:
    url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    reply: Reply = lambda messages: "ok"  # noqa: E731
    delay_seconds: float = 0.0
    status: int = 200

    def last_prompt(self) -> str:
        """Every message of the last request, joined: what the model was shown."""
        return "\n".join(m["content"] for m in self.requests[-1]["messages"])


@contextmanager
def fake_llm(reply: Reply | None = None) -> Iterator[FakeLLM]:
    """Serve a fake chat endpoint; `fake.url` is the base URL to put in MEMORA_LLM_BASE_URL."""
    app = FastAPI()
    state: dict[str, FakeLLM] = {}

    @app.post("/v1/chat/completions")
    async def complete(request: Request) -> JSONResponse:
        fake = state["fake"]
        body = await request.json()
        fake.requests.append({**body, "authorization": request.headers.get("authorization")})
        if fake.delay_seconds:
            time.sleep(fake.delay_seconds)
        if fake.status != 200:
            return JSONResponse({"error": {"message": "refused"}}, status_code=fake.status)
        text = fake.reply(body["messages"])
        return JSONResponse(
            {
                "id": "fake",
                "object": "chat.completion",
                "model": body.get("model"),
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            }
        )

    with served_in_thread(app) as base:
        fake = FakeLLM(url=f"{base}/v1")
        if reply is not None:
            fake.reply = reply
        state["fake"] = fake
        yield fake
