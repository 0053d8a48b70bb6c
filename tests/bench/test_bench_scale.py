"""The scale benchmark cannot silently rot: the synthetic projects are deterministic and
varied, the benchmark-only hash embedder is deterministic and lexical, and `bench/scale.py` run end to end at a tiny
size (real Neo4j, the real HTTP service in a subprocess) writes every figure with a sane value."""

from __future__ import annotations

import collections
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.hash_embedder import HashEmbedder
from bench.synth import generate, write
from graph.db import Graph
from ingest.records import LineError, parse_line

pytestmark = [pytest.mark.slow, pytest.mark.neo4j]

ROOT = Path(__file__).resolve().parents[2]


def kept_synthetic(graph: Graph, project: str, prefix: str) -> str:
    """A 60-entry synthetic project embedded with the hash embedder, as `bench/scale.py --keep` leaves one."""
    from bench.scale import ingest, set_up
    from inference.embedders import CheckedEmbedder

    synth = generate(60, 1, project, user_prefix=prefix)
    set_up(graph, project, synth)
    _, report = ingest(graph, CheckedEmbedder(HashEmbedder()), synth.entries, project, embed=True)
    assert report.written == 60
    return project


def test_the_same_seed_writes_byte_identical_files_and_another_seed_does_not(tmp_path: Path) -> None:
    first = write(generate(400, seed=5, project_id="p"), tmp_path / "a")
    again = write(generate(400, seed=5, project_id="p"), tmp_path / "b")
    other = write(generate(400, seed=6, project_id="p"), tmp_path / "c")
    assert [f.name for f in first] == ["entries.jsonl", "queries.jsonl", "members.json", "entities.json"]
    assert [f.read_bytes() for f in first] == [f.read_bytes() for f in again]
    assert first[0].read_bytes() != other[0].read_bytes()
    assert b"\r" not in first[0].read_bytes()


def test_a_synthetic_project_is_valid_ingest_input_with_the_variety_the_benchmark_needs() -> None:
    project = generate(1500, seed=2, project_id="p", user_prefix="x-")
    entries = project.entries
    assert len(entries) == 1500 and len({e["entry_id"] for e in entries}) == 1500
    parsed = [parse_line(i, json.dumps(e)) for i, e in enumerate(entries, start=1)]
    assert not [p for p in parsed if isinstance(p, LineError)]
    assert {e["intimacy"] for e in entries} == {"private", "intimate", "circle", "public"}
    assert {e["kind"] for e in entries} == {"diary", "chronicle", "session"}
    assert {e["lang"] for e in entries} == {"es", "en"}
    authors = collections.Counter(e["author"] for e in entries)
    members = {m["user_id"]: m["role"] for m in project.members}
    assert len(authors) >= 3 and all(members[a] in ("owner", "coauthor") for a in authors)
    assert "reader" in members.values()
    dates = [e.get("occurred_on") for e in entries if e["kind"] != "session"]
    shapes = collections.Counter(
        "none" if d is None else "range" if "/" in d else {10: "day", 7: "month", 4: "year"}[len(d)] for d in dates
    )
    assert all(shapes[s] > 0 for s in ("day", "month", "year", "range", "none")), shapes
    years = {int(d[:4]) for d in dates if d}
    assert max(years) - min(years) >= 40, "decades"
    assert len({e.get("period") for e in entries} - {None}) >= 4
    sessions = collections.Counter(e["occurred_at"] for e in entries if e["kind"] == "session")
    assert sessions and max(sessions.values()) >= 3
    assert max(len(e["text"]) for e in entries if e["kind"] == "chronicle") > 3000, "some entries get chunked"
    aliases = {a for e in project.entities for a in e["aliases"]}
    assert {"papá", "mi padre", "dad", "la abuela", "Pep"} <= aliases
    assert any(a in e["text"] for e in entries for a in ("papá", "my father", "la abuela"))
    assert {q["category"] for q in project.queries} == {"content", "filtered", "entity"}


def test_the_hash_embedder_is_deterministic_normalised_and_lexical() -> None:
    embedder = HashEmbedder()
    texts = ["Fuimos a la playa con papá en Cádiz", "fuimos a la playa con la abuela", "The car broke down in Boston"]
    vectors = embedder.embed_passages(texts)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors, HashEmbedder().embed_passages(texts)), "same text, same vector, any instance"
    sims = vectors @ vectors.T
    assert sims[0, 1] > 0.5 > abs(sims[0, 2])
    assert np.allclose(embedder.embed_query("CADIZ"), embedder.embed_query("cádiz")), "accents and case folded"
    # the vector does not depend on Python's salted str hash: a fresh interpreter gives the same bytes
    code = "from bench.hash_embedder import HashEmbedder; print(HashEmbedder().embed_query('papá').tobytes().hex())"
    fresh = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert fresh.stdout.strip() == embedder.embed_query("papá").tobytes().hex()


def test_scale_runs_end_to_end_at_a_tiny_size_with_every_figure(tmp_path: Path, graph: Graph, prefix: str) -> None:
    out, png = tmp_path / "scale.json", tmp_path / "scale.png"
    run = subprocess.run(
        [
            sys.executable,
            "bench/scale.py",
            "--sizes",
            "80",
            "--seconds",
            "1",
            "--recall-queries",
            "5",
            "--json",
            str(out),
            "--plot",
            str(png),
            "--prefix",
            prefix,
            "--server-log",
            str(tmp_path / "server.log"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ},
    )  # ~1 min here (3 loaded)
    assert run.returncode == 0, run.stderr[-3000:]
    sizes = json.loads(out.read_text())["sizes"]
    assert len(sizes) == 1
    s = sizes[0]
    print(json.dumps(s, indent=1))  # shown when an assertion fails
    assert s["entries"] == 80 and s["embedder"] == HashEmbedder.model_id
    assert s["ingest_entries_per_s"] > 0 and s["ingest_write_only_entries_per_s"] > 0
    assert s["chunks_embedded"] >= 80 and s["chunks_pending"] == 0
    assert 0.9 * s["chunks_embedded"] <= s["index_population"]["chunks"] <= s["chunks_embedded"]
    assert s["index_population_s"] > 0
    one = s["search_1"]
    assert one["n"] >= 1 and one["errors"] == 0 and 0 < one["p50_ms"] <= one["p95_ms"] <= one["p99_ms"]
    eight = s["search_8"]
    assert eight["n"] >= 1 and eight["errors"] == 0 and eight["qps"] > 0 and eight["p95_ms"] > 0
    assert s["entity_question"]["n"] >= 1 and s["entity_question"]["p95_ms"] > 0
    assert s["entity_question"]["answered"] >= 1, "the cast's names are declared, so some questions are answered"
    assert s["numpy_exact"]["p50_ms"] > 0 and 0 < s["numpy_exact"]["chunks"] <= s["chunks_embedded"]
    # the served scope is below the exact-scan threshold: the served dense top-10 is the exact one
    assert s["dense_recall_queries"] >= 1 and s["dense_recall_vs_exact"] >= 0.99
    assert s["service_rss_mb"] > 50 and (s["neo4j_rss_mb"] is None or s["neo4j_rss_mb"] > 100)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    left = graph.read(
        "MATCH (n) WHERE n.project_id STARTS WITH $p OR (n:User AND n.id STARTS WITH $p) RETURN count(n) AS n",
        {"p": prefix},
    )
    assert left[0]["n"] == 0, "each size's project, its throwaway copy and its users are deleted"
    assert not re.search(r"Traceback", (tmp_path / "server.log").read_text())


def test_search_stages_reports_every_stage_on_a_kept_synthetic_project(
    tmp_path: Path, graph: Graph, prefix: str
) -> None:
    """bench/search_stages.py on a small synthetic project (as `bench/scale.py --keep` leaves one)."""
    project = kept_synthetic(graph, f"{prefix}synth60", prefix)
    out = tmp_path / "stages.json"
    run = subprocess.run(
        [sys.executable, "bench/search_stages.py", "--project", project, "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    stages = json.loads(out.read_text())["stages_p50_ms"]
    assert set(stages) == {"content", "filtered"}
    for category, measured in stages.items():
        assert {"parse", "dense", "fulltext", "total"} <= set(measured), category
        assert measured["total"] >= max(v for k, v in measured.items() if k != "total") > 0
    assert "structured" in stages["filtered"]  # the questions naming a year and a person constrain the search


def test_keyword_cut_compares_the_three_keyword_paths_on_a_kept_synthetic_project(
    tmp_path: Path, graph: Graph, prefix: str
) -> None:
    """bench/keyword_cut.py on a small project: below 1,000 hits the early stop ranks as the full sort, and the
    constrained questions taken from the kept view rank as the index does."""
    project = kept_synthetic(graph, f"{prefix}synthkw", prefix)
    out = tmp_path / "cut.json"
    run = subprocess.run(
        [sys.executable, "bench/keyword_cut.py", "--project", project, "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["view_listing_ms"] > 0
    for category in ("content", "filtered"):
        f = figures[category]
        assert f["questions"] > 0 and f["same_top10"] == f["questions"] and f["top50_overlap"] == 1.0, f
    assert figures["content"]["from_view"] == 0  # nothing constrains a content question
    filtered = figures["filtered"]
    assert filtered["from_view"] > 0 and filtered["from_view_same_top10"] == filtered["from_view"], filtered


def test_view_relist_times_the_listing_after_each_write_both_ways_and_leaves_the_project_as_it_was(
    tmp_path: Path, graph: Graph, prefix: str
) -> None:
    project = kept_synthetic(graph, f"{prefix}synthrl", prefix)
    count = "MATCH (e:Entry {project_id: $p}) RETURN count(e) AS n"
    before = graph.read(count, {"p": project})[0]["n"]
    out = tmp_path / "relist.json"
    run = subprocess.run(
        [sys.executable, "bench/view_relist.py", "--project", project, "--writes", "2", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert 0 < figures["visible_entries"] <= 62 and figures["cold_listing_ms"] > 0
    assert len(figures["relist_ms"]) == 2 and figures["listed_new"] == 4, figures  # each write was in the next view
    assert len(figures["relist_in_part_ms"]) == len(figures["first_search_after_write_ms"]) == 2
    assert len(figures["behind"]["first_search_ms"]) == 2
    assert figures["behind"]["served_again_p50_ms"] >= figures["behind"]["first_search_p50_ms"] > 0
    assert set(figures["listing_statement_p50_ms"]) == {"blocks", "record_per_chunk"}
    for phase in ("joined", "role_changed"):  # searched until their view served
        member = figures["changed_member"][phase]
        assert member["searches"] == len(member["ms"]) >= 1 and member["max_ms"] >= member["p50_ms"] > 0, phase
    assert graph.read(count, {"p": project})[0]["n"] == before, "the written entries were deleted"


def test_serve_ab_serves_a_kept_project_once_per_variant_and_round(tmp_path: Path, graph: Graph, prefix: str) -> None:
    """bench/serve_ab.py: each variant's environment reaches its own service (a service refusing its setting ends
    the run), every variant is measured in every round, and a malformed variant is refused before anything starts."""
    project = kept_synthetic(graph, f"{prefix}synth60", prefix)
    out = tmp_path / "ab.json"
    command = [
        sys.executable,
        "bench/serve_ab.py",
        "--project",
        project,
        "--rounds",
        "2",
        "--seconds",
        "1",
        "--json",
        str(out),
        "--server-log",
        str(tmp_path / "server.log"),
    ]
    bad = subprocess.run(
        [*command, "--env", "MEMORA_FUSION=rrf", "--env", "=1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ},
    )
    assert bad.returncode != 0 and "NAME=VALUE" in bad.stderr and not out.exists()
    refused = subprocess.run(
        [*command, "--env", "MEMORA_FUSION=bogus", "--env", "MEMORA_FUSION=learned"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ},
    )
    assert refused.returncode != 0 and not out.exists(), refused.stderr[-2000:]
    assert "fusion" in (tmp_path / "server.log").read_text()
    run = subprocess.run(
        [*command, "--env", "MEMORA_FUSION=rrf", "--env", "MEMORA_FUSION=learned"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=400,
        env={**os.environ},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    variants = json.loads(out.read_text())["variants"]
    assert [v["env"] for v in variants] == ["MEMORA_FUSION=rrf", "MEMORA_FUSION=learned"]
    for v in variants:
        assert v["rounds"] == 2 and v["errors"] == 0, v
        assert 0 < v["search_1"]["p50_ms"] <= v["search_1"]["p95_ms"] and v["search_8"]["qps"] > 0, v
        cpu = v["search_8"]["cpu_ms_per_search"]
        assert cpu["service"] > 0 and all(ms > 0 for ms in cpu.values()), cpu  # Neo4j's when this home manages it
    # rounds alternate the order: the second round starts with the variant the first ended with
    order = re.findall(r"round (\d) '([^']+)'", run.stderr)
    assert order == [
        ("1", "MEMORA_FUSION=rrf"),
        ("1", "MEMORA_FUSION=learned"),
        ("2", "MEMORA_FUSION=learned"),
        ("2", "MEMORA_FUSION=rrf"),
    ], run.stderr
