"""The rerank tiers of a search (docs/search.md, "Rerank tiers"), run on the fused candidates before the page is cut.

- `fast`: a cross-encoder scores (question, entry text) for the top `MEMORA_RERANK_CANDIDATES` (50) candidates and
  orders them by that score. `MEMORA_RERANKER=flag` loads FlagEmbedding's `FlagReranker` (production:
  BAAI/bge-reranker-v2-m3), `cross-encoder` a sentence-transformers `CrossEncoder`; `MEMORA_RERANKER_MODEL` is a name
  or a local path. torch and those libraries are imported only when the tier is first used (the `ml` extra).
- `premium`: listwise, by the configured chat model (inference/providers/llm.py): the top
  `MEMORA_RERANK_PREMIUM_CANDIDATES` (20) candidates, numbered, with 200 characters each; the model answers the
  numbers in order. Numbers that name no candidate are ignored; candidates it leaves out keep their order after the
  ones it ranked. Past `MEMORA_RERANK_PREMIUM_TIMEOUT_SECONDS`, or on any failure, the previous order stands.

Each tier reads the candidates' texts with the visibility predicate in the statement, and the candidates themselves
come from channels that applied it: nothing the caller may not see reaches a model. Whenever a tier cannot run, the
fused order is kept and a warning says why.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from typing import Protocol

from graph.db import Graph
from graph.settings import Settings
from graph.visibility import CAN_SEE, Viewer, visibility_params
from inference.providers.llm import ChatMessage, LLMError, chat_client
from queries.search.fusion import Fused
from queries.search.request import TIERS
from queries.search.run import SearchRun

log = logging.getLogger(__name__)
RERANKERS = ("flag", "cross-encoder")
PASSAGE_CHARS = 4000  # far more than max_length tokens: the model's tokenizer truncates, this bounds the work before
PREMIUM_PASSAGE_CHARS = 200  # the seed's "top-20 docs resumidos (200 chars c/u)"
PREMIUM_PROMPT = (
    "You rank memory entries by how well they answer a person's question. You get the question and numbered "
    "entries. Answer ONLY with the entry numbers, most relevant first, separated by commas (for example: 3, 1, 2). "
    "Leave out entries that are not relevant."
)

CANDIDATE_TEXTS = f"""
UNWIND $ids AS id
MATCH (e:Entry {{id: id}}) WHERE {CAN_SEE}
RETURN e.id AS id, trim(coalesce(e.title, '') + ' ' + coalesce(e.body, '')) AS text
"""


class PairScorer(Protocol):
    """A cross-encoder: one relevance score per (query, passage) pair, higher is more relevant."""

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]: ...


class SentenceTransformersScorer:
    def __init__(self, model: str, max_length: int, batch_size: int) -> None:
        from sentence_transformers import CrossEncoder

        self._model = CrossEncoder(model, max_length=max_length, device="cpu")
        self.batch_size = batch_size

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """One forward pass per `batch_size` pairs (bounds memory whatever the candidate count)."""
        out: list[float] = []
        for start in range(0, len(pairs), self.batch_size):
            batch = [list(p) for p in pairs[start : start + self.batch_size]]
            scores = self._model.predict(
                batch, batch_size=self.batch_size, show_progress_bar=False, convert_to_numpy=True
            )
            out.extend(float(s) for s in scores)
        return out


class FlagScorer:
    def __init__(self, model: str, max_length: int, batch_size: int) -> None:
        from FlagEmbedding import FlagReranker

        self._model = FlagReranker(model, use_fp16=False, devices="cpu", batch_size=batch_size, max_length=max_length)
        self.batch_size, self.max_length = batch_size, max_length

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        scores = self._model.compute_score(list(pairs), batch_size=self.batch_size, max_length=self.max_length)
        return [float(s) for s in (scores if isinstance(scores, list) else [scores])]


_SCORERS: dict[tuple[str, str, int, int], PairScorer] = {}
_LOCK = threading.Lock()


class RerankerUnavailable(RuntimeError):
    """The configured cross-encoder could not be loaded (the reason is safe to show)."""


def scorer_for(settings: Settings) -> PairScorer | None:
    """The configured cross-encoder, loaded once per process; None when none is configured."""
    kind = (settings.reranker or "").strip().lower()
    if not kind or kind == "none":
        return None
    if kind not in RERANKERS:
        raise RerankerUnavailable(f"MEMORA_RERANKER={settings.reranker!r} is not one of {', '.join(RERANKERS)}")
    key = (kind, settings.reranker_model, settings.reranker_max_length, settings.reranker_batch_size)
    with _LOCK:
        found = _SCORERS.get(key)
        if found is None:
            cls = FlagScorer if kind == "flag" else SentenceTransformersScorer
            try:
                found = cls(settings.reranker_model, settings.reranker_max_length, settings.reranker_batch_size)
            except ImportError as exc:
                raise RerankerUnavailable(f"the {kind} reranker needs the `ml` extra ({exc.name} is missing)") from exc
            except Exception as exc:  # a missing path, no network for a name, a bad checkpoint: one reason
                log.warning("reranker %s could not be loaded: %s", settings.reranker_model, exc)
                raise RerankerUnavailable(
                    f"the {kind} reranker {settings.reranker_model!r} could not be loaded ({type(exc).__name__})"
                ) from exc
            _SCORERS[key] = found
        return found


def rerank(run: SearchRun, fused: list[Fused]) -> list[Fused]:
    """`fused` reordered by the search's tier (`run.options.rerank`; a new list, the candidates past the tier's pool
    follow unchanged). A reranker that cannot answer keeps the fused order and says so in `run.warnings`."""
    tier = run.options.rerank
    if tier not in TIERS:
        raise ValueError(f"unknown rerank tier {tier!r}; choose from {list(TIERS)}")
    if tier == "none" or not fused or not run.query.strip():
        return fused
    if tier == "fast":
        return _fast(run, fused)
    return _premium(run, fused)


def _texts(graph: Graph, viewer: Viewer, ids: list[str], chars: int) -> dict[str, str]:
    rows = graph.read(CANDIDATE_TEXTS, {"ids": ids, **visibility_params(viewer)})
    return {r["id"]: r["text"][:chars] for r in rows}


def _fast(run: SearchRun, fused: list[Fused]) -> list[Fused]:
    settings, warnings = run.settings, run.warnings
    try:
        scorer = scorer_for(settings)
    except RerankerUnavailable as exc:
        warnings.append(f"rerank 'fast': {exc}; the fused order is kept")
        return fused
    if scorer is None:
        warnings.append("rerank 'fast': no reranker is configured (MEMORA_RERANKER); the fused order is kept")
        return fused
    pool, rest = fused[: settings.rerank_candidates], fused[settings.rerank_candidates :]
    texts = _texts(run.graph, run.viewer, [f.id for f in pool], PASSAGE_CHARS)
    scored = [f for f in pool if f.id in texts]
    try:
        scores = scorer.score([(run.query, texts[f.id]) for f in scored])
    except Exception as exc:  # a model failing at inference must not fail the search
        log.warning("reranker failed: %s", exc)
        warnings.append(f"rerank 'fast': the reranker failed ({type(exc).__name__}); the fused order is kept")
        return fused
    order = sorted(range(len(scored)), key=lambda i: (-scores[i], i))
    out = []
    for rank, i in enumerate(order, start=1):
        f = scored[i]
        out.append(Fused(f.id, f.score, {**f.channels, "rerank": {"rank": rank, "score": round(scores[i], 6)}}))
    return out + [f for f in pool if f.id not in texts] + rest


def _premium(run: SearchRun, fused: list[Fused]) -> list[Fused]:
    settings, warnings, query = run.settings, run.warnings, run.query
    client = chat_client(settings)
    if client is None:
        warnings.append(
            "rerank 'premium': no language model is configured (MEMORA_LLM_BASE_URL, MEMORA_LLM_MODEL); "
            "the fused order is kept"
        )
        return fused
    pool, rest = fused[: settings.rerank_premium_candidates], fused[settings.rerank_premium_candidates :]
    texts = _texts(run.graph, run.viewer, [f.id for f in pool], PREMIUM_PASSAGE_CHARS)
    shown = [f for f in pool if f.id in texts]
    listing = "\n".join(f"[{n}] {' '.join(texts[f.id].split())}" for n, f in enumerate(shown, start=1))
    try:
        answer = client.complete(
            [ChatMessage("system", PREMIUM_PROMPT), ChatMessage("user", f"Question: {query}\n\nEntries:\n{listing}")],
            max_tokens=8 * len(shown) + 16,
            timeout_seconds=settings.rerank_premium_timeout_seconds,
        )
    except LLMError as exc:
        warnings.append(f"rerank 'premium': {exc}; the fused order is kept")
        return fused
    finally:
        client.close()
    picked = ranked_numbers(answer, len(shown))
    if not picked:
        warnings.append("rerank 'premium': the language model named no candidate; the fused order is kept")
        return fused
    out = [_with_rank(shown[n - 1], rank) for rank, n in enumerate(picked, start=1)]
    chosen = {shown[n - 1].id for n in picked}
    return out + [f for f in pool if f.id not in chosen] + rest


def ranked_numbers(answer: str, count: int) -> list[int]:
    """The candidate numbers in the model's answer, in its order, each once; numbers naming no candidate ignored."""
    out: list[int] = []
    for token in re.findall(r"\d+", answer):
        n = int(token)
        if 1 <= n <= count and n not in out:
            out.append(n)
    return out


def _with_rank(f: Fused, rank: int) -> Fused:
    channels: dict[str, dict[str, float]] = {**f.channels, "rerank": {"rank": rank}}
    return Fused(f.id, f.score, channels)
