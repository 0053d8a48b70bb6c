"""`memora eval`: ingest a dataset into its own projects and score retrieval (recall, MRR, nDCG, latency)."""

from __future__ import annotations

import argparse
from pathlib import Path

from api.commands.common import Subparsers, connect, err, out, progress
from api.commands.search import CHANNEL_CHOICES, channel_list
from graph.settings import Settings


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from api.evaluation import add_entities, ingest_dataset, load_queries, namespace, run_eval
    from ingest.embedding_jobs import active_embedder
    from queries.search.request import DEFAULT_CHANNELS

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
    channels = tuple(args.channels) if args.channels else DEFAULT_CHANNELS
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


def add_eval(sub: Subparsers) -> None:
    ev = sub.add_parser("eval", help="evaluate retrieval on a dataset")
    ev.add_argument("--entries", required=True)
    ev.add_argument("--queries", required=True)
    ev.add_argument("--k", type=int, default=10)
    ev.add_argument(
        "--channels",
        type=channel_list,
        help=f"comma-separated subset of {','.join(CHANNEL_CHOICES)} (default: the search door's)",
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
