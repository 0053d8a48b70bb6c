"""The entry form the web app's writers and witnesses fill in: its fields as the API takes them, a date said in words
read as the search reads one (a refusal is worded by form_errors.py)."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from fastapi import Form
from pydantic import BaseModel, Field

from api.services import Services
from graph.members import project_hemisphere
from graph.visibility import INTIMACY_LEVELS
from queries.search.understanding.parse import understand

_RECORD_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?(/\d{4}(-\d{2}(-\d{2})?)?)?")


class EntryForm(BaseModel):
    """What the form sends: names as one comma-separated line each. A level that is not one of the four is left out,
    so a new entry is private and a changed one keeps its own: a bad form never opens one."""

    csrf: str = Field(default="", max_length=200)  # the session's token (api/web/session.py, CSRF_FIELD)
    text: str = Field(default="", max_length=200_000)
    title: str = Field(default="", max_length=2000)
    occurred_on: str = Field(default="", max_length=2000)
    persons: str = Field(default="", max_length=2000)
    places: str = Field(default="", max_length=2000)
    tags: str = Field(default="", max_length=2000)
    intimacy: str = Field(default="circle", max_length=20)

    def fields(self) -> dict[str, Any]:
        values = {
            "text": self.text,
            "title": self.title.strip() or None,
            "occurred_on": self.occurred_on.strip() or None,
            "persons": _names(self.persons),
            "places": _names(self.places),
            "tags": _names(self.tags),
        }
        return values | ({"intimacy": self.intimacy} if self.intimacy in INTIMACY_LEVELS else {})


FormDep = Annotated[EntryForm, Form()]


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def record_date(svc: Services, project_id: str, said: str | None) -> str | None:
    """The entry's `occurred_on` for a date said in words ("verano de 2009", "July 2008", "Navidad de 1995"), read
    as the search reads a date in a question (the project's hemisphere for a season); what is already a record date
    (`2009-07-12`, `2009-07`, `2009`, `START/END`), or no date at all, is left as typed for the API to judge."""
    if not said or _RECORD_DATE.fullmatch(said):
        return said
    found = understand(said, [], date.today(), hemisphere=lambda: project_hemisphere(svc.graph, [project_id])).temporal
    if found is None:
        return said
    start, end = found.start.isoformat(), found.end.isoformat()
    if start == end:
        return start
    if found.precision == "month":
        return start[:7]
    if found.precision == "year":
        return start[:4]
    return f"{start}/{end}"
