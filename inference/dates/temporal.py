"""Temporal expressions in a folded query (es/en/fr): found by regex, resolved against an explicit ``now``.

`find_dates` returns the non-overlapping expressions; after entity matching has taken the ones it wins,
`resolve_dates` (in `temporal_resolve.py`) applies "early/mid/late", joins "A connector B" ranges, lets a lone
year anchor year-less expressions and gives the final `TemporalRange`. The words are in `temporal_words.py`, the
arithmetic in `calendar_math.py`; the rules are in `queries.search.understanding`'s docstring.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cached_property

from . import calendar_math as cal
from . import temporal_words as tw
from .calendar_math import Maker, Relative
from .text import alt, select


@dataclass
class DateCandidate:
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
    calendar_day: bool = False  # a day or days of a month named without its year ("el 3 de marzo"), not a holiday


@dataclass(frozen=True)
class DateContext:
    now: date
    hemisphere: str | Callable[[], str]  # a callable is asked only if a season is named (it may read the graph)
    month_first: bool

    @cached_property
    def south(self) -> bool:
        named = self.hemisphere if isinstance(self.hemisphere, str) else self.hemisphere()
        return named.strip().lower().startswith(("s", "austral"))


_Y4 = r"(?:19|20)\d\d"
_M = alt(tw.MONTHS)
_S = alt(tw.SEASONS)
_SP = alt(tw.SEASON_PLURALS)
_WD = alt(tw.WEEKDAYS)
_HOL_FRAGMENTS = sorted(
    (f for table in (tw.HOLIDAYS, tw.MOVABLE_HOLIDAYS) for frags, *_ in table.values() for f in frags),
    key=len,
    reverse=True,
)
_H = "|".join(_HOL_FRAGMENTS)
_HOL_KEYS = [
    (re.compile("(?:" + "|".join(frags) + ")"), key)
    for table in (tw.HOLIDAYS, tw.MOVABLE_HOLIDAYS)
    for key, (frags, *_) in table.items()
]
_PAIR = "|".join(tw.PAIR_WORDS)
_FEW = "|".join(tw.FEW_WORDS)
_NUM = rf"\d{{1,3}}|{_PAIR}|{_FEW}|{alt(tw.NUMBERS)}"
_COUNTED = re.compile(rf"(?<!\w)(?:{_NUM})\s+$")
_U = alt(tw.UNITS)
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
        return cal.two_digit_year(int(m.group(1) or m.group(2)), now)
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
    return tw.NUMBERS.get(s)


def _day(s: str) -> int:
    return 1 if not s[0].isdigit() or s in ("1er", "1o") else int(s)


Handler = Callable[[re.Match[str], DateContext], DateCandidate | None]


def _cand(
    m: re.Match[str],
    span: tuple[date, date] | None,
    precision: str,
    *,
    weak: bool = False,
    yr: int | None = None,
    whole_year: bool = False,
    anchor: Maker | None = None,
    calendar_day: bool = False,
) -> DateCandidate | None:
    if span is None:
        return None
    text_start = m.end("pre") if m.groupdict().get("pre") else m.start()
    return DateCandidate(
        m.start(), m.end(), text_start, span[0], span[1], precision, weak, yr, whole_year, anchor, calendar_day
    )


def _h_iso(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    d = date(int(m["y"]), int(m["mo"]), int(m["d"]))
    return _cand(m, (d, d), "day", yr=d.year)


def _h_numeric(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
    if len(m["y"]) == 2:
        y = cal.two_digit_year(y, c.now)
    day, mon = (b, a) if c.month_first else (a, b)
    if mon > 12 >= day:
        day, mon = mon, day
    d = date(y, mon, day)
    return _cand(m, (d, d), "day", yr=y)


def _h_iso_month(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    y = int(m["y"])
    return _cand(m, cal.month_span(y, int(m["mo"])), "month", yr=y)


def _h_day_month(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    mon, day = tw.MONTHS[m["mon"]], _day(m["d"])
    make = cal.day_maker(mon, day)
    ys = m.groupdict().get("ys") or m.groupdict().get("y")
    if ys:
        y = _slot_year(ys, c.now)
        return _cand(m, make(y), "day", yr=y)
    return _cand(m, cal.started(make, c.now), "day", anchor=make, calendar_day=True)


def _h_day_range(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    """Days of one month ("del 3 al 5 de marzo", "March 3-5"), or from a day of the month before when the first is
    the larger ("del 28 al 3 de marzo": 28 February to 3 March)."""
    mon, d1, d2 = tw.MONTHS[m["mon"]], int(m["d1"]), int(m["d2"])
    if d1 == d2 or not (1 <= d1 <= 31 and 1 <= d2 <= 31):
        return None

    def make(y: int) -> tuple[date, date]:
        if d1 < d2:
            return date(y, mon, d1), date(y, mon, d2)
        return (date(y, mon - 1, d1) if mon > 1 else date(y - 1, 12, d1)), date(y, mon, d2)

    ys = m.groupdict().get("ys") or m.groupdict().get("y")
    if ys:
        y = _slot_year(ys, c.now)
        try:
            return _cand(m, make(y), "range", yr=y)
        except ValueError:
            return None
    return _cand(m, cal.started(make, c.now), "range", anchor=make, calendar_day=True)


def _h_month_days(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    """Days of a month written short ("March 3-5", "3–5 de marzo", "Oct 10 to 12, 2024"), ascending only: a "3-2" is
    a score."""
    return _h_day_range(m, c) if int(m["d1"]) < int(m["d2"]) else None


def _h_month_year(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    y = _slot_year(m["ys"], c.now)
    return _cand(m, cal.month_span(y, tw.MONTHS[m["mon"]]), "month", yr=y)


def _first_group(m: re.Match[str], prefix: str) -> str:
    return next(v for k, v in m.groupdict().items() if k.startswith(prefix) and v)


def _h_month_last(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    return _cand(m, cal.ended(cal.month_maker(tw.MONTHS[_first_group(m, "m")]), c.now), "month")


def _h_month_this(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    return _cand(m, cal.current(cal.month_maker(tw.MONTHS[m["mon"]]), c.now), "month")


def _h_month_bare(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    if m["mon"] in tw.AMBIGUOUS_MONTHS and not m["pre"]:
        return None
    make = cal.month_maker(tw.MONTHS[m["mon"]])
    return _cand(m, cal.started(make, c.now), "month", weak=not m["pre"], anchor=make)


def _season(word: str, c: DateContext) -> Maker:
    """The season a word names, singular or plural ("verano", "veranos"), in the project's hemisphere."""
    return cal.season_maker(tw.SEASONS[tw.SEASON_PLURALS.get(word, word)], c.south)


def _h_season_year(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    y = _slot_year(m["ys"], c.now)
    return _cand(m, _season(m["sea"], c)(y), "season", yr=y)


def _h_season_last(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    return _cand(m, cal.ended(_season(_first_group(m, "s"), c), c.now), "season")


def _h_season_this(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    return _cand(m, cal.current(_season(m["sea"], c), c.now), "season")


def _h_season_bare(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    sea, art = m["sea"], (m["art"] or "").strip()
    if sea == "ete" and not (m["pre"] or art == "l'"):
        return None
    if sea == "fall" and art != "the":
        return None
    make = _season(sea, c)
    return _cand(m, cal.started(make, c.now), "season", weak=not m["pre"], anchor=make)


def _h_season_plural(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    if _COUNTED.search(m.string, 0, m.start("seas")):
        return None  # "tres veranos": a count of seasons, not every one (`_h_seasons_ago` reads "hace tres veranos")
    make = _season(m["seas"], c)
    return _cand(m, cal.started(make, c.now), "season", weak=not m["pre"], anchor=make)


def _h_seasons_ago(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    """ "hace tres veranos", "two summers ago": that season N years back, as "hace N años en verano" reads."""
    n = _count(m["n"])
    if n is None or n < 1:
        return None
    y = c.now.year - n
    return _cand(m, _season(m["seas"], c)(y), "season", yr=y)


def _holiday(text: str) -> tuple[Maker, str]:
    text = " ".join(text.split())
    for rx, key in _HOL_KEYS:
        if rx.fullmatch(text):
            if key in tw.MOVABLE_HOLIDAYS:
                _, offset_first, offset_last, precision = tw.MOVABLE_HOLIDAYS[key]
                return cal.easter_maker(offset_first, offset_last), precision
            _, first, last, precision = tw.HOLIDAYS[key]
            return cal.fixed_maker(first, last), precision
    raise KeyError(text)


def _h_hol_year(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    make, precision = _holiday(m["hol"])
    y = _slot_year(m["ys"], c.now)
    return _cand(m, make(y), precision, yr=y)


def _h_hol_last(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    make, precision = _holiday(_first_group(m, "h"))
    return _cand(m, cal.ended(make, c.now), precision)


def _h_hol_this(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    make, precision = _holiday(m["hol"])
    return _cand(m, cal.current(make, c.now), precision)


def _h_hol_bare(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    make, precision = _holiday(m["hol"])
    weak = not m["pre"] and m.group() == m["hol"]
    return _cand(m, cal.started(make, c.now), precision, weak=weak, anchor=make)


def _h_decade(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    if m["dfull"]:
        y = int(m["dfull"])
    else:
        v = int(m["dd"]) if m["dd"] else tw.DECADE_WORDS[" ".join(m["dw"].split())]
        y = v if v >= 100 else cal.two_digit_year(v, c.now)
    return _cand(m, (date(y, 1, 1), date(y + 9, 12, 31)), "decade")


def _h_year(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    y = int(m["y"])
    return _cand(m, cal.year_span(y), "year", yr=y, whole_year=True)


def _h_year2(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    y = cal.two_digit_year(int(m["yy"]), c.now)
    return _cand(m, cal.year_span(y), "year", yr=y, whole_year=True)


def _h_year_range(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    y1, y2 = int(m["y1"]), int(m["y2"])
    if y1 >= y2:
        return None
    return _cand(m, (date(y1, 1, 1), date(y2, 12, 31)), "range")


def _h_ago(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    n, unit, now = _count(m["n"]), tw.UNITS[m["u"]], c.now
    if n is None:
        return _cand(m, (cal.shift(now, unit, -7), cal.shift(now, unit, -1)), "approx")
    if unit == "day":
        d = now - timedelta(days=n)
        return _cand(m, (d, d), "day")
    if unit == "week":
        return _cand(m, cal.week_span(now - timedelta(weeks=n)), "week")
    if unit == "month":
        d = cal.add_months(now, -n)
        return _cand(m, cal.month_span(d.year, d.month), "month")
    y = now.year - n
    return _cand(m, cal.year_span(y), "year", yr=y, whole_year=True)


def _h_last_n(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    n, unit = _count(m["n"]), tw.UNITS[m["u"]]
    return _cand(m, (cal.shift(c.now, unit, -(n or 7)), c.now), "range" if n else "approx")


def _h_weekday_last(m: re.Match[str], c: DateContext) -> DateCandidate | None:
    wd = tw.WEEKDAYS[_first_group(m, "w")]
    d = c.now - timedelta(days=(c.now.weekday() - wd) % 7 or 7)
    return _cand(m, (d, d), "day")


def _rel(fn: Relative) -> Handler:
    """Handler for fixed relative phrases; fn gives (start, end, precision, year-if-whole-year)."""

    def handler(m: re.Match[str], c: DateContext) -> DateCandidate | None:
        lo, hi, precision, y = fn(c.now)
        return _cand(m, (lo, hi), precision, yr=y, whole_year=y is not None)

    return handler


_B = r"(?<!\w)"
_E = r"(?!\w)"

_PATTERNS: list[tuple[str, Handler]] = [
    (rf"(?<![\w/.-])(?P<y>{_Y4})-(?P<mo>[01]?\d)-(?P<d>[0-3]?\d)(?![\w-])", _h_iso),
    (r"(?<![\w/.-])(?P<a>[0-3]?\d)[/.-](?P<b>[0-3]?\d)[/.-](?P<y>\d{4}|\d\d)(?![\w/.-])", _h_numeric),
    (rf"(?<![\w/.-])(?P<y>{_Y4})-(?P<mo>0[1-9]|1[0-2])(?![\w/-])", _h_iso_month),
    (
        rf"{_B}(?P<lead>(?:el|le|the|on\s+the|on)\s+)?(?:(?:dia|jour)\s+)?(?P<d>{_DAYNUM}){_ORD}(?:\s+(?:de|of))?\s+"
        rf"(?P<mon>{_M}){_E}\.?{_YSG}?",
        _h_day_month,
    ),
    (rf"{_B}(?P<mon>{_M})\.?\s+(?:the\s+)?(?P<d>[0-3]?\d){_ORD}{_E}(?:,?\s*(?P<y>{_Y4}){_E})?", _h_day_month),
    (
        rf"{_B}(?:del?|du|entre(?:\s+el)?|from(?:\s+the)?|between(?:\s+the)?)\s+(?P<d1>[0-3]?\d){_ORD}\s+"
        rf"(?:al|a|au|y|et|to|and|-)\s+(?:(?:el|le|the)\s+)?(?P<d2>[0-3]?\d){_ORD}(?:\s+(?:de|of))?\s+(?P<mon>{_M})"
        rf"{_E}{_YSG}?",
        _h_day_range,
    ),
    (
        rf"{_B}(?P<mon>{_M})\.?\s+(?:the\s+)?(?P<d1>[0-3]?\d){_ORD}\s*(?:-|–|to|through|thru|until)\s*(?:the\s+)?"
        rf"(?P<d2>[0-3]?\d){_ORD}{_E}(?:,?\s*(?P<y>{_Y4}){_E})?",
        _h_month_days,
    ),
    (
        rf"{_B}(?P<d1>[0-3]?\d){_ORD}\s*[-–]\s*(?P<d2>[0-3]?\d){_ORD}(?:\s+(?:de|of))?\s+(?P<mon>{_M}){_E}{_YSG}?",
        _h_month_days,
    ),
    (rf"{_B}(?:(?:el\s+)?mes\s+de\s+|le\s+mois\s+d'|the\s+month\s+of\s+)?(?P<mon>{_M}){_E}\.?{_YSG}", _h_month_year),
    (
        rf"{_B}(?:(?:el\s+)?(?:mes\s+de\s+)?(?P<m1>{_M})\s+(?:pasado|anterior)|(?:el\s+)?pasado\s+(?:mes\s+de\s+)?"
        rf"(?P<m2>{_M})|last\s+(?P<m3>{_M})|(?:en\s+)?(?P<m4>{_M})\s+(?:dernier|passe)){_E}",
        _h_month_last,
    ),
    (rf"{_B}(?:este|this)\s+(?:mes\s+de\s+)?(?P<mon>{_M}){_E}", _h_month_this),
    (
        rf"{_B}(?P<pre>(?:en|in|durante|during|pendant|por|around|vers|from|between|since|until|desde|hasta|entre)\s+"
        rf"(?:(?:el\s+)?mes\s+de\s+|le\s+mois\s+d'"
        rf"|the\s+month\s+of\s+)?|(?:el\s+)?mes\s+de\s+|(?:au\s+)?mois\s+d'|the\s+month\s+of\s+)?(?P<mon>{_M}){_E}",
        _h_month_bare,
    ),
    (rf"{_B}(?:(?:el|la|the)\s+|l')?(?P<sea>{_S}){_E}{_YSG}", _h_season_year),
    (
        rf"{_B}(?:(?:el|la|the)\s+|l')?(?:(?P<s1>{_S})\s+(?:pasad[oa]|anterior|derni(?:er|ere)|passee?)|(?:pasad[oa]"
        rf"|ultim[oa])\s+(?P<s2>{_S})|last\s+(?P<s3>{_S})|derni(?:er|ere)\s+(?P<s4>{_S})){_E}",
        _h_season_last,
    ),
    (rf"{_B}(?:este|esta|this|cet|cette|ce)\s+(?P<sea>{_S}){_E}", _h_season_this),
    (
        rf"{_B}(?P<pre>(?:en|in|durante|during|pendant|por|au|over)\s+)?(?P<art>(?:el|la|the)\s+|l')?(?P<sea>{_S})"
        rf"{_E}",
        _h_season_bare,
    ),
    (rf"{_B}(?:(?:los|las|les|the)\s+)?(?P<sea>{_SP}){_E}{_YSG}", _h_season_year),
    (
        rf"{_B}(?P<pre>(?:en|in|durante|during|pendant|over)\s+)?(?:(?:los|las|les|the)\s+)?(?P<seas>{_SP}){_E}",
        _h_season_plural,
    ),
    (rf"{_B}{_ART}?(?P<hol>{_H}){_E}{_YSG}", _h_hol_year),
    (
        rf"{_B}{_ART}?(?:(?P<h1>{_H})\s+(?:pasad[oa]s?|anterior|derni(?:er|ere)|passee?)|(?:pasad[oa]s?|ultim[oa]s?)"
        rf"\s+(?P<h2>{_H})|last\s+(?P<h3>{_H})|derni(?:er|ere)\s+(?P<h4>{_H})){_E}",
        _h_hol_last,
    ),
    (rf"{_B}(?:esta|este|estas|this|cette|ce|cet)\s+(?P<hol>{_H}){_E}", _h_hol_this),
    (
        rf"{_B}(?P<pre>(?:en|por|in|at|on|for|a|pour|pendant|durante|during|over|around|hacia|vers)\s+)?{_ART}?"
        rf"(?P<hol>{_H}){_E}",
        _h_hol_bare,
    ),
    (
        rf"{_B}(?:los|las)\s+(?:anos\s+)?(?:'?(?P<dd>\d0)|(?P<dfull>(?:19|20)\d0)|(?P<dw>{alt(tw.DECADE_WORDS_ES)}))"
        rf"{_E}(?!\s*(?:anos|ano|dias|meses|semanas|euros|personas|km|minutos|horas|veces)(?!\w))",
        _h_decade,
    ),
    (
        rf"{_B}(?:the\s+)?(?:'?(?P<dd>\d0)'?s|(?P<dfull>(?:19|20)\d0)'?s|the\s+(?P<dw>{alt(tw.DECADE_WORDS_EN)})){_E}",
        _h_decade,
    ),
    (
        rf"{_B}(?:les|des)\s+annees\s+(?:'?(?P<dd>\d0)|(?P<dfull>(?:19|20)\d0)|(?P<dw>{alt(tw.DECADE_WORDS_FR)}))"
        rf"{_E}",
        _h_decade,
    ),
    (rf"(?<![\w.,/€$£])(?:(?:(?:el|the)\s+|l')?(?:ano|year|annee)\s+)?(?P<y>{_Y4})(?![\w]|'s){_NOT_QTY}", _h_year),
    (r"(?<![\w'])'(?P<yy>\d\d)(?![\w'])", _h_year2),
    (rf"(?<![\w.,/])(?P<y1>{_Y4})\s*-\s*(?P<y2>{_Y4})(?![\w-])", _h_year_range),
    (rf"{_B}(?:hace|il\s+y\s+a)\s+(?P<n>{_NUM})\s+(?P<seas>{_SP}|{_S}){_E}", _h_seasons_ago),
    (rf"{_B}(?P<n>{_NUM})\s+(?P<seas>{_SP}|{_S})\s+ago{_E}", _h_seasons_ago),
    (rf"{_B}hace\s+(?P<n>{_NUM})\s+(?P<u>{_U}){_E}", _h_ago),
    (rf"{_B}(?P<n>{_NUM})\s+(?P<u>{_U})\s+ago{_E}", _h_ago),
    (rf"{_B}il\s+y\s+a\s+(?P<n>{_NUM})\s+(?P<u>{_U}){_E}", _h_ago),
    (rf"{_B}(?:(?:los|las)\s+ultim[oa]s|(?:the\s+)?(?:last|past))\s+(?P<n>{_NUM})\s+(?P<u>{_U}){_E}", _h_last_n),
    (rf"{_B}(?:les|ces)\s+(?P<n>{_NUM})\s+(?P<u>{_U})\s+derni(?:er|ere)s{_E}", _h_last_n),
    (
        rf"{_B}(?:(?:el\s+)?(?P<w1>{_WD})\s+(?:pasado|anterior)|(?:el\s+)?pasado\s+(?P<w2>{_WD})|last\s+(?P<w3>{_WD})"
        rf"|(?P<w4>{_WD})\s+dernier){_E}",
        _h_weekday_last,
    ),
    *((rf"{_B}(?:{rx}){_E}", _rel(cal.RELATIVE_SPANS[key])) for key, rx in tw.RELATIVE_PHRASES.items()),
]
_COMPILED: list[tuple[re.Pattern[str], Handler]] = [(re.compile(rx), h) for rx, h in _PATTERNS]


def _candidates(folded: str, ctx: DateContext, blocked: list[tuple[int, int]]) -> list[DateCandidate]:
    found: list[DateCandidate] = []
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


def locale_month_first(locale: str | None) -> bool:
    """Whether numeric dates read month first (US-style locales)."""
    return locale is not None and locale.replace("_", "-").lower() in ("en-us", "en-ph", "en-ca")


def find_dates(folded: str, ctx: DateContext, blocked: list[tuple[int, int]]) -> list[DateCandidate]:
    """Every temporal expression outside the blocked spans (tags), the longest winning where they overlap."""
    return select(_candidates(folded, ctx, blocked), lambda c: (c.start, c.end), lambda c: 0)
