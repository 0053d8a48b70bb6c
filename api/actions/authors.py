"""Authors by name: a page shows who wrote an entry as the person the project says they are (graph/member_people.py:
a declaration every member sees, never a witness), a witness's account under the name its link was given (as
`api.actions.witnesses.witness_names`, for the accounts the viewer may see), anyone else by their user name."""

from __future__ import annotations

from collections.abc import Iterable

from api.services import Services
from graph import member_people
from graph.visibility import Viewer
from ingest.pipeline import WITNESS_AUTHOR_PREFIX


def author_names(svc: Services, viewer: Viewer, project_id: str, author_ids: Iterable[str | None]) -> dict[str, str]:
    """Author id -> their display name, for the authors that have one (a witness's link with no name has none)."""
    ids = sorted({a for a in author_ids if a})
    if not ids:
        return {}
    return member_people.author_names(svc.graph, viewer, project_id, ids, WITNESS_AUTHOR_PREFIX)


def shown_authors(svc: Services, viewer: Viewer, project_id: str, author_ids: Iterable[str | None]) -> dict[str, str]:
    """Author id -> what a page shows: `author_names`, else "" for a witness's account (the page says "a witness"),
    else the id itself."""
    ids = sorted({a for a in author_ids if a})
    names = author_names(svc, viewer, project_id, ids)
    return {a: names.get(a) or ("" if a.startswith(WITNESS_AUTHOR_PREFIX) else a) for a in ids}
