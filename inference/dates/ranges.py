"""The date range a text names, as the grammar finally reads it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class TemporalRange:
    """Inclusive date range for the structured filter, with the words it came from for explanations.

    A season, month, holiday or day named without a year or a "last/this" marker ("en verano", "in August", "por
    Navidad") is recurring: any year's occurrence matches. `start`/`end` are then its most recent occurrence (what
    "the" one would be), and `recurrence` gives the occurrence of any year (the year it starts in)."""

    start: date
    end: date
    precision: str
    text: str
    recurrence: Callable[[int], tuple[date, date]] | None = field(default=None, compare=False, repr=False)

    @property
    def recurring(self) -> bool:
        return self.recurrence is not None

    def by_year(self, first_year: int, last_year: int) -> list[tuple[date, date] | None]:
        """The occurrence starting in each year first_year..last_year, None where a year has none (29 February);
        a range that does not recur occurs only in its own year."""
        out: list[tuple[date, date] | None] = []
        for y in range(first_year, last_year + 1):
            if self.recurrence is None:
                out.append((self.start, self.end) if y == self.start.year else None)
                continue
            try:
                out.append(self.recurrence(y))
            except ValueError:
                out.append(None)
        return out
