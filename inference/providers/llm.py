"""An OpenAI-compatible chat endpoint (`/chat/completions`: OpenAI, OpenRouter, vLLM, llama.cpp, Ollama, ...).

Used where a language model improves an answer that has a non-LLM default: abstractive summaries (extractive
otherwise), chapter drafts (a dated outline otherwise) and the premium rerank (the fused order otherwise). So every
failure — unset, unreachable, timed out, refused, an unexpected body — is one `LLMError` with a reason, and the
caller falls back and records why; nothing here retries for long, because a person is waiting.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import httpx

from graph.settings import Settings

log = logging.getLogger(__name__)


class LLMError(RuntimeError):
    """The chat endpoint could not give an answer. The reason is shown to callers (warnings, `fallback_reason`), so
    it holds no key, no prompt text and no URL (a URL may carry credentials)."""


@dataclass(frozen=True)
class ChatMessage:
    role: str  # "system" | "user" | "assistant"
    content: str


class ChatClient:
    """One configured endpoint and model; `complete` returns the first choice's text."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, timeout_seconds: float = 20.0) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(headers=headers, timeout=httpx.Timeout(timeout_seconds))

    @property
    def name(self) -> str:
        """What a summary or a draft records as its producer."""
        return f"llm:{self.model}"

    def complete(
        self,
        messages: list[ChatMessage],
        max_tokens: int | None = None,
        temperature: float = 0.0,
        timeout_seconds: float | None = None,
    ) -> str:
        payload: dict[str, object] = {
            "model": self.model,
            "temperature": temperature,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
        }
        if max_tokens is not None:
            payload["max_tokens"] = max_tokens
        timeout = httpx.USE_CLIENT_DEFAULT if timeout_seconds is None else timeout_seconds
        try:
            resp = self._client.post(self.url, json=payload, timeout=timeout)
        except httpx.TimeoutException as exc:
            raise LLMError("the language model endpoint did not answer in time") from exc
        except httpx.HTTPError as exc:
            raise LLMError(f"the language model endpoint is unreachable ({type(exc).__name__})") from exc
        if resp.status_code >= 400:
            raise LLMError(f"the language model endpoint refused the request (HTTP {resp.status_code})")
        try:
            text = resp.json()["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMError("the language model endpoint returned an unexpected body") from exc
        if not isinstance(text, str) or not text.strip():
            raise LLMError("the language model endpoint returned an empty answer")
        return text

    def close(self) -> None:
        self._client.close()


def chat_client(settings: Settings) -> ChatClient | None:
    """The configured client, or None when no endpoint is configured (the callers' defaults apply)."""
    if not settings.llm_base_url or not settings.llm_model:
        return None
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    return ChatClient(settings.llm_base_url, settings.llm_model, key, settings.llm_timeout_seconds)
