"""What a viewer may know of a chapter (a `Period`): its name and its existence come from the entries they may see.

A chapter's id is the slug of its name, so entries that spell it differently ("Oncología (Ward 7)", "oncologia ward
7") share one node. The node keeps no name: each entry keeps its own spelling (`e.period_name`), an entry shows
the chapter by that spelling, and a list of chapters names each by the smallest spelling among the viewer's visible
entries in it (as an entity's listed name is the smallest name the viewer's entries mention it by). A chapter whose
entries are all hidden from the viewer, or gone, is absent for them: nothing reads a chapter without a visible entry.
"""

from __future__ import annotations


def slug_of(period: str = "p") -> str:
    """The slug part of chapter `period`'s id (`<project>/period/<slug>`, graph/ids.py): a name whose own slug is
    itself, so it names the very same chapter again (a grant's accounts, an export) without any entry's spelling."""
    return f"substring({period}.id, size({period}.project_id) + size('/period/'))"


def shown_name(entry: str = "e", period: str = "p") -> str:
    """The name entry `entry` shows for its chapter `period`: its own spelling (the slug only for an entry written
    before entries kept one)."""
    return f"coalesce({entry}.period_name, {slug_of(period)})"


PERIOD_NAME = shown_name()
