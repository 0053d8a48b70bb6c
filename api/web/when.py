"""Dates in words, in Spanish, English or French: what entries, chips, chapters and links carry (`YYYY`, `YYYY-MM`,
`YYYY-MM-DD`, a range `START/END` or `START..END`, an ISO date-time) as a reader says it ("17 de febrero de 2009",
"summer 2008", "du 3 au 9 mars 2009"). A season is named from the span the date reader gives it
(`inference/dates/calendar_math.py`), so the same days are summer in the north and winter in the south; the
hemisphere is asked only when a span is one. Anything else comes back as it was given, never an error: a page
prints what it cannot word rather than failing."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from datetime import UTC, date, datetime

from inference.dates.calendar_math import season_maker

Hemisphere = str | Callable[[], str]

MONTHS = {
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
    "en": "January February March April May June July August September October November December".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
}
SEASONS = {
    "es": {"spring": "primavera", "summer": "verano", "autumn": "otoño", "winter": "invierno"},
    "en": {"spring": "spring", "summer": "summer", "autumn": "autumn", "winter": "winter"},
    "fr": {"spring": "printemps", "summer": "été", "autumn": "automne", "winter": "hiver"},
}
_POINT = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}.*")


def when(value: object, lang: str = "en", hemisphere: Hemisphere = "north", end: object = None) -> object:
    """`value` in words in `lang`; with `end`, the range from `value` to `end`. What is not a date (None, a number,
    an unknown shape, an impossible day, a range that ends before it starts) is returned unchanged."""
    lang = lang if lang in MONTHS else "en"
    if not isinstance(value, str) or not value.strip():
        return value
    text = value.strip()
    if isinstance(end, str) and end.strip() and end.strip() != text:
        text = f"{text}/{end.strip()}"
    if _DATETIME.fullmatch(text):
        return _moment(text, lang) or value
    span = _span(text)
    if span is None:
        return value
    return _range(span[0], span[1], lang, hemisphere)


def _point(text: str) -> tuple[date, date] | None:
    found = _POINT.fullmatch(text.strip())
    if found is None:
        return None
    year, month, day = int(found[1]), found[2], found[3]
    try:
        if day is not None:
            one = date(year, int(month or 0), int(day))
            return one, one
        if month is not None:
            last = calendar.monthrange(year, int(month))[1]
            return date(year, int(month), 1), date(year, int(month), last)
        return date(year, 1, 1), date(year, 12, 31)
    except (ValueError, calendar.IllegalMonthError):
        return None


def _span(text: str) -> tuple[date, date] | None:
    for sep in ("/", ".."):
        if sep in text:
            left, right = text.split(sep, 1)
            first, last = _point(left), _point(right)
            if first is None or last is None or last[1] < first[0]:
                return None
            return first[0], last[1]
    return _point(text)


def _moment(text: str, lang: str) -> str | None:
    """A date-time with its time to the minute; one with an offset in UTC, said so; one without as written."""
    try:
        moment = datetime.fromisoformat(text.split("[", 1)[0])
    except ValueError:
        return None
    zone = ""
    if moment.tzinfo is not None:
        moment, zone = moment.astimezone(UTC), " UTC"
    clock = f"{moment:%H:%M}{zone}"
    return f"{_day(moment.date(), lang)} à {clock}" if lang == "fr" else f"{_day(moment.date(), lang)}, {clock}"


def _range(start: date, end: date, lang: str, hemisphere: Hemisphere) -> str:
    if start == end:
        return _day(start, lang)
    season = _season(start, end, hemisphere)
    if season is not None:
        name = SEASONS[lang][season]
        return f"{name} de {start.year}" if lang == "es" else f"{name} {start.year}"
    whole_months = start.day == 1 and end.day == calendar.monthrange(end.year, end.month)[1]
    if whole_months and start.month == 1 and end.month == 12:
        return str(start.year) if start.year == end.year else _between(str(start.year), str(end.year), lang)
    if whole_months:
        return _months(start, end, lang)
    return _days(start, end, lang)


def _season(start: date, end: date, hemisphere: Hemisphere) -> str | None:
    """The season whose span the date reader gives as exactly these days, in the project's hemisphere: the spans are
    the same in both, the names are not."""
    spans = {season_maker(s, south=False)(start.year): s for s in SEASONS["en"]}
    if (start, end) not in spans:
        return None
    south = (hemisphere() if callable(hemisphere) else hemisphere) == "south"
    return next(s for s in SEASONS["en"] if season_maker(s, south)(start.year) == (start, end))


def _day(d: date, lang: str, year: bool = True) -> str:
    month = MONTHS[lang][d.month - 1]
    if lang == "es":
        return f"{d.day} de {month} de {d.year}" if year else f"{d.day} de {month}"
    number = "1er" if lang == "fr" and d.day == 1 else str(d.day)
    return f"{number} {month} {d.year}" if year else f"{number} {month}"


def _month(d: date, lang: str, year: bool = True) -> str:
    month = MONTHS[lang][d.month - 1]
    if not year:
        return month
    return f"{month} de {d.year}" if lang == "es" else f"{month} {d.year}"


def _between(first: str, last: str, lang: str) -> str:
    """Two ends: "de 2008 a 2010", "2008–2010", "de 2008 à 2010" (French elides before a vowel: "d’avril")."""
    if lang == "es":
        return f"de {first} a {last}"
    if lang == "fr":
        return f"{'d’' if first[0] in 'aeiouéèêAEIOUÉ' else 'de '}{first} à {last}"
    return f"{first}–{last}" if " " not in first + last else f"{first} – {last}"


def _months(start: date, end: date, lang: str) -> str:
    if (start.year, start.month) == (end.year, end.month):
        return _month(start, lang)
    if start.year == end.year:
        said = _between(_month(start, lang, year=False), _month(end, lang, year=False), lang)
        return f"{said} de {end.year}" if lang == "es" else f"{said} {end.year}"
    return _between(_month(start, lang), _month(end, lang), lang)


def _days(start: date, end: date, lang: str) -> str:
    same_year = start.year == end.year
    if same_year and start.month == end.month:
        first = "1er" if lang == "fr" and start.day == 1 else str(start.day)
        if lang == "es":
            return f"del {start.day} al {_day(end, lang)}"
        if lang == "fr":
            return f"du {first} au {_day(end, lang)}"
        return f"{start.day}–{_day(end, lang)}"
    first = _day(start, lang, year=not same_year)
    if lang == "es":
        return f"del {first} al {_day(end, lang)}"
    if lang == "fr":
        return f"du {first} au {_day(end, lang)}"
    return f"{first} – {_day(end, lang)}"
