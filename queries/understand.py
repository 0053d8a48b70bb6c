"""Query understanding without a language model: dates, entities, filters, intent and layer for es/en/fr queries.

Everything is relative to the explicit ``now``; nothing reads the clock. Matching runs on the folded text
(``graph.textnorm.fold``: lower-case, no accents), spans are mapped back to the original to quote it.

Rules (stable; the README repeats them):

* Bare month/season/holiday ("en julio", "in summer", "en Navidad"): the most recent occurrence that has
  started on or before ``now`` (the current one included).
* "last"/"pasado"/"dernier" ("last July", "el verano pasado", "la Navidad pasada"): the most recent occurrence
  that ended strictly before ``now``; for months that is the latest such month before the current month.
* "this"/"este"/"cet" (season, month, holiday): the occurrence containing ``now``, else the one starting in
  ``now``'s year ("este invierno" in November is the coming winter).
* Seasons use fixed dates: spring 03-21..06-20, summer 06-21..09-22, autumn 09-23..12-20, winter
  12-21..03-20 of the next year; the southern hemisphere swaps them by six months. A season "of year Y" is the
  one that starts in Y (winter 2008 = 2008-12-21..2009-03-20).
* Holidays: single-day ones are that day (precision "day"); Christmas/Navidad/Noël is the window 12-24..12-26
  ("approx"); San Juan is 06-23..06-24 ("range"); Easter is Good Friday..Easter Monday ("approx") and Holy
  Week/Semana Santa Palm Sunday..Easter Monday ("range"). With a year they resolve in that year.
* "hace dos años"/"two years ago" is the calendar year now.year-2 (months: that calendar month; weeks: that
  Monday-Sunday week; days: that day). "a few"/"unos"/"quelques" N ago is approx from 7 N ago to 1 N ago;
  "recently"/"últimamente"/"récemment" is approx now-90..now. "last week" is the previous Monday-Sunday,
  "last weekend" the latest Saturday-Sunday ending before today.
* Two-digit years and decades pick the latest one not after ``now`` ("'08" -> 2008, "los 90" -> 1990s,
  "los 20" -> 2020s when now is 2026). "early/mid/late" (a principios/mediados/finales, début/milieu/fin)
  take the first, middle or last third (years by months Jan-Apr/May-Aug/Sep-Dec).
* Two dates joined by a connector ("del 2007 al 2009", "between July and August 2008") become one range; a
  year plus a year-less month/season/holiday elsewhere in the query combine ("en verano, el año pasado");
  any other set of dates becomes their covering range (its text joins separate pieces with " … ").
* Entities match name and aliases as whole words, accent/case-insensitively, longest first; several entities
  sharing the matched words are all returned with ambiguous=True. Typos: single tokens of >= 5 letters that are
  not lexicon words or plurals of the alias, rapidfuzz ratio >= 85. A capitalised exact entity name wins over a
  bare month/season/holiday word ("qué dijo Julio" is a person, "de julio a septiembre" a range).
* cleaned_text removes: dates, person mentions (kinship aliases included), author phrases ("solo lo que
  escribió Pep"), browse fillers ("muéstrame", "everything about") and recall openers ("¿te acuerdas de").
  Places and things stay (they are topical keywords), typo'd places/things are rewritten to the matched alias,
  tags stay as plain words without "#". Articles/prepositions left dangling before a removed span or at the
  end are dropped. If no content word is left, cleaned_text is the original text.
* language: counted distinctive function words; ties go to ``locale`` when given, else Spanish (the product's
  primary language). layer: "structured" when a date was found, else "keyword" (< 3 words), "dense"
  (> 10 words) or "balanced".
* Entities of a kind other than person/place go to ``things``. Only the first 2,000 characters are analysed.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from itertools import pairwise
from typing import TypeVar

from graph.textnorm import fold, words

from . import lexicon as lx

try:
    from rapidfuzz import fuzz as _fuzz
    from rapidfuzz import process as _process

    _HAVE_RAPIDFUZZ = True
except ImportError:  # pragma: no cover - exercised only without the optional dependency
    _HAVE_RAPIDFUZZ = False

__all__ = [
    "EntityMatch", "EntityMatcher", "KnownEntity", "TemporalRange", "Understanding", "matcher_for", "to_json",
    "understand",
]

MAX_CHARS = 2000
_T = TypeVar("_T")
FUZZY_MIN_LEN = 5
FUZZY_CUTOFF = 85.0


@dataclass(frozen=True)
class KnownEntity:
    """A project entity; kinship words ("papá", "my father") are aliases, so the parser holds no kinship table."""

    id: str
    kind: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class TemporalRange:
    """Inclusive date range for the structured filter, with the words it came from for explanations."""

    start: date
    end: date
    precision: str
    text: str


@dataclass(frozen=True)
class EntityMatch:
    """An entity found in the query; ambiguous when several entities share the matched words."""

    id: str
    name: str
    kind: str
    text: str
    ambiguous: bool = False


@dataclass
class Understanding:
    """Everything the search layers need from a query: filters, the text to embed and routing hints."""

    text: str
    cleaned_text: str
    temporal: TemporalRange | None
    persons: list[EntityMatch]
    places: list[EntityMatch]
    things: list[EntityMatch]
    tags: list[str]
    author: EntityMatch | None
    emotion: str
    intent: str
    language: str
    layer: str


# --------------------------------------------------------------------------------------------------- folding

_PUNCT_MAP = str.maketrans({
    "\u2019": "'", "\u2018": "'", "`": "'", "\u00b4": "'", "\u02bc": "'", "\u2013": "-", "\u2014": "-",
    "\u2010": "-", "\u2011": "-",
})
_INVISIBLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_FOLD_CACHE: dict[str, str] = {}


def _fold_char(ch: str) -> str:
    """Per-character fold, memoised: queries reuse a small alphabet."""
    out = _FOLD_CACHE.get(ch)
    if out is None:
        out = fold(ch)
        if len(_FOLD_CACHE) < 50_000:
            _FOLD_CACHE[ch] = out
    return out


def _fold_with_map(text: str) -> tuple[str, list[int] | None]:
    """Fold keeping, for each folded char, the index of the original char it came from (None = identity)."""
    if text.isascii():
        return text.lower(), None
    out: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        f = _fold_char(ch)
        out.append(f)
        index.extend([i] * len(f))
    return "".join(out), index


@dataclass(frozen=True)
class _Text:
    """The analysed text in both spaces, with span conversion from folded to original offsets."""

    orig: str
    folded: str
    index: list[int] | None

    def ostart(self, i: int) -> int:
        if self.index is None:
            return i
        return self.index[i] if i < len(self.index) else len(self.orig)

    def oend(self, j: int) -> int:
        if self.index is None:
            return j
        return self.index[j] if j < len(self.index) else len(self.orig)

    def slice(self, i: int, j: int) -> str:
        return self.orig[self.ostart(i):self.oend(j)]


_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class _Tok:
    start: int
    end: int
    text: str
    word: bool


# --------------------------------------------------------------------------------------------------- dates

def _month_span(y: int, m: int) -> tuple[date, date]:
    return date(y, m, 1), date(y, m, monthrange(y, m)[1])


def _year_span(y: int) -> tuple[date, date]:
    return date(y, 1, 1), date(y, 12, 31)


def _week_span(d: date) -> tuple[date, date]:
    monday = d - timedelta(days=d.weekday())
    return monday, monday + timedelta(days=6)


def _add_months(d: date, n: int) -> date:
    total = d.year * 12 + d.month - 1 + n
    y, m = divmod(total, 12)
    return date(y, m + 1, min(d.day, monthrange(y, m + 1)[1]))


def _shift(d: date, unit: str, n: int) -> date:
    if unit == "day":
        return d + timedelta(days=n)
    if unit == "week":
        return d + timedelta(weeks=n)
    if unit == "month":
        return _add_months(d, n)
    return _add_months(d, 12 * n)


_SEASON_DATES = {
    "spring": ((3, 21), (6, 20), 0),
    "summer": ((6, 21), (9, 22), 0),
    "autumn": ((9, 23), (12, 20), 0),
    "winter": ((12, 21), (3, 20), 1),
}
_SOUTH = {"spring": "autumn", "summer": "winter", "autumn": "spring", "winter": "summer"}

Maker = Callable[[int], tuple[date, date]]


def _season_maker(season: str, south: bool) -> Maker:
    """Dates of a season by the year it starts in; the south reuses the opposite northern season's dates."""
    (m1, d1), (m2, d2), carry = _SEASON_DATES[_SOUTH[season] if south else season]
    return lambda y: (date(y, m1, d1), date(y + carry, m2, d2))


def _fixed_maker(first: tuple[int, int], last: tuple[int, int]) -> Maker:
    return lambda y: (date(y, *first), date(y, *last))


def _started(make: Maker, now: date) -> tuple[date, date] | None:
    """Most recent occurrence that has started on or before now."""
    for y in range(now.year + 1, now.year - 9, -1):
        try:
            lo, hi = make(y)
        except ValueError:
            continue
        if lo <= now:
            return lo, hi
    return None


def _ended(make: Maker, now: date) -> tuple[date, date] | None:
    """Most recent occurrence that ended strictly before now."""
    for y in range(now.year + 1, now.year - 9, -1):
        try:
            lo, hi = make(y)
        except ValueError:
            continue
        if hi < now:
            return lo, hi
    return None


def _current(make: Maker, now: date) -> tuple[date, date] | None:
    """The occurrence containing now, else the one starting in now's year."""
    for y in (now.year - 1, now.year):
        try:
            lo, hi = make(y)
        except ValueError:
            continue
        if lo <= now <= hi:
            return lo, hi
    try:
        return make(now.year)
    except ValueError:
        return None


def _two_digit_year(yy: int, now: date) -> int:
    return 2000 + yy if 2000 + yy <= now.year else 1900 + yy


def _thirds(lo: date, hi: date, precision: str, part: str) -> tuple[date, date]:
    """First/middle/last third of a range, aligned to months for years and to years for decades."""
    idx = {"early": 0, "mid": 1, "late": 2}[part]
    if precision == "year":
        a, b = ((1, 4), (5, 8), (9, 12))[idx]
        return date(lo.year, a, 1), _month_span(lo.year, b)[1]
    if precision == "decade":
        a, b = ((0, 3), (4, 6), (7, 9))[idx]
        return date(lo.year + a, 1, 1), date(lo.year + b, 12, 31)
    if precision == "month":
        a, b = ((1, 10), (11, 20), (21, hi.day))[idx]
        return lo.replace(day=a), lo.replace(day=b)
    n = (hi - lo).days + 1
    cuts = (0, n // 3, (2 * n) // 3, n)
    return lo + timedelta(days=cuts[idx]), lo + timedelta(days=max(cuts[idx], cuts[idx + 1] - 1))


@dataclass
class _TCand:
    """A temporal expression found in the folded text."""

    start: int
    end: int
    text_start: int
    lo: date
    hi: date
    precision: str
    weak: bool = False
    yr: int | None = None
    whole_year: bool = False
    anchor: Maker | None = None


@dataclass(frozen=True)
class _Ctx:
    now: date
    south: bool
    month_first: bool


def _alt(items: Iterable[str]) -> str:
    """Regex alternation of literal (folded) words, longest first, spaces as \\s+."""
    parts = sorted({re.escape(w).replace("\\ ", " ").replace(" ", r"\s+") for w in items}, key=len, reverse=True)
    return "|".join(parts)


_Y4 = r"(?:19|20)\d\d"
_M = _alt(lx.MONTHS)
_S = _alt(lx.SEASONS)
_WD = _alt(lx.WEEKDAYS)
_HOL_FRAGMENTS = sorted(
    (f for table in (lx.HOLIDAYS, lx.MOVABLE_HOLIDAYS) for frags, *_ in table.values() for f in frags),
    key=len, reverse=True,
)
_H = "|".join(_HOL_FRAGMENTS)
_HOL_KEYS = [
    (re.compile("(?:" + "|".join(frags) + ")"), key)
    for table in (lx.HOLIDAYS, lx.MOVABLE_HOLIDAYS) for key, (frags, *_) in table.items()
]
_PAIR = "|".join(lx.PAIR_WORDS)
_FEW = "|".join(lx.FEW_WORDS)
_NUM = rf"\d{{1,3}}|{_PAIR}|{_FEW}|{_alt(lx.NUMBERS)}"
_U = _alt(lx.UNITS)
_ART = r"(?:(?:el|la|los|las|the|le|les)\s+|l')"
_DAYNUM = r"[0-3]?\d|1er|1o|primero|premier"
_ORD = r"(?:st|nd|rd|th)?"
_YS = (
    rf"(?:,\s*|\s+)(?:(?:de|del|of|en|in|du)\s+|d')?(?:(?:el|the)\s+|l')?(?:(?:ano|year|annee)\s+)?(?:{_Y4}|'\d\d)"
    r"(?![\w'])"
    r"|\s+del\s+\d\d(?!\w)"
    r"|\s+(?:del|de)\s+(?:ano\s+(?:pasado|anterior)|este\s+ano)(?!\w)"
    r"|\s+of\s+(?:last|this)\s+year(?!\w)"
    r"|\s+(?:de\s+l'annee\s+(?:derniere|passee)|de\s+l'an\s+(?:dernier|passe)|de\s+cette\s+annee)(?!\w)"
)
_YSG = rf"(?P<ys>{_YS})"
_NOT_QTY = r"(?!\s*(?:€|\$|%|£|euros?|eur|dolares|dollars?|pesos|libras|pounds|km|kms|kilometros|kilometres|metros"
_NOT_QTY += r"|personas|people|gente|fotos|photos|palabras|words|mots|pesetas|francs|calorias|pasos|steps)(?!\w))"
_RE_FOUR = re.compile(_Y4)
_RE_TWO = re.compile(r"'(\d\d)|del\s+(\d\d)")
_RE_LASTWORD = re.compile(r"pasad|anterior|last|derni|passe")
_RE_PAIR = re.compile(_PAIR)
_RE_FEW = re.compile(_FEW)


def _slot_year(slot: str, now: date) -> int:
    """Year named by a year slot: "de 2008", "del 98", "'08", "del año pasado", "of this year"..."""
    m = _RE_FOUR.search(slot)
    if m:
        return int(m.group())
    m = _RE_TWO.search(slot)
    if m:
        return _two_digit_year(int(m.group(1) or m.group(2)), now)
    return now.year - 1 if _RE_LASTWORD.search(slot) else now.year


def _count(s: str) -> int | None:
    """Number of units in "hace N"; None means "a few"."""
    s = " ".join(s.split())
    if s.isdigit():
        return int(s)
    if _RE_PAIR.fullmatch(s):
        return 2
    if _RE_FEW.fullmatch(s):
        return None
    return lx.NUMBERS.get(s)


def _day(s: str) -> int:
    return 1 if not s[0].isdigit() or s in ("1er", "1o") else int(s)


Handler = Callable[[re.Match[str], _Ctx], _TCand | None]


def _cand(
    m: re.Match[str], span: tuple[date, date] | None, precision: str, *, weak: bool = False, yr: int | None = None,
    whole_year: bool = False, anchor: Maker | None = None,
) -> _TCand | None:
    if span is None:
        return None
    text_start = m.end("pre") if m.groupdict().get("pre") else m.start()
    return _TCand(m.start(), m.end(), text_start, span[0], span[1], precision, weak, yr, whole_year, anchor)


def _h_iso(m: re.Match[str], c: _Ctx) -> _TCand | None:
    d = date(int(m["y"]), int(m["mo"]), int(m["d"]))
    return _cand(m, (d, d), "day", yr=d.year)


def _h_numeric(m: re.Match[str], c: _Ctx) -> _TCand | None:
    a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
    if len(m["y"]) == 2:
        y = _two_digit_year(y, c.now)
    day, mon = (b, a) if c.month_first else (a, b)
    if mon > 12 >= day:
        day, mon = mon, day
    d = date(y, mon, day)
    return _cand(m, (d, d), "day", yr=y)


def _h_iso_month(m: re.Match[str], c: _Ctx) -> _TCand | None:
    y = int(m["y"])
    return _cand(m, _month_span(y, int(m["mo"])), "month", yr=y)


def _day_maker(mon: int, day: int) -> Maker:
    return lambda y: (date(y, mon, day), date(y, mon, day))


def _h_day_month(m: re.Match[str], c: _Ctx) -> _TCand | None:
    mon, day = lx.MONTHS[m["mon"]], _day(m["d"])
    make = _day_maker(mon, day)
    ys = m.groupdict().get("ys") or m.groupdict().get("y")
    if ys:
        y = _slot_year(ys, c.now)
        return _cand(m, make(y), "day", yr=y)
    return _cand(m, _started(make, c.now), "day", anchor=make)


def _h_day_range(m: re.Match[str], c: _Ctx) -> _TCand | None:
    mon, d1, d2 = lx.MONTHS[m["mon"]], int(m["d1"]), int(m["d2"])
    if d1 > d2:
        return None

    def make(y: int) -> tuple[date, date]:
        return date(y, mon, d1), date(y, mon, d2)

    if m["ys"]:
        y = _slot_year(m["ys"], c.now)
        return _cand(m, make(y), "range", yr=y)
    return _cand(m, _started(make, c.now), "range", anchor=make)


def _month_maker(mon: int) -> Maker:
    return lambda y: _month_span(y, mon)


def _h_month_year(m: re.Match[str], c: _Ctx) -> _TCand | None:
    y = _slot_year(m["ys"], c.now)
    return _cand(m, _month_span(y, lx.MONTHS[m["mon"]]), "month", yr=y)


def _first_group(m: re.Match[str], prefix: str) -> str:
    return next(v for k, v in m.groupdict().items() if k.startswith(prefix) and v)


def _h_month_last(m: re.Match[str], c: _Ctx) -> _TCand | None:
    return _cand(m, _ended(_month_maker(lx.MONTHS[_first_group(m, "m")]), c.now), "month")


def _h_month_this(m: re.Match[str], c: _Ctx) -> _TCand | None:
    return _cand(m, _current(_month_maker(lx.MONTHS[m["mon"]]), c.now), "month")


def _h_month_bare(m: re.Match[str], c: _Ctx) -> _TCand | None:
    if m["mon"] in lx.AMBIGUOUS_MONTHS and not m["pre"]:
        return None
    make = _month_maker(lx.MONTHS[m["mon"]])
    return _cand(m, _started(make, c.now), "month", weak=not m["pre"], anchor=make)


def _h_season_year(m: re.Match[str], c: _Ctx) -> _TCand | None:
    y = _slot_year(m["ys"], c.now)
    return _cand(m, _season_maker(lx.SEASONS[m["sea"]], c.south)(y), "season", yr=y)


def _h_season_last(m: re.Match[str], c: _Ctx) -> _TCand | None:
    return _cand(m, _ended(_season_maker(lx.SEASONS[_first_group(m, "s")], c.south), c.now), "season")


def _h_season_this(m: re.Match[str], c: _Ctx) -> _TCand | None:
    return _cand(m, _current(_season_maker(lx.SEASONS[m["sea"]], c.south), c.now), "season")


def _h_season_bare(m: re.Match[str], c: _Ctx) -> _TCand | None:
    sea, art = m["sea"], (m["art"] or "").strip()
    if sea == "ete" and not (m["pre"] or art == "l'"):
        return None
    if sea == "fall" and art != "the":
        return None
    make = _season_maker(lx.SEASONS[sea], c.south)
    return _cand(m, _started(make, c.now), "season", weak=not m["pre"], anchor=make)


def _easter(y: int) -> date:
    """Gregorian Easter Sunday (anonymous Gregorian algorithm)."""
    a, b, c = y % 19, y // 100, y % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    return date(y, month, day + 1)


def _easter_maker(first: int, last: int) -> Maker:
    return lambda y: (_easter(y) + timedelta(days=first), _easter(y) + timedelta(days=last))


def _holiday(text: str) -> tuple[Maker, str]:
    text = " ".join(text.split())
    for rx, key in _HOL_KEYS:
        if rx.fullmatch(text):
            if key in lx.MOVABLE_HOLIDAYS:
                _, offset_first, offset_last, precision = lx.MOVABLE_HOLIDAYS[key]
                return _easter_maker(offset_first, offset_last), precision
            _, first, last, precision = lx.HOLIDAYS[key]
            return _fixed_maker(first, last), precision
    raise KeyError(text)


def _h_hol_year(m: re.Match[str], c: _Ctx) -> _TCand | None:
    make, precision = _holiday(m["hol"])
    y = _slot_year(m["ys"], c.now)
    return _cand(m, make(y), precision, yr=y)


def _h_hol_last(m: re.Match[str], c: _Ctx) -> _TCand | None:
    make, precision = _holiday(_first_group(m, "h"))
    return _cand(m, _ended(make, c.now), precision)


def _h_hol_this(m: re.Match[str], c: _Ctx) -> _TCand | None:
    make, precision = _holiday(m["hol"])
    return _cand(m, _current(make, c.now), precision)


def _h_hol_bare(m: re.Match[str], c: _Ctx) -> _TCand | None:
    make, precision = _holiday(m["hol"])
    weak = not m["pre"] and m.group() == m["hol"]
    return _cand(m, _started(make, c.now), precision, weak=weak, anchor=make)


_DECADE_WORDS = {**lx.DECADE_WORDS_ES, **lx.DECADE_WORDS_EN, **lx.DECADE_WORDS_FR}


def _h_decade(m: re.Match[str], c: _Ctx) -> _TCand | None:
    if m["dfull"]:
        y = int(m["dfull"])
    else:
        v = int(m["dd"]) if m["dd"] else _DECADE_WORDS[" ".join(m["dw"].split())]
        y = v if v >= 100 else _two_digit_year(v, c.now)
    return _cand(m, (date(y, 1, 1), date(y + 9, 12, 31)), "decade")


def _h_year(m: re.Match[str], c: _Ctx) -> _TCand | None:
    y = int(m["y"])
    return _cand(m, _year_span(y), "year", yr=y, whole_year=True)


def _h_year2(m: re.Match[str], c: _Ctx) -> _TCand | None:
    y = _two_digit_year(int(m["yy"]), c.now)
    return _cand(m, _year_span(y), "year", yr=y, whole_year=True)


def _h_year_range(m: re.Match[str], c: _Ctx) -> _TCand | None:
    y1, y2 = int(m["y1"]), int(m["y2"])
    if y1 >= y2:
        return None
    return _cand(m, (date(y1, 1, 1), date(y2, 12, 31)), "range")


def _h_ago(m: re.Match[str], c: _Ctx) -> _TCand | None:
    n, unit, now = _count(m["n"]), lx.UNITS[m["u"]], c.now
    if n is None:
        return _cand(m, (_shift(now, unit, -7), _shift(now, unit, -1)), "approx")
    if unit == "day":
        d = now - timedelta(days=n)
        return _cand(m, (d, d), "day")
    if unit == "week":
        return _cand(m, _week_span(now - timedelta(weeks=n)), "week")
    if unit == "month":
        d = _add_months(now, -n)
        return _cand(m, _month_span(d.year, d.month), "month")
    y = now.year - n
    return _cand(m, _year_span(y), "year", yr=y, whole_year=True)


def _h_last_n(m: re.Match[str], c: _Ctx) -> _TCand | None:
    n, unit = _count(m["n"]), lx.UNITS[m["u"]]
    return _cand(m, (_shift(c.now, unit, -(n or 7)), c.now), "range" if n else "approx")


def _h_weekday_last(m: re.Match[str], c: _Ctx) -> _TCand | None:
    wd = lx.WEEKDAYS[_first_group(m, "w")]
    d = c.now - timedelta(days=(c.now.weekday() - wd) % 7 or 7)
    return _cand(m, (d, d), "day")


def _rel(fn: Callable[[date], tuple[date, date, str, int | None]]) -> Handler:
    """Handler for fixed relative phrases; fn gives (start, end, precision, year-if-whole-year)."""

    def handler(m: re.Match[str], c: _Ctx) -> _TCand | None:
        lo, hi, precision, y = fn(c.now)
        return _cand(m, (lo, hi), precision, yr=y, whole_year=y is not None)

    return handler


def _days_ago(n: int) -> Callable[[date], tuple[date, date, str, int | None]]:
    return lambda now: (now - timedelta(days=n), now - timedelta(days=n), "day", None)


def _last_weekend(now: date) -> tuple[date, date, str, int | None]:
    sunday = now - timedelta(days=(now.weekday() - 6) % 7 or 7)
    return sunday - timedelta(days=1), sunday, "week", None


def _this_weekend(now: date) -> tuple[date, date, str, int | None]:
    sunday = _week_span(now)[1]
    return sunday - timedelta(days=1), sunday, "week", None


def _last_month(now: date) -> tuple[date, date, str, int | None]:
    d = _add_months(now.replace(day=1), -1)
    return (*_month_span(d.year, d.month), "month", None)


_B = r"(?<!\w)"
_E = r"(?!\w)"

_RELATIVE: list[tuple[str, Callable[[date], tuple[date, date, str, int | None]]]] = [
    (r"hoy|today|aujourd'\s*hui|aujourd\s+hui|esta\s+manana|this\s+morning|ce\s+matin|esta\s+tarde|ce\s+soir"
     r"|this\s+afternoon|tonight|esta\s+noche|cet\s+apres-midi", _days_ago(0)),
    (r"ayer(?:\s+por\s+la\s+(?:manana|tarde|noche))?|yesterday|hier(?:\s+soir)?|anoche|last\s+night", _days_ago(1)),
    (r"anteayer|antier|antes\s+de\s+ayer|the\s+day\s+before\s+yesterday|avant[- ]hier", _days_ago(2)),
    (r"(?:la\s+)?semana\s+(?:pasada|anterior)|(?:la\s+)?pasada\s+semana|last\s+week|the\s+(?:previous\s+week|week"
     r"\s+before)|(?:la\s+)?semaine\s+(?:derniere|passee)",
     lambda now: (*_week_span(now - timedelta(days=7)), "week", None)),
    (r"esta\s+semana|this\s+week|cette\s+semaine", lambda now: (*_week_span(now), "week", None)),
    (r"(?:el\s+)?(?:ultimo\s+)?fin\s+de\s+semana\s+(?:pasado|anterior)|(?:el\s+)?(?:pasado|ultimo)\s+fin\s+de\s+"
     r"semana|last\s+weekend|(?:le\s+)?(?:week-?end|week\s+end)\s+(?:dernier|passe)|(?:le\s+)?dernier\s+week-?end",
     _last_weekend),
    (r"este\s+fin\s+de\s+semana|this\s+weekend|ce\s+week-?end", _this_weekend),
    (r"(?:el\s+)?mes\s+(?:pasado|anterior)|(?:el\s+)?pasado\s+mes|last\s+month|the\s+previous\s+month"
     r"|(?:le\s+)?mois\s+(?:dernier|passe)", _last_month),
    (r"este\s+mes|this\s+month|ce\s+mois(?:-ci)?", lambda now: (*_month_span(now.year, now.month), "month", None)),
    (r"(?:el\s+)?ano\s+antepasado|the\s+year\s+before\s+last",
     lambda now: (*_year_span(now.year - 2), "year", now.year - 2)),
    (r"(?:el\s+)?ano\s+(?:pasado|anterior)|(?:el\s+)?pasado\s+ano|last\s+year|the\s+previous\s+year"
     r"|l'annee\s+(?:derniere|passee)|l'an\s+(?:dernier|passe)",
     lambda now: (*_year_span(now.year - 1), "year", now.year - 1)),
    (r"este\s+ano|this\s+year|cette\s+annee", lambda now: (*_year_span(now.year), "year", now.year)),
    (r"recientemente|ultimamente|hace\s+poco|recently|lately|not\s+long\s+ago|recemment|dernierement"
     r"|ces\s+derniers\s+temps|il\s+y\s+a\s+peu|estos\s+(?:ultimos\s+)?dias|these\s+days|ces\s+jours-ci",
     lambda now: (now - timedelta(days=90), now, "approx", None)),
    (r"(?:el\s+)?otro\s+dia|the\s+other\s+day|l'autre\s+jour",
     lambda now: (now - timedelta(days=7), now - timedelta(days=1), "approx", None)),
]

_PATTERNS: list[tuple[str, Handler]] = [
    (rf"(?<![\w/.-])(?P<y>{_Y4})-(?P<mo>[01]?\d)-(?P<d>[0-3]?\d)(?![\w-])", _h_iso),
    (r"(?<![\w/.-])(?P<a>[0-3]?\d)[/.-](?P<b>[0-3]?\d)[/.-](?P<y>\d{4}|\d\d)(?![\w/.-])", _h_numeric),
    (rf"(?<![\w/.-])(?P<y>{_Y4})-(?P<mo>0[1-9]|1[0-2])(?![\w/-])", _h_iso_month),
    (rf"{_B}(?P<lead>(?:el|le|the|on\s+the|on)\s+)?(?:(?:dia|jour)\s+)?(?P<d>{_DAYNUM}){_ORD}(?:\s+(?:de|of))?\s+"
     rf"(?P<mon>{_M}){_E}{_YSG}?", _h_day_month),
    (rf"{_B}(?P<mon>{_M})\s+(?:the\s+)?(?P<d>[0-3]?\d){_ORD}{_E}(?:,?\s*(?P<y>{_Y4}){_E})?", _h_day_month),
    (rf"{_B}(?:del?|du|entre(?:\s+el)?|from(?:\s+the)?|between(?:\s+the)?)\s+(?P<d1>[0-3]?\d){_ORD}\s+"
     rf"(?:al|a|au|y|et|to|and|-)\s+(?:(?:el|le|the)\s+)?(?P<d2>[0-3]?\d){_ORD}(?:\s+(?:de|of))?\s+(?P<mon>{_M})"
     rf"{_E}{_YSG}?", _h_day_range),
    (rf"{_B}(?:(?:el\s+)?mes\s+de\s+|le\s+mois\s+d'|the\s+month\s+of\s+)?(?P<mon>{_M}){_E}{_YSG}", _h_month_year),
    (rf"{_B}(?:(?:el\s+)?(?:mes\s+de\s+)?(?P<m1>{_M})\s+(?:pasado|anterior)|(?:el\s+)?pasado\s+(?:mes\s+de\s+)?"
     rf"(?P<m2>{_M})|last\s+(?P<m3>{_M})|(?:en\s+)?(?P<m4>{_M})\s+(?:dernier|passe)){_E}", _h_month_last),
    (rf"{_B}(?:este|this)\s+(?:mes\s+de\s+)?(?P<mon>{_M}){_E}", _h_month_this),
    (rf"{_B}(?P<pre>(?:en|in|durante|during|pendant|por|around|vers|from|between|since|until|desde|hasta|entre)\s+"
     rf"(?:(?:el\s+)?mes\s+de\s+|le\s+mois\s+d'"
     rf"|the\s+month\s+of\s+)?|(?:el\s+)?mes\s+de\s+|(?:au\s+)?mois\s+d'|the\s+month\s+of\s+)?(?P<mon>{_M}){_E}",
     _h_month_bare),
    (rf"{_B}(?:(?:el|la|the)\s+|l')?(?P<sea>{_S}){_E}{_YSG}", _h_season_year),
    (rf"{_B}(?:(?:el|la|the)\s+|l')?(?:(?P<s1>{_S})\s+(?:pasad[oa]|anterior|derni(?:er|ere)|passee?)|(?:pasad[oa]"
     rf"|ultim[oa])\s+(?P<s2>{_S})|last\s+(?P<s3>{_S})|derni(?:er|ere)\s+(?P<s4>{_S})){_E}", _h_season_last),
    (rf"{_B}(?:este|esta|this|cet|cette|ce)\s+(?P<sea>{_S}){_E}", _h_season_this),
    (rf"{_B}(?P<pre>(?:en|in|durante|during|pendant|por|au|over)\s+)?(?P<art>(?:el|la|the)\s+|l')?(?P<sea>{_S})"
     rf"{_E}", _h_season_bare),
    (rf"{_B}{_ART}?(?P<hol>{_H}){_E}{_YSG}", _h_hol_year),
    (rf"{_B}{_ART}?(?:(?P<h1>{_H})\s+(?:pasad[oa]s?|anterior|derni(?:er|ere)|passee?)|(?:pasad[oa]s?|ultim[oa]s?)"
     rf"\s+(?P<h2>{_H})|last\s+(?P<h3>{_H})|derni(?:er|ere)\s+(?P<h4>{_H})){_E}", _h_hol_last),
    (rf"{_B}(?:esta|este|estas|this|cette|ce|cet)\s+(?P<hol>{_H}){_E}", _h_hol_this),
    (rf"{_B}(?P<pre>(?:en|por|in|at|on|for|a|pour|pendant|durante|during|over|around|hacia|vers)\s+)?{_ART}?"
     rf"(?P<hol>{_H}){_E}", _h_hol_bare),
    (rf"{_B}(?:los|las)\s+(?:anos\s+)?(?:'?(?P<dd>\d0)|(?P<dfull>(?:19|20)\d0)|(?P<dw>{_alt(lx.DECADE_WORDS_ES)}))"
     rf"{_E}(?!\s*(?:anos|ano|dias|meses|semanas|euros|personas|km|minutos|horas|veces)(?!\w))", _h_decade),
    (rf"{_B}(?:the\s+)?(?:'?(?P<dd>\d0)'?s|(?P<dfull>(?:19|20)\d0)'?s|the\s+(?P<dw>{_alt(lx.DECADE_WORDS_EN)})){_E}",
     _h_decade),
    (rf"{_B}(?:les|des)\s+annees\s+(?:'?(?P<dd>\d0)|(?P<dfull>(?:19|20)\d0)|(?P<dw>{_alt(lx.DECADE_WORDS_FR)}))"
     rf"{_E}", _h_decade),
    (rf"(?<![\w.,/€$£])(?:(?:(?:el|the)\s+|l')?(?:ano|year|annee)\s+)?(?P<y>{_Y4})(?![\w]|'s){_NOT_QTY}", _h_year),
    (r"(?<![\w'])'(?P<yy>\d\d)(?![\w'])", _h_year2),
    (rf"(?<![\w.,/])(?P<y1>{_Y4})\s*-\s*(?P<y2>{_Y4})(?![\w-])", _h_year_range),
    (rf"{_B}hace\s+(?P<n>{_NUM})\s+(?P<u>{_U}){_E}", _h_ago),
    (rf"{_B}(?P<n>{_NUM})\s+(?P<u>{_U})\s+ago{_E}", _h_ago),
    (rf"{_B}il\s+y\s+a\s+(?P<n>{_NUM})\s+(?P<u>{_U}){_E}", _h_ago),
    (rf"{_B}(?:(?:los|las)\s+ultim[oa]s|(?:the\s+)?(?:last|past))\s+(?P<n>{_NUM})\s+(?P<u>{_U}){_E}", _h_last_n),
    (rf"{_B}(?:les|ces)\s+(?P<n>{_NUM})\s+(?P<u>{_U})\s+derni(?:er|ere)s{_E}", _h_last_n),
    (rf"{_B}(?:(?:el\s+)?(?P<w1>{_WD})\s+(?:pasado|anterior)|(?:el\s+)?pasado\s+(?P<w2>{_WD})|last\s+(?P<w3>{_WD})"
     rf"|(?P<w4>{_WD})\s+dernier){_E}", _h_weekday_last),
    *((rf"{_B}(?:{rx}){_E}", _rel(fn)) for rx, fn in _RELATIVE),
]
_COMPILED: list[tuple[re.Pattern[str], Handler]] = [(re.compile(rx), h) for rx, h in _PATTERNS]

_MODIFIER = re.compile(
    r"(?:(?<!\w)(?:a|en)\s+)?(?<!\w)(?P<es>principios|comienzos|inicios|mediados|finales|fines)\s+del?\s*$"
    r"|(?:(?<!\w)(?:in|at)\s+the\s+)?(?<!\w)(?P<en>early|mid|late|beginning\s+of|start\s+of|middle\s+of|end\s+of)"
    r"[\s-]*$"
    r"|(?:(?<!\w)(?:au|a\s+la)\s+)?(?<!\w)(?P<fr>debut|milieu|fin)(?:\s+(?:de|des|du)|\s+d')?\s*$"
    r"|(?:(?<!\w)a\s+la\s+)?(?<!\w)(?P<fr2>mi)-\s*$"
)
_MOD_PART = {
    "principios": "early", "comienzos": "early", "inicios": "early", "mediados": "mid", "finales": "late",
    "fines": "late", "early": "early", "beginning of": "early", "start of": "early", "mid": "mid",
    "middle of": "mid", "late": "late", "end of": "late", "debut": "early", "milieu": "mid", "mi": "mid",
    "fin": "late",
}
_CONNECTOR = re.compile(
    r"\s*(?:-|y|e|a|al|hasta|and|to|until|till|through|thru|et|au|jusqu'\s*(?:a|au|en)|o|or|ou)\s*"
    r"(?:(?:el|la|le|the)\s+|l')?"
)
_WORD_CHAR = re.compile(r"\w")
_OPENER = re.compile(r"(?<!\w)(?:entre|del|de|desde|between|from|du|depuis|des)\s+$")


def _temporal_candidates(folded: str, ctx: _Ctx, blocked: list[tuple[int, int]]) -> list[_TCand]:
    found: list[_TCand] = []
    for rx, handler in _COMPILED:
        for m in rx.finditer(folded):
            if any(m.start() < b and m.end() > a for a, b in blocked):
                continue
            try:
                cand = handler(m, ctx)
            except (ValueError, OverflowError, KeyError):
                continue
            if cand is not None:
                found.append(cand)
    return found


def _select(cands: list[_T], key: Callable[[_T], tuple[int, int]], rank: Callable[[_T], int]) -> list[_T]:
    """Greedy non-overlapping choice: higher rank, then longer, then earlier wins."""
    chosen: list[_T] = []
    for c in sorted(cands, key=lambda c: (-rank(c), key(c)[0] - key(c)[1], key(c)[0])):
        s, e = key(c)
        if all(e <= key(o)[0] or s >= key(o)[1] for o in chosen):
            chosen.append(c)
    return sorted(chosen, key=lambda c: key(c)[0])


def _apply_modifier(t: _TCand, folded: str) -> None:
    if t.precision not in ("year", "decade", "month", "season"):
        return
    window = folded[max(0, t.start - 40):t.start]
    m = _MODIFIER.search(window)
    if not m:
        return
    word = " ".join((m["es"] or m["en"] or m["fr"] or m["fr2"]).split())
    t.lo, t.hi = _thirds(t.lo, t.hi, t.precision, _MOD_PART[word])
    t.start = t.text_start = t.start - (len(window) - m.start())
    t.precision, t.anchor, t.whole_year = "approx", None, False


def _in_year(anchor: Maker, y: int) -> tuple[date, date] | None:
    try:
        return anchor(y)
    except ValueError:
        return None


def _merge(a: _TCand, b: _TCand, folded: str) -> _TCand:
    """Join "A connector B" into one range, lending B's stated year to a year-less A (and vice versa)."""
    if a.anchor and b.yr is not None:
        span = _in_year(a.anchor, b.yr)
        if span and span[0] > b.lo:
            span = _in_year(a.anchor, b.yr - 1)
        if span:
            a.lo, a.hi = span
    elif b.anchor and a.yr is not None:
        span = _in_year(b.anchor, a.yr)
        if span and span[1] < a.lo:
            span = _in_year(b.anchor, a.yr + 1)
        if span:
            b.lo, b.hi = span
    start = a.start
    m = _OPENER.search(folded[max(0, start - 12):start])
    if m:
        start -= len(folded[max(0, start - 12):start]) - m.start()
    return _TCand(start, b.end, start, min(a.lo, b.lo), max(a.hi, b.hi), "range")


def _combine(ts: list[_TCand], folded: str) -> list[_TCand]:
    """Merge connected pairs, then let a lone year anchor year-less expressions elsewhere in the query."""
    i = 0
    while i < len(ts) - 1:
        if _CONNECTOR.fullmatch(folded[ts[i].end:ts[i + 1].start]):
            ts[i:i + 2] = [_merge(ts[i], ts[i + 1], folded)]
        else:
            i += 1
    years = [t for t in ts if t.whole_year and t.yr is not None]
    anchors = [t for t in ts if t.anchor is not None]
    if len(ts) >= 2 and len(years) == 1 and anchors:
        y = years[0].yr
        for t in anchors:
            span = _in_year(t.anchor, y) if t.anchor and y is not None else None
            if span:
                t.lo, t.hi = span
    return ts


def _quote(ts: list[_TCand], text: _Text) -> str:
    """Words of several date expressions: contiguous ones as written, separate ones joined with " … "."""
    parts: list[str] = []
    start = ts[0].text_start
    for prev, cur in pairwise(ts):
        if _WORD_CHAR.search(text.folded[prev.end:cur.start]):
            parts.append(text.slice(start, prev.end).strip())
            start = cur.text_start
    parts.append(text.slice(start, ts[-1].end).strip())
    return " … ".join(parts)


def _final_range(ts: list[_TCand], text: _Text) -> TemporalRange | None:
    if not ts:
        return None
    if len(ts) == 1:
        t = ts[0]
        return TemporalRange(t.lo, t.hi, t.precision, text.slice(t.text_start, t.end).strip())
    years = [t for t in ts if t.whole_year]
    anchors = [t for t in ts if t.anchor is not None]
    quote = _quote(ts, text)
    if len(years) == 1 and len(anchors) == len(ts) - 1:
        if len(anchors) == 1:
            a = anchors[0]
            return TemporalRange(a.lo, a.hi, a.precision, quote)
        return TemporalRange(min(a.lo for a in anchors), max(a.hi for a in anchors), "range", quote)
    return TemporalRange(min(t.lo for t in ts), max(t.hi for t in ts), "range", quote)


# --------------------------------------------------------------------------------------------------- entities

_ARTICLES = frozenset({"el", "la", "los", "las", "the", "le", "les", "l", "un", "una", "a", "an", "une"})
_TEMPORAL_WORDS = (
    set(lx.MONTHS) | set(lx.SEASONS) | set(lx.WEEKDAYS) | set(lx.UNITS) | set(lx.NUMBERS)
    | {w for k in _DECADE_WORDS for w in k.split()}
)
_NO_FUZZY = frozenset(
    lx.DANGLING | lx.QUESTION_WORDS | lx.CLITICS | lx.PAST_WORDS | lx.EMOTION_POSITIVE_WORDS
    | lx.EMOTION_NEGATIVE_WORDS | lx.EMOTION_INQUIRY | lx.NEGATORS | _TEMPORAL_WORDS
    | {w for ws in lx.LANGUAGE_WORDS.values() for w in ws}
)


@dataclass(frozen=True)
class _EHit:
    """An entity mention over word tokens [i, j)."""

    i: int
    j: int
    entities: tuple[KnownEntity, ...]
    exact: bool
    display: str


class EntityMatcher:
    """Alias index built once per entity list, so each query costs a few dict lookups per token."""

    def __init__(self, entities: Iterable[KnownEntity]) -> None:
        self.entities = tuple(entities)
        index: dict[tuple[str, ...], dict[str, tuple[KnownEntity, str]]] = {}
        for ent in self.entities:
            for form in (ent.name, *ent.aliases):
                toks = tuple(words(form))
                if not toks:
                    continue
                variants = [toks]
                if ent.kind not in ("person", "place") and toks[0] in _ARTICLES and len("".join(toks[1:])) >= 3:
                    variants.append(toks[1:])
                for v in variants:
                    index.setdefault(v, {}).setdefault(ent.id, (ent, form))
        self._index = {k: tuple(v.values()) for k, v in index.items()}
        self._firsts = frozenset(k[0] for k in self._index)
        self._max = max((len(k) for k in self._index), default=0)
        self._fuzzy: dict[str, tuple[tuple[KnownEntity, str], ...]] = {
            k[0]: v for k, v in self._index.items() if len(k) == 1 and len(k[0]) >= FUZZY_MIN_LEN
        }
        self._fuzzy_keys = list(self._fuzzy)

    def find(self, toks: Sequence[str], joinable: Sequence[bool], blocked: frozenset[int]) -> list[_EHit]:
        """All exact hits (longest per start) plus fuzzy single-token hits on uncovered tokens."""
        hits: list[_EHit] = []
        covered: set[int] = set()
        n = len(toks)
        for i in range(n):
            if i in blocked or toks[i] not in self._firsts:
                continue
            for j in range(min(n, i + self._max), i, -1):
                if any(k in blocked for k in range(i, j)) or not all(joinable[k] for k in range(i, j - 1)):
                    continue
                owners = self._index.get(tuple(toks[i:j]))
                if owners:
                    hits.append(_EHit(i, j, tuple(e for e, _ in owners), True, owners[0][1]))
                    covered.update(range(i, j))
                    break
        if not self._fuzzy_keys:
            return hits
        for i, tok in enumerate(toks):
            if i in covered or i in blocked or len(tok) < FUZZY_MIN_LEN or tok.isdigit() or tok in _NO_FUZZY:
                continue
            best = [k for k in self._fuzzy_best(tok) if tok not in (k + "s", k + "es")]
            if best:
                owners = tuple(o for key in best for o in self._fuzzy[key])
                unique = tuple({e.id: e for e, _ in owners}.values())
                hits.append(_EHit(i, i + 1, unique, False, owners[0][1]))
        return hits

    def _fuzzy_best(self, tok: str) -> list[str]:
        if _HAVE_RAPIDFUZZ:
            found = _process.extract(tok, self._fuzzy_keys, scorer=_fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=None)
            scored = [(score, key) for key, score, _ in found]
        else:
            from difflib import SequenceMatcher

            scored = [(100.0 * SequenceMatcher(None, tok, k).ratio(), k) for k in self._fuzzy_keys]
            scored = [(s, k) for s, k in scored if s >= FUZZY_CUTOFF]
        if not scored:
            return []
        top = max(s for s, _ in scored)
        return [k for s, k in scored if s == top]


@lru_cache(maxsize=32)
def _cached_matcher(entities: tuple[KnownEntity, ...]) -> EntityMatcher:
    return EntityMatcher(entities)


def matcher_for(entities: Sequence[KnownEntity] | EntityMatcher) -> EntityMatcher:
    """Reuse a matcher per distinct entity tuple (an lru cache), or pass a prebuilt one through."""
    if isinstance(entities, EntityMatcher):
        return entities
    key = tuple(entities)
    try:
        return _cached_matcher(key)
    except TypeError:
        return EntityMatcher(key)


# --------------------------------------------------------------------------------------------------- phrases

def _rx(parts: Iterable[str]) -> str:
    return "|".join(parts)


_AUTHOR_BEFORE = re.compile(
    r"(?<!\w)(?:(?:solo|solamente|unicamente)\s+)?(?:(?:las\s+|los\s+)?(?:entradas|notas|cosas|textos|recuerdos"
    r"|paginas)\s+)?(?:(?:lo|las|los|la|el)\s+)?que\s+(?:escribio|ha\s+escrito|habia\s+escrito|escribiera|anoto"
    r"|redacto)\s+$"
    r"|(?<!\w)(?:(?:solo|solamente|unicamente)\s+)?(?:(?:las\s+|los\s+)?(?:entradas|notas|textos|cosas|recuerdos)"
    r"\s+)?(?:escrit[oa]s?|redactad[oa]s?)\s+por\s+$"
    r"|(?<!\w)(?:(?:only|just)\s+)?(?:(?:the\s+)?(?:entries|notes|things|posts|stuff|memories)\s+)?(?:that\s+)?"
    r"(?:were\s+)?(?:written|authored)\s+by\s+$"
    r"|(?<!\w)(?:(?:seulement|uniquement|juste)\s+)?(?:(?:les\s+)?(?:entrees|notes|textes|souvenirs)\s+)?"
    r"(?:ce\s+qu'\s*|ce\s+que\s+)(?:a|avait)\s+ecrit\s+$"
    r"|(?<!\w)(?:(?:seulement|uniquement|juste)\s+)?(?:(?:les\s+)?(?:entrees|notes|textes|souvenirs)\s+)?"
    r"ecrit(?:e|s|es)?\s+par\s+$"
)
_AUTHOR_AROUND = re.compile(
    r"(?<!\w)(?:(?:solo|solamente|unicamente)\s+)?(?:lo|las\s+\w+|los\s+\w+)\s+que\s+$"
    r"|(?<!\w)(?:(?:only|just)\s+)?(?:what|whatever|the\s+(?:entries|notes|things)(?:\s+that)?)\s+$"
    r"|(?<!\w)(?:(?:seulement|uniquement|juste)\s+)?ce\s+que\s+$"
)
_AUTHOR_AFTER = re.compile(
    r"\s+(?:escribio|ha\s+escrito|habia\s+escrito|escribiera|wrote|has\s+written|had\s+written|writes"
    r"|(?:a|avait)\s+ecrit)(?!\w)"
)
_BROWSE = re.compile(rf"(?<!\w)(?:{_rx(lx.BROWSE_PHRASES)})(?!\w)")
_RECALL_FILLER = re.compile(rf"^[\s¿¡\"'«(]*(?P<f>(?:{_rx(lx.RECALL_FILLERS)}))(?!\w)")
_RECALL_CUE = re.compile(rf"(?<!\w)(?:{_rx(lx.RECALL_CUES)})(?!\w)")
_SUBJECTIVE = re.compile(rf"(?<!\w)(?:{_rx(lx.SUBJECTIVE_PHRASES)})(?!\w)")
_TAG = re.compile(r"#(\w[\w-]*)")
_NEG_STEMS = re.compile("(?:" + "|".join(lx.EMOTION_NEGATIVE_STEMS) + ")")
_POS_STEMS = re.compile("(?:" + "|".join(lx.EMOTION_POSITIVE_STEMS) + ")")
_FILLER_WORDS = frozenset({
    "solo", "only", "seulement", "todo", "todos", "todas", "everything", "all", "tout", "toutes", "entradas",
    "entries", "entrees", "notes", "notas", "show", "me", "muestrame", "montre", "moi", "lo", "que", "qu", "what",
    "est", "ce", "se", "te", "nos", "le", "les", "es", "is", "was", "did", "do", "does", "are", "were",
})
_STOP = lx.DANGLING | lx.QUESTION_WORDS | lx.LEADING_CONNECTORS | _FILLER_WORDS
_FR_ACCENTS = frozenset("çèêàùâîôûëïœ")
_ES_MARKS = frozenset("¿¡ñ")


def _is_past(tok: str, orig: str, lang: str, after_question: bool) -> bool:
    """Whether a token looks like a past-tense verb (lived experience) in the guessed language."""
    if tok in lx.PAST_WORDS and (after_question or tok not in lx.PAST_AMBIGUOUS):
        return True
    if lang == "es":
        return (len(orig) >= 4 and orig[-1] in "óé" and tok not in lx.QUESTION_WORDS) or (
            len(tok) >= 5 and tok.endswith(lx.SPANISH_PAST_ENDINGS))
    if lang == "en":
        return len(tok) >= 5 and tok.endswith("ed")
    return (len(tok) >= 5 and tok.endswith(("ait", "ais", "ions", "aient"))) or (
        len(orig) >= 4 and orig.rstrip("se").endswith("é"))


def _language(toks: list[_Tok], skip: set[int], orig: str, locale: str | None) -> str:
    scores = {"es": 0.0, "en": 0.0, "fr": 0.0}
    for k, t in enumerate(toks):
        if t.word and k not in skip:
            for lang, vocab in lx.LANGUAGE_WORDS.items():
                if t.text in vocab:
                    scores[lang] += 1
    low = orig.lower()
    if any(ch in _ES_MARKS for ch in low):
        scores["es"] += 1.5
    if any(ch in _FR_ACCENTS for ch in low):
        scores["fr"] += 1.5
    pref = _locale_language(locale)
    top = max(scores.values())
    tied = [lang for lang, s in scores.items() if s == top]
    if pref in tied:
        return pref
    return tied[0] if top > 0 else (pref or "es")


def _locale_language(locale: str | None) -> str | None:
    if not locale:
        return None
    lang = locale.replace("_", "-").split("-")[0].lower()
    return lang if lang in ("es", "en", "fr") else None


def _emotion(toks: list[_Tok], skip: set[int]) -> str:
    pos = neg = 0
    inquiry = False
    word_idx = [k for k, t in enumerate(toks) if t.word]
    for n, k in enumerate(word_idx):
        if k in skip:
            continue
        w = toks[k].text
        polarity = 0
        if w in lx.EMOTION_NEGATIVE_WORDS or _NEG_STEMS.match(w):
            polarity = -1
        elif w in lx.EMOTION_POSITIVE_WORDS or _POS_STEMS.match(w):
            polarity = 1
        elif w in lx.EMOTION_INQUIRY:
            inquiry = True
        if polarity and any(toks[p].text in lx.NEGATORS for p in word_idx[max(0, n - 2):n]):
            inquiry = True
            polarity = -1 if polarity > 0 else 0
        pos += polarity > 0
        neg += polarity < 0
    if pos and neg:
        return "neutral"
    if pos:
        return "positive"
    if neg:
        return "negative"
    return "neutral" if inquiry else "none"


def _fr_passe(toks: list[_Tok], word_idx: list[int], skip: set[int], text: _Text) -> bool:
    """French compound past ("a dit", "sommes allés"): an auxiliary followed by a participle."""
    for n, k in enumerate(word_idx[:-1]):
        if k in skip or toks[k].text not in lx.FR_AUXILIARIES:
            continue
        for nxt in word_idx[n + 1:n + 3]:
            t = toks[nxt]
            if nxt in skip:
                break
            if t.text in lx.FR_PARTICIPLES or text.slice(t.start, t.end).rstrip("sS").rstrip("eE").endswith(("é", "É")):
                return True
            if t.text not in ("pas", "deja", "bien", "tous", "encore", "jamais"):
                break
    return False


def _intent(folded: str, toks: list[_Tok], text: _Text, lang: str, browse: bool, skip: set[int]) -> str:
    if _SUBJECTIVE.search(folded):
        return "subjective"
    if browse:
        return "browse"
    if _RECALL_CUE.search(folded):
        return "recall"
    word_idx = [k for k, t in enumerate(toks) if t.word]
    if not word_idx:
        return "lookup"
    first = toks[word_idx[0]].text
    question = "?" in folded or first in lx.QUESTION_WORDS or first in lx.PAST_AUX_START
    if lang == "fr" and _fr_passe(toks, word_idx, skip, text):
        return "recall"
    if question:
        rest = word_idx[1:] if first in lx.QUESTION_WORDS else word_idx
        for k in rest:
            t = toks[k]
            if t.text in lx.QUESTION_WORDS or (t.text in lx.CLITICS and t.text not in lx.PAST_WORDS):
                continue
            return "recall" if _is_past(t.text, text.slice(t.start, t.end), lang, True) else "lookup"
        return "lookup"
    for k in word_idx:
        if k not in skip and _is_past(toks[k].text, text.slice(toks[k].start, toks[k].end), lang, False):
            return "recall"
    return "lookup"


# --------------------------------------------------------------------------------------------------- cleaning

_CLOSERS = frozenset("?!.,;:)]»…\"")
_SPACE_BEFORE = re.compile(r"\s+([?!.,;:)\]»…])")
_SPACE_AFTER = re.compile(r"([¿¡(\[«])\s+")
_REPEAT_PUNCT = re.compile(r"([,;:])(?:\s*[,;:])+")
_PUNCT_BEFORE_END = re.compile(r"[,;:]\s*([?!.])")
_EMPTY_PAIR = re.compile(r"¿\s*\?|¡\s*!|\(\s*\)")


def _cleaned(text: _Text, toks: list[_Tok], removed: list[bool], replace: dict[int, str]) -> str:
    """Rebuild the query without removed tokens, dropping articles/prepositions left hanging."""
    n = len(toks)
    k = 0
    while k < n:
        if removed[k] and (k == 0 or not removed[k - 1]):
            j = k - 1
            while j >= 0 and toks[j].word and not removed[j] and toks[j].text in lx.DANGLING:
                removed[j] = True
                j -= 1
        k += 1
    for k in range(1, n - 1):
        if removed[k - 1] and not removed[k] and toks[k].text == "'" and toks[k + 1].text == "s":
            removed[k] = removed[k + 1] = True
    for k in range(n - 1, -1, -1):
        if removed[k] or (not toks[k].word and toks[k].text in _CLOSERS):
            continue
        if toks[k].word and toks[k].text in lx.DANGLING:
            removed[k] = True
            continue
        break
    for k in range(n):
        if removed[k]:
            continue
        if (toks[k].word and toks[k].text in lx.LEADING_CONNECTORS) or toks[k].text in ",;:-":
            removed[k] = True
            continue
        break
    pieces: list[str] = []
    prev_end = -1
    for k, t in enumerate(toks):
        if removed[k]:
            continue
        piece = replace.get(k, text.slice(t.start, t.end))
        if pieces and (k == 0 or removed[k - 1] or toks[k - 1].end != t.start or prev_end != toks[k - 1].end):
            pieces.append(" ")
        pieces.append(piece)
        prev_end = t.end
    out = "".join(pieces)
    out = _SPACE_BEFORE.sub(r"\1", out)
    out = _SPACE_AFTER.sub(r"\1", out)
    out = _REPEAT_PUNCT.sub(r"\1", out)
    out = _PUNCT_BEFORE_END.sub(r"\1", out)
    out = _EMPTY_PAIR.sub("", out)
    return " ".join(out.split()).strip(" ,;:-")


# --------------------------------------------------------------------------------------------------- main

def understand(
    text: str,
    entities: Sequence[KnownEntity] | EntityMatcher,
    now: date,
    locale: str | None = None,
    hemisphere: str = "north",
) -> Understanding:
    """Parse a search query into filters (dates, entities, tags, author) and what is left to embed."""
    raw = text if isinstance(text, str) else str(text)
    orig = _INVISIBLE.sub("", _CONTROL.sub(" ", raw[: MAX_CHARS * 2]))[:MAX_CHARS].translate(_PUNCT_MAP)
    folded, index = _fold_with_map(orig)
    tx = _Text(orig, folded, index)
    toks = [_Tok(m.start(), m.end(), m.group(), m.group()[0].isalnum() or m.group()[0] == "_")
            for m in _TOKEN.finditer(folded)]
    ctx = _Ctx(now, hemisphere.strip().lower().startswith(("s", "austral")), _locale_month_first(locale))

    tags: list[str] = []
    tag_spans: list[tuple[int, int]] = []
    for m in _TAG.finditer(folded):
        if m.group(1) not in tags:
            tags.append(m.group(1))
        tag_spans.append((m.start(), m.end()))

    temporal = _select(_temporal_candidates(folded, ctx, tag_spans), lambda c: (c.start, c.end), lambda c: 0)
    mentions, temporal = _entity_mentions(toks, tx, matcher_for(entities), tag_spans, temporal)
    for cand in temporal:
        _apply_modifier(cand, folded)
    temporal = _combine(temporal, folded)
    trange = _final_range(temporal, tx)

    removals: list[tuple[int, int]] = [(c.start, c.end) for c in temporal]
    replace: dict[int, str] = {k: "" for k, tok in enumerate(toks) if any(tok.start == a for a, _ in tag_spans)}
    buckets: dict[str, list[EntityMatch]] = {"person": [], "place": [], "thing": []}
    author: EntityMatch | None = None
    entity_tokens: set[int] = set()
    for hit, (s, e), tok_range in mentions:
        entity_tokens.update(tok_range)
        ambiguous = len(hit.entities) > 1
        matches = [EntityMatch(x.id, x.name, x.kind, tx.slice(s, e), ambiguous) for x in hit.entities]
        only_persons = all(x.kind == "person" for x in hit.entities)
        if only_persons and author is None:
            span = _author_span(folded, s, e)
            if span:
                author = matches[0]
                removals.append(span)
                continue
        if only_persons:
            removals.append((s, e))
        elif not hit.exact:
            replace[tok_range[0]] = hit.display
        for em in matches:
            _add_unique(buckets.get(em.kind, buckets["thing"]), em)

    browse_spans = [(m.start(), m.end()) for m in _BROWSE.finditer(folded)]
    removals.extend(browse_spans)
    filler = _RECALL_FILLER.match(folded)
    if filler:
        removals.append((filler.start("f"), filler.end("f")))

    removed = [any(tok.start < b and tok.end > a for a, b in removals) for tok in toks]
    removed_idx = {k for k, flag in enumerate(removed) if flag}
    language = _language(toks, entity_tokens, orig, locale)
    emotion = _emotion(toks, entity_tokens | {k for k, tok in enumerate(toks) if _in_any(tok, temporal)})
    intent = _intent(folded, toks, tx, language, bool(browse_spans), entity_tokens | removed_idx)

    cleaned = _cleaned(tx, toks, removed, replace)
    if not any(w not in _STOP for w in words(cleaned)):
        fallback = " ".join(orig.split())
        if words(fallback) or not cleaned:
            cleaned = fallback
    n_words = sum(tok.word for tok in toks)
    layer = "structured" if trange else "keyword" if n_words < 3 else "dense" if n_words > 10 else "balanced"
    return Understanding(
        text=raw, cleaned_text=cleaned, temporal=trange, persons=buckets["person"], places=buckets["place"],
        things=buckets["thing"], tags=tags, author=author, emotion=emotion, intent=intent, language=language,
        layer=layer,
    )


Mention = tuple[_EHit, tuple[int, int], list[int]]


def _entity_mentions(
    toks: list[_Tok], tx: _Text, matcher: EntityMatcher, tag_spans: list[tuple[int, int]], temporal: list[_TCand],
) -> tuple[list[Mention], list[_TCand]]:
    """Entity hits with their folded span and token indices.

    A capitalised exact entity name beats a bare month/season/holiday word ("qué dijo Julio" is a person, "de julio
    a septiembre" is a range); anything else overlapping a date loses to the date.
    """
    folded = tx.folded
    word_pos = [k for k, tok in enumerate(toks) if tok.word]
    joinable = [_joinable(folded[toks[a].end:toks[b].start]) for a, b in pairwise(word_pos)]
    blocked = frozenset(w for w, k in enumerate(word_pos) if any(a <= toks[k].start < b for a, b in tag_spans))
    hits = _select(matcher.find([toks[k].text for k in word_pos], joinable, blocked),
                   lambda h: (toks[word_pos[h.i]].start, toks[word_pos[h.j - 1]].end), lambda h: int(h.exact))
    mentions: list[Mention] = []
    for h in hits:
        s, e = toks[word_pos[h.i]].start, toks[word_pos[h.j - 1]].end
        clash = [c for c in temporal if c.start < e and c.end > s]
        if clash and not (h.exact and all(c.weak for c in clash) and tx.slice(s, s + 1).isupper()):
            continue
        temporal = [c for c in temporal if c not in clash]
        mentions.append((h, (s, e), word_pos[h.i:h.j]))
    return mentions, temporal


def _in_any(t: _Tok, cands: list[_TCand]) -> bool:
    return any(t.start < c.end and t.end > c.start for c in cands)


def _joinable(gap: str) -> bool:
    """Words of one alias may be separated by spaces, apostrophes, hyphens or dots only."""
    return all(ch.isspace() or ch in "'-." for ch in gap)


def _locale_month_first(locale: str | None) -> bool:
    return locale is not None and locale.replace("_", "-").lower() in ("en-us", "en-ph", "en-ca")


def _author_span(folded: str, s: int, e: int) -> tuple[int, int] | None:
    """Span of an authorship phrase around a person mention ("solo lo que escribió Pep", "what Pep wrote")."""
    window = folded[max(0, s - 60):s]
    m = _AUTHOR_BEFORE.search(window)
    if m:
        return s - (len(window) - m.start()), e
    m = _AUTHOR_AROUND.search(window)
    after = _AUTHOR_AFTER.match(folded, e)
    if m and after:
        return s - (len(window) - m.start()), after.end()
    return None


def _add_unique(bucket: list[EntityMatch], em: EntityMatch) -> None:
    for k, old in enumerate(bucket):
        if old.id == em.id:
            if old.ambiguous and not em.ambiguous:
                bucket[k] = em
            return
    bucket.append(em)


def to_json(u: Understanding) -> dict[str, object]:
    """JSON-ready dict: ISO dates, entities and author as {"id", "name"} (+ "ambiguous": true only when so)."""

    def ent(m: EntityMatch) -> dict[str, object]:
        d: dict[str, object] = {"id": m.id, "name": m.name}
        if m.ambiguous:
            d["ambiguous"] = True
        return d

    t = u.temporal
    return {
        "text": u.text,
        "cleaned_text": u.cleaned_text,
        "temporal": None if t is None else {
            "start": t.start.isoformat(), "end": t.end.isoformat(), "precision": t.precision, "text": t.text,
        },
        "persons": [ent(m) for m in u.persons],
        "places": [ent(m) for m in u.places],
        "things": [ent(m) for m in u.things],
        "tags": list(u.tags),
        "author": None if u.author is None else ent(u.author),
        "emotion": u.emotion,
        "intent": u.intent,
        "language": u.language,
        "layer": u.layer,
    }
