"""The told clock as one Cypher predicate: a time an entry's text tells (`told_starts`/`told_ends`,
ingest/event_times.py) lies within a date range. Within, not overlapping: "últimamente" (the last 90 days) does not
say it happened on the 3rd of May. Search (a question's date), the entries listing and the analytics (a range) embed
it with their own variable and parameter names, so the clock means the same everywhere."""

from __future__ import annotations


def told_within(var: str, lo: str, hi: str) -> str:
    """True when a time `var` tells lies within [`$lo`, `$hi`] (an open end when its parameter is null); false when
    it tells none."""
    return f"""any(i IN range(0, size(coalesce({var}.told_starts, [])) - 1)
  WHERE (${lo} IS NULL OR {var}.told_starts[i] >= ${lo}) AND (${hi} IS NULL OR {var}.told_ends[i] <= ${hi}))"""
