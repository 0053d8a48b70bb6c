"""Why an entry form was refused, in a sentence of the page's language for each fault: a date that cannot be read, an
empty or too long text, too many names, a level that is not one of the four. The API's reasons (pydantic's and
ingest's, in English) are read here by field and kind, never shown: a page prints no field path, class name or
status code."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from fastapi import Request
from pydantic import ValidationError

from api.actions.refusals import Invalid
from api.web.i18n import language, translator

NAMES = ("persons", "places", "tags")
FIELD_WORDS = {
    "text": "text",
    "title": "title",
    "occurred_on": "date",
    "persons": "people",
    "places": "places",
    "tags": "tags",
    "intimacy": "who_sees",
}
_AT_MOST = re.compile(r"at most (\d+)")
_BACKWARDS = "ends before it starts"
_DATE_WORDS = ("date", "month", "day", "year", _BACKWARDS)


def reasons(exc: ValidationError | Invalid, request: Request) -> list[str]:
    """One sentence per fault of the refused form, each said once, in the page's language."""
    t = translator(language(request))
    said: list[str] = []
    for fault in _faults(exc):
        sentence = _sentence(fault, t)
        if sentence not in said:
            said.append(sentence)
    return said


def _faults(exc: ValidationError | Invalid) -> Iterable[Mapping[str, Any]]:
    if isinstance(exc, ValidationError):
        return [{"loc": e.get("loc", ()), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in exc.errors()]
    detail = exc.detail
    if isinstance(detail, list):
        return [{**d, "loc": [p for p in d.get("loc", []) if p != "body"]} for d in detail if isinstance(d, Mapping)]
    return [{"loc": (), "msg": str(detail), "type": "value_error"}]


def _sentence(fault: Mapping[str, Any], t: Any) -> str:
    loc = [str(p) for p in fault.get("loc", ())]
    field = loc[0] if loc else ""
    kind, msg = str(fault.get("type", "")), str(fault.get("msg", ""))
    at_most = _AT_MOST.search(msg)
    limit = at_most.group(1) if at_most else ""
    if field == "occurred_on" or (not field and any(word in msg for word in _DATE_WORDS)):
        return t("form_date_backwards") if _BACKWARDS in msg else t("form_bad_date")
    if field == "text" and kind in ("string_too_short", "missing"):
        return t("form_empty_text")
    if field in ("text", "title") and kind == "string_too_long":
        return t(f"form_{field}_too_long").format(n=limit)
    if field in NAMES and kind == "too_long":
        return t("form_too_many_names").format(field=t(FIELD_WORDS[field]), n=limit)
    if field in NAMES:
        return t("form_bad_name").format(field=t(FIELD_WORDS[field]))
    if field == "intimacy":
        return t("form_unknown_level")
    if "NUL" in msg:
        return t("form_bad_character")
    if field in FIELD_WORDS:
        return t("form_bad_field").format(field=t(FIELD_WORDS[field]))
    return t("form_not_saved")
