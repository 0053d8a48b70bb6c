"""The web app's pages on a synthetic project: time to first byte and weight of each page.

    .venv/bin/python bench/bench_web.py [--entries 10000] [--rounds 20] [--json OUT]

One synthetic project (`bench/synth.py`, seed 1, hash embedder as in `bench/bench_load.py`) is ingested and served
by `bench/scale_server.py` (the app of `memora serve`, warm start included, caches off). As its owner, each page is
fetched once outside the figures (its time reported as `first_call_ms`: the first chapter page of a project builds
the viewer's period summaries), then `--rounds` times, one at a time: the sign-in form, the projects, a search (a
different question each round), the timeline, a year of it, a month of it, an entry, the chapter context of a
question (2,000 tokens), the people and places, a person's page, and a witness link's page (one declared chapter).
Time to first byte: from sending the request to its headers; weight: the page's bytes plus those of the static files
it loads (its stylesheet, and htmx on the two pages that use it).
The project is deleted afterwards. Not part of `make test`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api import auth  # noqa: E402
from bench.hash_embedder import HashEmbedder  # noqa: E402
from bench.percentiles import nearest_rank  # noqa: E402
from bench.scale import drop_project, ingest, scale_server, set_up  # noqa: E402
from bench.synth import generate  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.ids import period_id  # noqa: E402
from graph.schema import ensure_vector_index  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.web_sessions import open_session  # noqa: E402
from graph.witnesses import create_grant  # noqa: E402
from inference.embedders import CheckedEmbedder  # noqa: E402


def pages(
    project: str, entry_id: str, year: int, month: int, questions: list[str], person: str
) -> dict[str, list[str]]:
    """Each page's path per round (a search asks a different question each round)."""
    return {
        "sign-in": ["/signin"],
        "projects": ["/"],
        "search": [f"/p/{project}?{httpx.QueryParams({'q': q})}" for q in questions],
        "timeline": [f"/p/{project}/timeline"],
        "timeline, a year": [f"/p/{project}/timeline?year={year}"],
        "timeline, a month": [f"/p/{project}/timeline?year={year}&month={month}"],
        "entry": [f"/e/{entry_id}"],
        "chapters": [f"/p/{project}/chapters?{httpx.QueryParams({'theme': q, 'budget': 2000})}" for q in questions],
        "people and places": [f"/p/{project}/people"],
        "a person": [f"/p/{project}/entity?{httpx.QueryParams({'name': person})}"],
    }


STATIC = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def measure(url: str, session: str, paths: dict[str, list[str]], rounds: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with httpx.Client(base_url=url, timeout=120, follow_redirects=False) as client:
        static: dict[str, int] = {}
        for name, choices in paths.items():
            cookies = {} if name in ("sign-in", "witness") else {"memora_session": session}
            client.cookies.clear()
            client.cookies.update(cookies)
            started = time.perf_counter()
            client.get(choices[0], timeout=1800)  # the page's first call, outside the figures (timed on its own)
            first_call = (time.perf_counter() - started) * 1000
            first_byte, sizes, statuses = [], [], set()
            for n in range(rounds):
                started = time.perf_counter()
                with client.stream("GET", choices[n % len(choices)]) as answer:
                    first_byte.append((time.perf_counter() - started) * 1000)
                    body = answer.read()
                statuses.add(answer.status_code)
                loads = set(STATIC.findall(body.decode("utf-8", "replace")))
                for path in loads - static.keys():
                    static[path] = len(client.get(path).content)
                sizes.append(len(body) + sum(static[path] for path in loads))
            out[name] = {
                "statuses": sorted(statuses),
                "first_call_ms": round(first_call, 1),
                "ttfb_p50_ms": nearest_rank(first_byte, 0.5),
                "ttfb_p95_ms": nearest_rank(first_byte, 0.95),
                "bytes_max": max(sizes),
                "bytes_median": int(statistics.median(sizes)),
            }
            print(f"{name}: {out[name]}", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    settings = get_settings()
    graph = get_graph(settings)
    prefix = f"bench-web-{uuid.uuid4().hex[:6]}-"
    project = f"{prefix}synth{args.entries}"
    synth = generate(args.entries, 1, project, user_prefix=prefix)
    users = [m["user_id"] for m in synth.members]
    owner = next(m["user_id"] for m in synth.members if m["role"] == "owner")
    embedder = CheckedEmbedder(HashEmbedder())
    ensure_vector_index(graph, embedder.slug, embedder.dimensions)
    try:
        set_up(graph, project, synth)
        seconds, _ = ingest(graph, embedder, synth.entries, project, embed=True)
        print(f"ingested {args.entries} entries in {seconds:.0f} s", file=sys.stderr, flush=True)
        dated = [e for e in synth.entries if str(e.get("occurred_on") or "")[:7].count("-") == 1]
        sample = dated[len(dated) // 2]
        year, month = int(sample["occurred_on"][:4]), int(sample["occurred_on"][5:7])
        entry_id = project + sample["entry_id"][sample["entry_id"].index("/") :]
        questions = [q["question"] for q in synth.queries if q["category"] in ("content", "filtered")]
        person = next(e["name"] for e in synth.entities if e["kind"] == "person")
        chapter = next(e["period"] for e in synth.entries if e.get("period"))
        grant = create_grant(graph, project, period_id(project, chapter), owner, timedelta(days=1), "bench")
        assert grant is not None
        paths = pages(project, entry_id, year, month, questions, person)
        paths["witness"] = [f"/w/{auth.issue_witness(settings, grant, 86400)}"]
        log = Path(os.environ.get("TMPDIR", "/tmp")) / "bench-web.log"
        with scale_server("hash", log) as (url, _):
            found = measure(url, open_session(graph, settings, owner), paths, args.rounds)
    finally:
        drop_project(graph, project, users)
    report = {"entries": args.entries, "rounds": args.rounds, "machine": platform.processor() or platform.machine()}
    report["pages"] = found
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
