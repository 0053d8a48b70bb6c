"""How many of the names recognition proposes (ingest/recognition.py) are real names: precision and recall of its
person and place candidates against hand labels.

Usage: .venv/bin/python bench/recognition_quality.py [--data DIR] [--only diary-es,demo] [--misses]

The labels are in bench/recognition-labels/ (README.md there says how they were drawn and labelled). diary-es and
demo carry their texts; realtalk-dev carries ids and labels only, its texts are read from `--data DIR` (or
`MEMORA_BENCH_DATA`), a folder holding `realtalk-dev/entries.jsonl`, and that source is skipped without it. The real
`recognize` runs with an empty lexicon and no listed names, so every name it finds is a candidate. A person candidate
counts when it is one of the entry's gold persons (accents and case folded); a place candidate when it contains a gold
place or lies inside one ("playa de Bolonia" for "Bolonia"), as a place is named with or without its common noun.
Prints JSON: per source and overall, per kind, tp/fp/fn, precision, recall, F1; with --misses, the wrong and the
missed names too.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from graph.lexicon import ProjectLexicon
from graph.settings import REPO_ROOT, get_settings
from graph.textnorm import fold
from ingest.recognition import recognize

LABELS = REPO_ROOT / "bench" / "recognition-labels"
SOURCES = ("realtalk-dev", "diary-es", "demo")
KINDS = {"person": "persons", "place": "places"}


def load(source: str, data: Path | None) -> list[dict[str, Any]] | None:
    """The labelled entries of `source`, each with its text; None when its texts are elsewhere and no --data."""
    rows = [json.loads(line) for line in (LABELS / f"{source}.jsonl").open(encoding="utf-8") if line.strip()]
    if all("text" in r for r in rows):
        return rows
    if data is None:
        return None
    texts = {}
    for line in (data / source / "entries.jsonl").open(encoding="utf-8"):
        if line.strip():
            row = json.loads(line)
            texts[row["entry_id"]] = row["text"]
    return [{**r, "text": texts[r["entry_id"]]} for r in rows]


def _tokens(name: str) -> tuple[str, ...]:
    return tuple(fold(name).replace("'s", "").replace("’s", "").split())


def _inside(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return any(b[i : i + len(a)] == a for i in range(len(b) - len(a) + 1))


def matches(kind: str, found: str, gold: str) -> bool:
    """Whether the candidate `found` names the labelled `gold`."""
    f, g = _tokens(found), _tokens(gold)
    if kind == "person":
        return f == g
    return bool(f) and bool(g) and (_inside(f, g) or _inside(g, f))


def score(rows: list[dict[str, Any]], found: list[dict[str, list[str]]]) -> dict[str, Any]:
    """tp/fp/fn per kind over entries, with the wrong (fp) and missed (fn) names."""
    out: dict[str, Any] = {}
    for kind, field in KINDS.items():
        tp = fp = fn = 0
        wrong: list[str] = []
        missed: list[str] = []
        for row, names in zip(rows, found, strict=True):
            gold = list(dict.fromkeys(row[field]))
            got = names.get(kind, [])
            for name in got:
                if any(matches(kind, name, g) for g in gold):
                    tp += 1
                else:
                    fp += 1
                    wrong.append(name)
            for g in gold:
                if not any(matches(kind, name, g) for name in got):
                    fn += 1
                    missed.append(g)
        out[kind] = {"tp": tp, "fp": fp, "fn": fn, **_prf(tp, fp, fn), "wrong": wrong, "missed": missed}
    return out


def _prf(tp: int, fp: int, fn: int) -> dict[str, float | None]:
    p = tp / (tp + fp) if tp + fp else None
    r = tp / (tp + fn) if tp + fn else None
    f1 = 2 * p * r / (p + r) if p and r else None
    return {k: round(v, 3) if v is not None else None for k, v in (("precision", p), ("recall", r), ("f1", f1))}


def run(sources: list[str], data: Path | None, misses: bool = False) -> dict[str, Any]:
    """The report for `sources`: {source: {entries, person, place} | {skipped}, overall: {...}}."""
    get_settings().recognition = True
    report: dict[str, Any] = {}
    totals: dict[str, list[int]] = {kind: [0, 0, 0] for kind in KINDS}
    entries = 0
    for source in sources:
        rows = load(source, data)
        if rows is None:
            report[source] = {"skipped": "its texts need --data DIR (or MEMORA_BENCH_DATA)"}
            continue
        lexicon = ProjectLexicon("bench")
        recognized = recognize([(r["text"], lexicon, []) for r in rows])
        found = [{kind: [s.name for s in rec.spotted if s.kind == kind] for kind in KINDS} for rec in recognized]
        scored = score(rows, found)
        entries += len(rows)
        for kind in KINDS:
            for i, key in enumerate(("tp", "fp", "fn")):
                totals[kind][i] += scored[kind][key]
            if not misses:
                del scored[kind]["wrong"], scored[kind]["missed"]
        report[source] = {"entries": len(rows), **scored}
    report["overall"] = {
        "entries": entries,
        **{kind: {"tp": tp, "fp": fp, "fn": fn, **_prf(tp, fp, fn)} for kind, (tp, fp, fn) in totals.items()},
    }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--data",
        type=Path,
        default=os.environ.get("MEMORA_BENCH_DATA") or None,
        help="folder with realtalk-dev/entries.jsonl (default: $MEMORA_BENCH_DATA)",
    )
    parser.add_argument("--only", default=",".join(SOURCES), help="comma-separated sources (default: all)")
    parser.add_argument("--misses", action="store_true", help="list the wrong and the missed names")
    args = parser.parse_args()
    sources = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in sources if s not in SOURCES]
    if unknown:
        sys.exit(f"unknown source(s) {', '.join(unknown)}; known: {', '.join(SOURCES)}")
    json.dump(run(sources, args.data, args.misses), sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
