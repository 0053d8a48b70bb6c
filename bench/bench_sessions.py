"""What a web page pays to know who is looking: the server-side session read (and its renewal once a minute) against
verifying a signed token in the process, side by side in one process on the running Neo4j.

    .venv/bin/python bench/bench_sessions.py [--rounds 1000]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api import auth  # noqa: E402
from bench.percentiles import nearest_rank  # noqa: E402
from graph.db import get_graph  # noqa: E402
from graph.settings import get_settings  # noqa: E402
from graph.web_sessions import RENEW_AFTER_SECONDS, end_sessions_of, open_session, session_user  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000)
    args = parser.parse_args(argv)
    settings = get_settings().model_copy(update={"web_session_max_seconds": 10**9})
    graph = get_graph(settings)
    user = f"bench-sessions-{uuid.uuid4().hex[:6]}"
    token = auth.issue(settings, user)
    start = time.time()
    sid = open_session(graph, settings, user, now=start)
    timings: dict[str, list[float]] = {"token": [], "session": [], "session, renewed": []}
    try:
        for n in range(args.rounds):
            began = time.perf_counter()
            auth.verify(settings, token)
            timings["token"].append((time.perf_counter() - began) * 1000)
            began = time.perf_counter()
            session_user(graph, settings, sid, now=start + 1)
            timings["session"].append((time.perf_counter() - began) * 1000)
            began = time.perf_counter()
            renewed = session_user(graph, settings, sid, now=start + (n + 1) * RENEW_AFTER_SECONDS)
            timings["session, renewed"].append((time.perf_counter() - began) * 1000)
            assert renewed == user, "the session ended mid-run"
    finally:
        end_sessions_of(graph, user)
    report = {
        name: {"p50_ms": round(nearest_rank(ms, 0.5), 3), "p95_ms": round(nearest_rank(ms, 0.95), 3)}
        for name, ms in timings.items()
    }
    print(json.dumps({"rounds": args.rounds, **report}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
