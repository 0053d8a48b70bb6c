"""Vague dates as inclusive ranges: "2008" is 2008-01-01..2008-12-31, so "summer 2008" overlaps "July 2008"."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime

_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_YEAR = re.compile(r"^(\d{4})$")
PRECISIONS = ("day", "month", "season", "year", "approx")


@dataclass(frozen=True)
class DateRange:
    start: date
    end: date
    precision: str


def parse_point(text: str) -> DateRange:
    """One date written as YYYY-MM-DD, YYYY-MM or YYYY (an ISO date-time keeps its date)."""
    text = text.strip()
    if m := _DAY.match(text):
        day = date(int(m[1]), int(m[2]), int(m[3]))
        return DateRange(day, day, "day")
    if m := _MONTH.match(text):
        year, month = int(m[1]), int(m[2])
        if not 1 <= month <= 12:
            raise ValueError(f"month out of range in {text!r}")
        return DateRange(date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1]), "month")
    if m := _YEAR.match(text):
        year = int(m[1])
        return DateRange(date(year, 1, 1), date(year, 12, 31), "year")
    if "T" in text:
        return parse_point(datetime.fromisoformat(text).date().isoformat())
    raise ValueError(f"not a date: {text!r} (use YYYY-MM-DD, YYYY-MM, YYYY or START/END)")


def parse_occurred(text: str) -> DateRange:
    """A point or a range `START/END` (also `START..END`); a range spanning ~3 months is called a season."""
    for sep in ("/", ".."):
        if sep in text:
            left, right = text.split(sep, 1)
            start, end = parse_point(left), parse_point(right)
            if end.end < start.start:
                raise ValueError(f"range ends before it starts: {text!r}")
            days = (end.end - start.start).days
            precision = "season" if 80 <= days <= 100 else ("year" if 360 <= days <= 370 else "approx")
            return DateRange(start.start, end.end, precision)
    return parse_point(text)
