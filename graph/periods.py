"""What a viewer may know of a chapter (a `Period`): its name and its existence come from the entries they may see.

A chapter's id is the slug of its name, so entries that spell it differently ("Oncología (Ward 7)", "oncologia ward
7") share one node. The node keeps no name: each entry keeps its own spelling (`e.period_name`), an entry shows
the chapter by that spelling, and a list of chapters names each by the smallest spelling among the viewer's visible
entries in it (as an entity's listed name is the smallest name the viewer's entries mention it by). A chapter whose
entries are all hidden from the viewer, or gone, is absent for them: nothing reads a chapter without a visible entry.

An entry that declares no chapter is put in an automatic one (`automatic: true` on the node, `e.auto_period_name` its
name), cut from the entry alone: its session, else its month, else its year. Automatic chapters order and summarise
a project; they are never shared with a witness and never spread the search's graph walk.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from graph.ids import period_id, slug


def slug_of(period: str = "p") -> str:
    """The slug part of chapter `period`'s id (`<project>/period/<slug>`, graph/ids.py): a name whose own slug is
    itself, so it names the very same chapter again (a grant's accounts, an export) without any entry's spelling."""
    return f"substring({period}.id, size({period}.project_id) + size('/period/'))"


def shown_name(entry: str = "e", period: str = "p") -> str:
    """The name entry `entry` shows for its chapter `period`: its own spelling, the automatic chapter's name it was
    given, or the slug (for an entry written before entries kept one)."""
    return f"coalesce({entry}.period_name, {entry}.auto_period_name, {slug_of(period)})"


PERIOD_NAME = shown_name()


AUTO_RULE = 1
"""The version of the rule below: entries cut by an older one are cut again (graph/automatic_periods.py)."""
AUTO_MARK = "~"
"""Starts the slug of an automatic chapter's id: no declared name slugs to it, so the two never share a node."""
SESSION_MAX = 100


@dataclass(frozen=True)
class AutoPeriod:
    id: str
    name: str


def automatic_period(
    project_id: str, start: date | None, end: date | None, session: object = None
) -> AutoPeriod | None:
    """The chapter of an entry that declares none, from the entry alone: its conversation's `session`, else the
    calendar month its date lies in, else the year, else none (a date spanning years). Nothing about another entry
    takes part, so an entry hidden from a viewer never moves, splits or names a chapter that viewer sees."""
    if (
        isinstance(session, (str, int))
        and not isinstance(session, bool)
        and 0 < len(str(session).strip()) <= SESSION_MAX
    ):
        name = f"session {str(session).strip()}"
    elif start is None:
        return None
    else:
        end = end or start
        if (start.year, start.month) == (end.year, end.month):
            name = f"{start.year:04d}-{start.month:02d}"
        elif start.year == end.year:
            name = f"{start.year:04d}"
        else:
            return None
    return AutoPeriod(automatic_id(project_id, name), name)


def automatic_id(project_id: str, name: str) -> str:
    return f"{project_id}/period/{AUTO_MARK}{slug(name)}"


def is_automatic(period_id: str) -> bool:
    return f"/period/{AUTO_MARK}" in period_id


def chapter_ids(project_id: str, name: str) -> list[str]:
    """The chapters a name may mean: the declared one of that name, and the automatic one ("2023-05", "session 3")."""
    return [period_id(project_id, name), automatic_id(project_id, name)]
