"""The chapter an entry is linked to on write: the one it declares, else the automatic one its own session or date
gives it (graph/periods.py), else none."""

from __future__ import annotations

from typing import Any

from graph.ids import period_id
from graph.periods import AutoPeriod, automatic_period
from ingest.records import EntryRecord


def _automatic(rec: EntryRecord) -> AutoPeriod | None:
    occurred = rec.occurred()
    return automatic_period(
        rec.project_id,
        occurred.start if occurred else None,
        occurred.end if occurred else None,
        rec.metadata().get("session"),
    )


def chapter_of(rec: EntryRecord) -> dict[str, Any] | None:
    """The chapter row an entry is linked to: the one it declares, else its automatic one, else none."""
    if rec.period:
        return {"period_id": period_id(rec.project_id, rec.period), "name": rec.period, "automatic": False}
    auto = _automatic(rec)
    return None if auto is None else {"period_id": auto.id, "name": auto.name, "automatic": True}
