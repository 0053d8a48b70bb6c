"""`bench/train_ranker.py`'s leave-one-corpus-out split: a corpus is judged only by models that never saw any of its
questions, so its figure says how the ranker does on data of a kind it was not fitted to. Synthetic caches, no
database: two corpora whose relevant entry sits at opposite ends of the two channels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import train_ranker as tr

QUERY = {"n_words": 5, "named": 0, "author": False, "dated": False, "asks_time": False}
CANDIDATES = 12


def _row(set_name: str, group: str, n: int, relevant_on: str) -> dict[str, Any]:
    """One question whose relevant entry is the top hit of `relevant_on` and the last hit of the other channel."""
    ids = [f"{set_name}/{group}/q{n}/e{i}" for i in range(CANDIDATES)]
    best_first = [[i, 1.0 - k / CANDIDATES] for k, i in enumerate(ids)]
    best_last = [[i, 1.0 - k / CANDIDATES] for k, i in enumerate(ids[1:] + ids[:1])]
    other = "fulltext" if relevant_on == "dense" else "dense"
    return {
        "set": set_name,
        "qid": f"{set_name}/{group}/q{n}",
        "group": f"project:{group}",
        "category": "multi-hop",
        "relevant": [ids[0]],
        "record": {"query": QUERY, "channels": {relevant_on: best_first, other: best_last}, "facts": {}},
        "live": {},
    }


def _cache() -> list[dict[str, Any]]:
    """LoCoMo-like questions answered by the dense channel, REALTALK-like ones by the keyword channel; XQuAD's two
    directions share their articles."""
    rows = [_row("locomo", f"conv-{g}", n, "dense") for g in range(3) for n in range(4)]
    rows += [_row("realtalk", f"rt-{g}", n, "fulltext") for g in range(3) for n in range(4)]
    return rows


def test_split_judges_a_corpus_on_its_own_rows_and_trains_on_none_of_its_groups() -> None:
    rows = _cache()
    for held in ("locomo", "realtalk"):
        train, judged = tr.corpus_split(rows, held)
        assert {rows[n]["set"] for n in judged} == {held}
        assert len(judged) == sum(1 for r in rows if r["set"] == held)
        held_groups = {rows[n]["group"] for n in judged}
        assert train and not held_groups & {rows[n]["group"] for n in train}
        assert not set(train) & set(judged)


def test_split_keeps_both_xquad_directions_out_together() -> None:
    rows = [_row(s, "article-1", n, "dense") for s in ("xquad-es", "xquad-en") for n in range(2)]
    rows += [_row("locomo", "conv-1", n, "dense") for n in range(2)]
    train, judged = tr.corpus_split(rows, "xquad")
    assert {rows[n]["set"] for n in judged} == {"xquad-es", "xquad-en"}
    assert {rows[n]["set"] for n in train} == {"locomo"}


def test_split_drops_a_row_of_another_corpus_in_a_group_the_held_corpus_has() -> None:
    rows = [_row("locomo", "shared", 0, "dense"), _row("realtalk", "shared", 1, "dense")]
    rows.append(_row("realtalk", "rt-9", 2, "dense"))
    train, _ = tr.corpus_split(rows, "locomo")
    assert [rows[n]["qid"] for n in train] == ["realtalk/rt-9/q2"]


def test_split_trains_only_on_the_pool() -> None:
    rows = _cache() + [_row("diary-es", "diary", n, "dense") for n in range(3)]
    train, _ = tr.corpus_split(rows, "locomo", frozenset({"diary-es", "locomo"}))
    assert {rows[n]["set"] for n in train} == {"diary-es"}


def test_a_corpus_left_out_is_ranked_by_what_the_others_taught() -> None:
    """Trained on its own questions the model finds LoCoMo's answer first; trained on REALTALK's alone it has learned
    the opposite channel and buries it. A split that let LoCoMo's questions in would rank it well."""
    rows = _cache()
    recipe = tr.Recipe(None, 1.0, False)
    left_out = tr.leave_one_corpus_out(rows, tr.channels_of(rows), recipe)
    own = [r for r in rows if r["set"] == "locomo"]
    fitted = tr.make(tr.channels_of(rows), tr.fit(own, tr.channels_of(rows), 1.0), False)
    in_sample = tr.evaluate(own, [fitted] * len(own))
    assert in_sample["locomo"]["mrr@10"] == pytest.approx(1.0)
    assert left_out["locomo"]["locomo"]["mrr@10"] < 0.2
    assert left_out["realtalk"]["realtalk"]["mrr@10"] < 0.2


def test_folds_keep_a_chat_together_and_spread_each_corpus() -> None:
    rows = _cache()
    folds = tr.folds_of(rows)
    by_group: dict[str, set[int]] = {}
    for r, f in zip(rows, folds, strict=True):
        by_group.setdefault(r["group"], set()).add(f)
    assert all(len(f) == 1 for f in by_group.values())
    for corpus in ("locomo", "realtalk"):
        assert {f for r, f in zip(rows, folds, strict=True) if r["set"] == corpus} == set(range(tr.FOLDS))


def test_cli_prints_the_table_and_a_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("locomo", "realtalk"):
        lines = [json.dumps(r) for r in _cache() if r["set"] == name]
        (tmp_path / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert tr.main(["--cache", str(tmp_path), "--l2", "1", "--leave-one-corpus-out"]) == 0
    out = capsys.readouterr().out
    assert "### Leave one corpus out" in out
    assert "| RRF |" in out and "trained without it" in out
    assert "verdict: " in out
