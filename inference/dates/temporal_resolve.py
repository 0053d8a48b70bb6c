"""Temporal expressions as finally read: "early/mid/late" applied, "A connector B" joined into one range, a lone year
anchoring year-less expressions, and the one `TemporalRange` they name (recurring when nothing gave it a year).

Split from `temporal.py`, which finds the candidates; the rules are in `queries.search.understanding`'s docstring.
"""

from __future__ import annotations

import re
from itertools import pairwise

from . import calendar_math as cal
from . import temporal_words as tw
from .ranges import TemporalRange
from .temporal import DateCandidate
from .text import QueryText

_MODIFIER = re.compile(
    r"(?:(?<!\w)(?:a|en)\s+)?(?<!\w)(?P<es>principios|comienzos|inicios|mediados|finales|fines)\s+del?\s*$"
    r"|(?:(?<!\w)(?:in|at)\s+the\s+)?(?<!\w)(?P<en>early|mid|late|beginning\s+of|start\s+of|middle\s+of|end\s+of)"
    r"[\s-]*$"
    r"|(?:(?<!\w)(?:au|a\s+la)\s+)?(?<!\w)(?P<fr>debut|milieu|fin)(?:\s+(?:de|des|du)|\s+d')?\s*$"
    r"|(?:(?<!\w)a\s+la\s+)?(?<!\w)(?P<fr2>mi)-\s*$"
)
_CONNECTOR = re.compile(
    r"\s*(?:-|y|e|a|al|hasta|and|to|until|till|through|thru|et|au|jusqu'\s*(?:a|au|en)|o|or|ou)\s*"
    r"(?:(?:el|la|le|the)\s+|l')?"
)
_WORD_CHAR = re.compile(r"\w")
_OPENER = re.compile(r"(?<!\w)(?:entre|del|de|desde|between|from|du|depuis|des)\s+$")


def _apply_modifier(t: DateCandidate, folded: str) -> None:
    if t.precision not in ("year", "decade", "month", "season"):
        return
    window = folded[max(0, t.start - 40) : t.start]
    m = _MODIFIER.search(window)
    if not m:
        return
    word = " ".join((m["es"] or m["en"] or m["fr"] or m["fr2"]).split())
    part, precision, anchor = tw.MODIFIER_PARTS[word], t.precision, t.anchor
    t.lo, t.hi = cal.thirds(t.lo, t.hi, precision, part)
    t.start = t.text_start = t.start - (len(window) - m.start())
    t.precision, t.whole_year = "approx", False
    t.anchor = None if anchor is None else cal.part_of(anchor, precision, part)


def _merge(a: DateCandidate, b: DateCandidate, folded: str) -> DateCandidate:
    """Join "A connector B" into one range, lending B's stated year to a year-less A (and vice versa); two year-less
    ends ("de julio a septiembre") make a range that recurs every year, like each of them."""
    if a.anchor and b.anchor and a.yr is None and b.yr is None:
        anchor = cal.through(a.anchor, b.anchor)
        span = cal.in_year(anchor, a.lo.year)
        if span:
            start = _opener_start(a.start, folded)
            days = a.calendar_day and b.calendar_day
            return DateCandidate(start, b.end, start, span[0], span[1], "range", anchor=anchor, calendar_day=days)
    if a.anchor and b.yr is not None:
        span = cal.in_year(a.anchor, b.yr)
        if span and span[0] > b.lo:
            span = cal.in_year(a.anchor, b.yr - 1)
        if span:
            a.lo, a.hi = span
    elif b.anchor and a.yr is not None:
        span = cal.in_year(b.anchor, a.yr)
        if span and span[1] < a.lo:
            span = cal.in_year(b.anchor, a.yr + 1)
        if span:
            b.lo, b.hi = span
    start = _opener_start(a.start, folded)
    return DateCandidate(start, b.end, start, min(a.lo, b.lo), max(a.hi, b.hi), "range")


def _opener_start(start: int, folded: str) -> int:
    """Where a range begins once its opening word ("entre", "from", "du") is included."""
    m = _OPENER.search(folded[max(0, start - 12) : start])
    if m:
        start -= len(folded[max(0, start - 12) : start]) - m.start()
    return start


def _combine(ts: list[DateCandidate], folded: str) -> list[DateCandidate]:
    """Merge connected pairs, then let a lone year anchor year-less expressions elsewhere in the query."""
    i = 0
    while i < len(ts) - 1:
        if _CONNECTOR.fullmatch(folded[ts[i].end : ts[i + 1].start]):
            ts[i : i + 2] = [_merge(ts[i], ts[i + 1], folded)]
        else:
            i += 1
    years = [t for t in ts if t.whole_year and t.yr is not None]
    anchors = [t for t in ts if t.anchor is not None]
    if len(ts) >= 2 and len(years) == 1 and anchors:
        y = years[0].yr
        for t in anchors:
            span = cal.in_year(t.anchor, y) if t.anchor and y is not None else None
            if span:
                t.lo, t.hi = span
    return ts


def _quote(ts: list[DateCandidate], text: QueryText) -> str:
    """Words of several date expressions: contiguous ones as written, separate ones joined with " … "."""
    parts: list[str] = []
    start = ts[0].text_start
    for prev, cur in pairwise(ts):
        if _WORD_CHAR.search(text.folded[prev.end : cur.start]):
            parts.append(text.slice(start, prev.end).strip())
            start = cur.text_start
    parts.append(text.slice(start, ts[-1].end).strip())
    return " … ".join(parts)


def _final_range(ts: list[DateCandidate], text: QueryText) -> TemporalRange | None:
    if not ts:
        return None
    if len(ts) == 1:
        t = ts[0]
        return TemporalRange(t.lo, t.hi, t.precision, text.slice(t.text_start, t.end).strip(), t.anchor)
    years = [t for t in ts if t.whole_year]
    anchors = [t for t in ts if t.anchor is not None]
    quote = _quote(ts, text)
    if len(years) == 1 and len(anchors) == len(ts) - 1:
        if len(anchors) == 1:
            a = anchors[0]
            return TemporalRange(a.lo, a.hi, a.precision, quote)
        return TemporalRange(min(a.lo for a in anchors), max(a.hi for a in anchors), "range", quote)
    return TemporalRange(min(t.lo for t in ts), max(t.hi for t in ts), "range", quote)


def resolve_dates(
    cands: list[DateCandidate],
    text: QueryText,
) -> tuple[list[DateCandidate], TemporalRange | None]:
    """Apply modifiers and combine: the expressions as finally read, and the one range they name."""
    for cand in cands:
        _apply_modifier(cand, text.folded)
    cands = _combine(cands, text.folded)
    return cands, _final_range(cands, text)
