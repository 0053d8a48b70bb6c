"""Calendar arithmetic for temporal expressions: spans of days, weeks, months and years, seasons by hemisphere,
Easter, and which occurrence of a yearly event a phrase means ("makers" give an event's dates for a year).

Rules (the package docstring and docs/search.md repeat them): a bare month/season/holiday recurs every year (its
maker); its shown range is the most recent occurrence that has started (`started`); "last ..." the most recent
that has ended (`ended`); "this ..." the one containing now, else the one starting in now's year (`current`).
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Callable
from datetime import date, timedelta


def month_span(y: int, m: int) -> tuple[date, date]:
    return date(y, m, 1), date(y, m, monthrange(y, m)[1])


def year_span(y: int) -> tuple[date, date]:
    return date(y, 1, 1), date(y, 12, 31)


def week_span(d: date) -> tuple[date, date]:
    monday = d - timedelta(days=d.weekday())
    return monday, monday + timedelta(days=6)


def add_months(d: date, n: int) -> date:
    total = d.year * 12 + d.month - 1 + n
    y, m = divmod(total, 12)
    return date(y, m + 1, min(d.day, monthrange(y, m + 1)[1]))


def shift(d: date, unit: str, n: int) -> date:
    if unit == "day":
        return d + timedelta(days=n)
    if unit == "week":
        return d + timedelta(weeks=n)
    if unit == "month":
        return add_months(d, n)
    return add_months(d, 12 * n)


_SEASON_DATES = {
    "spring": ((3, 21), (6, 20), 0),
    "summer": ((6, 21), (9, 22), 0),
    "autumn": ((9, 23), (12, 20), 0),
    "winter": ((12, 21), (3, 20), 1),
}
_SOUTH = {"spring": "autumn", "summer": "winter", "autumn": "spring", "winter": "summer"}

Maker = Callable[[int], tuple[date, date]]
Relative = Callable[[date], tuple[date, date, str, int | None]]


def season_maker(season: str, south: bool) -> Maker:
    """Dates of a season by the year it starts in; the south reuses the opposite northern season's dates."""
    (m1, d1), (m2, d2), carry = _SEASON_DATES[_SOUTH[season] if south else season]
    return lambda y: (date(y, m1, d1), date(y + carry, m2, d2))


def fixed_maker(first: tuple[int, int], last: tuple[int, int]) -> Maker:
    return lambda y: (date(y, *first), date(y, *last))


def _most_recent(make: Maker, now: date, accept: Callable[[date, date], bool]) -> tuple[date, date] | None:
    """The most recent occurrence (from next year back nine) that `accept` takes; impossible dates are skipped."""
    for y in range(now.year + 1, now.year - 9, -1):
        try:
            lo, hi = make(y)
        except ValueError:
            continue
        if accept(lo, hi):
            return lo, hi
    return None


def started(make: Maker, now: date) -> tuple[date, date] | None:
    """Most recent occurrence that has started on or before now."""
    return _most_recent(make, now, lambda lo, _hi: lo <= now)


def ended(make: Maker, now: date) -> tuple[date, date] | None:
    """Most recent occurrence that ended strictly before now."""
    return _most_recent(make, now, lambda _lo, hi: hi < now)


NEAREST_DAYS = 183  # half a year: a day of every year is always this near; one of leap years may not be


def nearest(make: Maker, now: date) -> tuple[date, date] | None:
    """The occurrence closest to now: the one containing it, else the nearer of the last one ended and the next one
    to start (the past one on a tie); None when none is within half a year (29 February three years on)."""

    def distance(s: tuple[date, date]) -> int:
        return max((s[0] - now).days, (now - s[1]).days, 0)

    around = [span for y in (now.year - 1, now.year, now.year + 1) if (span := in_year(make, y)) is not None]
    near = [s for s in around if distance(s) <= NEAREST_DAYS]
    return min(near, key=lambda s: (distance(s), s[0] > now)) if near else None


def current(make: Maker, now: date) -> tuple[date, date] | None:
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


def two_digit_year(yy: int, now: date) -> int:
    return 2000 + yy if 2000 + yy <= now.year else 1900 + yy


def thirds(lo: date, hi: date, precision: str, part: str) -> tuple[date, date]:
    """First/middle/last third of a range, aligned to months for years and to years for decades."""
    idx = {"early": 0, "mid": 1, "late": 2}[part]
    if precision == "year":
        a, b = ((1, 4), (5, 8), (9, 12))[idx]
        return date(lo.year, a, 1), month_span(lo.year, b)[1]
    if precision == "decade":
        a, b = ((0, 3), (4, 6), (7, 9))[idx]
        return date(lo.year + a, 1, 1), date(lo.year + b, 12, 31)
    if precision == "month":
        a, b = ((1, 10), (11, 20), (21, hi.day))[idx]
        return lo.replace(day=a), lo.replace(day=b)
    n = (hi - lo).days + 1
    cuts = (0, n // 3, (2 * n) // 3, n)
    return lo + timedelta(days=cuts[idx]), lo + timedelta(days=max(cuts[idx], cuts[idx + 1] - 1))


def day_maker(mon: int, day: int) -> Maker:
    return lambda y: (date(y, mon, day), date(y, mon, day))


def month_maker(mon: int) -> Maker:
    return lambda y: month_span(y, mon)


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


def easter_maker(first: int, last: int) -> Maker:
    return lambda y: (_easter(y) + timedelta(days=first), _easter(y) + timedelta(days=last))


def through(first: Maker, last: Maker) -> Maker:
    """From `first`'s start to the next end of `last` ("from November to February" crosses the new year)."""

    def make(y: int) -> tuple[date, date]:
        lo, hi = first(y)[0], last(y)[1]
        return (lo, hi) if hi >= lo else (lo, last(y + 1)[1])

    return make


def part_of(anchor: Maker, precision: str, part: str) -> Maker:
    """The early/mid/late third of each occurrence of `anchor`."""
    return lambda y: thirds(*anchor(y), precision, part)


def in_year(anchor: Maker, y: int) -> tuple[date, date] | None:
    try:
        return anchor(y)
    except ValueError:
        return None


def _days_ago(n: int) -> Relative:
    return lambda now: (now - timedelta(days=n), now - timedelta(days=n), "day", None)


def _last_weekend(now: date) -> tuple[date, date, str, int | None]:
    sunday = now - timedelta(days=(now.weekday() - 6) % 7 or 7)
    return sunday - timedelta(days=1), sunday, "week", None


def _this_weekend(now: date) -> tuple[date, date, str, int | None]:
    sunday = week_span(now)[1]
    return sunday - timedelta(days=1), sunday, "week", None


def _last_month(now: date) -> tuple[date, date, str, int | None]:
    d = add_months(now.replace(day=1), -1)
    return (*month_span(d.year, d.month), "month", None)


# `temporal_words.RELATIVE_PHRASES` key -> (start, end, precision, year when the span is that whole year).
RELATIVE_SPANS: dict[str, Relative] = {
    "today": _days_ago(0),
    "yesterday": _days_ago(1),
    "day_before_yesterday": _days_ago(2),
    "last_week": lambda now: (*week_span(now - timedelta(days=7)), "week", None),
    "this_week": lambda now: (*week_span(now), "week", None),
    "last_weekend": _last_weekend,
    "this_weekend": _this_weekend,
    "last_month": _last_month,
    "this_month": lambda now: (*month_span(now.year, now.month), "month", None),
    "year_before_last": lambda now: (*year_span(now.year - 2), "year", now.year - 2),
    "last_year": lambda now: (*year_span(now.year - 1), "year", now.year - 1),
    "this_year": lambda now: (*year_span(now.year), "year", now.year),
    "recently": lambda now: (now - timedelta(days=90), now, "approx", None),
    "other_day": lambda now: (now - timedelta(days=7), now - timedelta(days=1), "approx", None),
}
