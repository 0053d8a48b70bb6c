"""Contextual retrieval: a short prefix from the graph (who, when, where, which chapter) embedded with each chunk.

It is computed with the owner's view at write time and never shown to a viewer: only the vector carries it.
"""

from __future__ import annotations

from datetime import date

from ingest.dates import DateRange

_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def describe_date(occurred: DateRange | None) -> str:
    if occurred is None:
        return ""
    start: date = occurred.start
    if occurred.precision == "day":
        return f"{start.day} {_MONTHS[start.month - 1]} {start.year}"
    if occurred.precision == "month":
        return f"{_MONTHS[start.month - 1]} {start.year}"
    if occurred.precision == "year":
        return str(start.year)
    end = occurred.end
    return f"{_MONTHS[start.month - 1]} {start.year} - {_MONTHS[end.month - 1]} {end.year}"


def chunk_context(
    *,
    title: str | None,
    author: str | None,
    occurred: DateRange | None,
    period: str | None,
    persons: list[str],
    places: list[str],
) -> str:
    """One line, e.g. "Caroline, 8 May 2023. Berlin 2008-2010. With Josep, Marta. In Cádiz." """
    parts: list[str] = []
    head = ", ".join(p for p in (author, describe_date(occurred)) if p)
    if head:
        parts.append(head)
    if title:
        parts.append(title)
    if period:
        parts.append(period)
    others = [p for p in persons if p != author]
    if others:
        parts.append("With " + ", ".join(others[:8]))
    if places:
        parts.append("In " + ", ".join(places[:5]))
    return ". ".join(parts)


_OPENNESS = {"public": 0, "circle": 1, "intimate": 2, "private": 3}
PREVIOUS_TURN_CHARS = 400


def may_lend_context(
    prev_intimacy: str,
    prev_author: str | None,
    intimacy: str,
    author: str | None,
    prev_period: str | None = None,
    period: str | None = None,
) -> bool:
    """Whether an entry's text may enrich a neighbour's vector without carrying it to a wider audience.

    A vector ranks for everyone who can see its entry, so the lender must be at least as open as the borrower, an
    intimate or private lender must share the borrower's author, and a borrower in a chapter (which witnesses of
    that chapter may search) only borrows from the same chapter.
    """
    if _OPENNESS[prev_intimacy] > _OPENNESS[intimacy]:
        return False
    if period is not None and prev_period != period:
        return False
    return not (_OPENNESS[prev_intimacy] >= _OPENNESS["intimate"] and prev_author != author)


def previous_turn(author: str | None, text: str) -> str:
    """The preceding turn of the same conversation, shortened: a reply like "yes, so powerful!" needs it."""
    text = " ".join(text.split())
    if len(text) > PREVIOUS_TURN_CHARS:
        text = text[:PREVIOUS_TURN_CHARS].rsplit(" ", 1)[0] + " …"
    return f"{author}: {text}" if author else text
