"""`memora eval`: ingest a dataset into its own projects and score retrieval (recall, MRR, nDCG, latency), or, with
`memora eval summaries`, the period summaries against the life events each session tells."""

from __future__ import annotations

import argparse
from pathlib import Path

from api.commands.common import Subparsers, connect, err, out, progress
from api.commands.search import channel_list
from graph.settings import Settings


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    if args.what == "summaries":
        return _eval_summaries(args, settings)
    from api.evaluation import add_entities, ingest_dataset, load_queries, namespace, run_eval
    from ingest.embedding_jobs import active_embedder
    from queries.search.channel_set import asked

    if args.queries is None:
        err("--queries is required to evaluate retrieval (or say `memora eval summaries --events FILE`)")
        return 2
    entries, queries = Path(args.entries), Path(args.queries)
    for p in (entries, queries):
        if not p.is_file():
            err(f"no such file: {p}")
            return 2
    graph = connect(settings)
    embedder = active_embedder(graph, settings)
    prefix = namespace(entries)
    if args.entities:
        add_entities(graph, Path(args.entities), prefix, entries)
    total = sum(1 for line in entries.open(encoding="utf-8") if line.strip())
    with progress(total, "ingest") as bar:
        report = ingest_dataset(graph, embedder, entries, prefix, progress=bar.update)
    qs = load_queries(queries, prefix)
    channels = asked(args.channels)
    with progress(len(qs), "queries") as bar:
        result = run_eval(
            graph,
            embedder,
            settings,
            qs,
            channels,
            k=args.k,
            progress=bar.update,
            understanding=not args.no_understanding,
            diversify=not args.no_diversify,
            rerank=args.rerank,
            fusion=args.fusion,
        )
    result["ingest"] = {"written": report.written, "unchanged": report.unchanged, "errors": len(report.errors)}
    result["dataset"] = {"entries": str(entries), "queries": str(queries)}
    if args.json:
        out(result)
    else:
        keys = ("n_queries", "recall@5", "recall@10", "recall@30", "mrr@10", "ndcg@10", "latency_ms")
        for key in keys:
            print(f"{key:>10}: {result[key]}")
    return 0


def _eval_summaries(args: argparse.Namespace, settings: Settings) -> int:
    from api.summary_evaluation import run_summary_eval
    from ingest.embedding_jobs import active_embedder

    if args.events is None:
        err("--events is required to evaluate summaries (JSON lines of {project_id, session, events})")
        return 2
    if args.budget < 10:
        err("--budget must be at least 10 words")
        return 2
    entries, events = Path(args.entries), Path(args.events)
    for p in (entries, events):
        if not p.is_file():
            err(f"no such file: {p}")
            return 2
    graph = connect(settings)
    total = sum(1 for line in events.open(encoding="utf-8") if line.strip())
    with progress(total, "sessions") as bar:
        result = run_summary_eval(
            graph, active_embedder(graph, settings), entries, events, args.budget, progress=bar.update
        )
    if args.json:
        out(result)
        return 0
    for s in result["sessions"]:
        print(f"== {s['project_id']} session {s['session']}: {s['coverage']} (lead {s['lead_coverage']})")
        print(s["summary"])
    for project, scores in result["per_project"].items():
        print(
            f"{project:>12}: coverage {scores['coverage']} (lead {scores['lead_coverage']}), {scores['events']} events"
        )
    print(f"{'all':>12}: coverage {result['coverage']} (lead {result['lead_coverage']}) at {args.budget} words")
    for p in result["project_summaries"]:
        print(f"{p['project_id']:>12}: project summary covers {p['coverage']} of {p['events']} events")
    return 0


def add_eval(sub: Subparsers) -> None:
    ev = sub.add_parser("eval", help="evaluate retrieval (or summaries) on a dataset")
    ev.add_argument(
        "what",
        nargs="?",
        choices=("retrieval", "summaries"),
        default="retrieval",
        help="retrieval (default: --queries) or summaries (--events: each session's period summary against its events)",
    )
    ev.add_argument("--entries", required=True)
    ev.add_argument("--queries", help="retrieval: JSON lines of questions and their relevant entries")
    ev.add_argument("--events", help="summaries: JSON lines of {project_id, session, events: [{speaker, text}]}")
    ev.add_argument(
        "--budget", type=int, default=150, help="summaries: words per session's period summary (default 150)"
    )
    ev.add_argument("--k", type=int, default=10)
    ev.add_argument(
        "--channels",
        type=channel_list,
        help="comma-separated channels, e.g. dense,fulltext (default: the search's own)",
    )
    ev.add_argument("--entities", help="JSON list of {kind, name, aliases} to add to every dataset project")
    ev.add_argument("--no-understanding", action="store_true", help="embed the raw query; no extracted filters")
    ev.add_argument("--no-diversify", action="store_true", help="no diversification of near-duplicates on the ranking")
    ev.add_argument(
        "--rerank",
        choices=("none", "fast", "premium"),
        default="none",
        help="rerank tier applied after fusion (default none)",
    )
    ev.add_argument(
        "--fusion",
        choices=("learned", "rrf"),
        help="learned ranker or fixed-weight RRF (default: MEMORA_FUSION, learned)",
    )
    ev.add_argument("--json", action="store_true")
    ev.set_defaults(func=cmd_eval)
