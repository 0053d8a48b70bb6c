"""A member leaving a project, optionally taking their writing with them.

Before leaving, a member may export what they wrote (`GET /v1/projects/{p}/export?own=true`). Leaving with
`delete_entries` then deletes every entry they wrote, each through the entry delete (graph/forgetting.py: its chunks,
vectors, mentions, the summaries it fed, what it alone named), and the names they declared or rejected and the merges
they made; then their membership. The project's only owner cannot leave (another owner first, or delete the
project), and that is checked before anything is deleted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from graph.db import Graph
from graph.forgetting import authored_entries, drop_authored_names
from graph.members import OWNERS_OF, LastOwner, change_member, role_of
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor


class NotMember(Exception):
    """The user is not a member of the project."""


@dataclass(frozen=True)
class Departure:
    project_id: str
    role: str
    entries_deleted: int
    declarations_deleted: int


def leave_project(
    graph: Graph,
    embedder: CheckedEmbedder,
    project_id: str,
    user_id: str,
    delete_entries: bool,
    progress: Callable[[int], None] | None = None,
) -> Departure:
    """Remove `user_id` from the project, first deleting what they wrote when asked to."""
    role = role_of(graph, project_id, user_id)
    if role is None:
        raise NotMember(project_id)
    owners = [r["user_id"] for r in graph.read(OWNERS_OF, {"project_id": project_id})]
    if role == "owner" and owners == [user_id]:
        raise LastOwner(project_id)
    entries = declarations = 0
    if delete_entries:
        ingestor = Ingestor(graph, embedder, embed=False, source="api", writer=Viewer(user_id=user_id))
        for entry_id in authored_entries(graph, project_id, user_id):
            entries += int(ingestor.delete(entry_id))
            if progress:
                progress(1)
        declarations = drop_authored_names(graph, project_id, user_id)
    change_member(graph, project_id, user_id, None)
    return Departure(project_id, role, entries, declarations)
