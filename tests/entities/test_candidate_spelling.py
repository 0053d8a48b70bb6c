"""A confirmed candidate is spelled as the entries of its audience spell it (docs/SECURITY.md item 15): a spelling
seen only in the confirmer's more private entries is never published, however often it is written there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.candidates import candidate_sources, confirm_candidate, list_candidates
from graph.db import Graph
from graph.entities import list_visible_entities
from graph.members import set_member
from graph.textnorm import fold
from graph.visibility import Viewer

# What recognition stores on an entry (ingest/recognition.py), written here so the spellings are exactly these.
SPOT = """
MATCH (e:Entry {id: $id})
SET e.spotted_kinds = ['person'], e.spotted_names = [$name], e.spotted_keys = [$key], e.spotted_counts = [$count]
"""


def test_a_confirmed_candidate_is_spelled_as_its_audience_spells_it(
    graph: Graph, prefix: str, ingest: Callable[..., Any]
) -> None:
    project, ana, carl = f"{prefix}fam", f"{prefix}ana", f"{prefix}carl"
    set_member(graph, project, ana, "owner")
    set_member(graph, project, carl, "reader")
    rows = [
        ("c1", "circle", "Remedios", 1),
        ("c2", "circle", "Remedios", 1),
        ("p1", "private", "REMEDIOS", 4),
        ("p2", "private", "REMEDIOS", 4),
        ("i1", "intimate", "Remédios", 3),
    ]
    assert not ingest(
        [
            {
                "entry_id": f"{project}/{k}",
                "project_id": project,
                "author": ana,
                "intimacy": level,
                "occurred_on": "2012-05-01",
                "text": f"Una tarde con {name}.",
            }
            for k, level, name, _ in rows
        ]
    ).errors
    for k, _, name, count in rows:
        graph.write(SPOT, {"id": f"{project}/{k}", "name": name, "key": fold(name), "count": count})
    owner, reader = Viewer(user_id=ana), Viewer(user_id=carl)

    # The owner sees every spelling, the private one most often; the name is seen at circle, its most open level.
    source = candidate_sources(graph, project, owner, "remedios", None)
    assert source is not None and source.audience == "circle"
    assert [c.mentions for c in list_candidates(graph, project, owner)] == [2 + 8 + 3]
    assert source.name == "Remedios"
    entity = confirm_candidate(graph, project, source, ana)
    assert entity.name == "Remedios"

    # The reader, who may see the circle entries only, knows the entity by the circle spelling, and nothing else.
    seen = [e for e in list_visible_entities(graph, [project], reader) if fold(e.name) == "remedios"]
    assert [e.name for e in seen] == ["Remedios"]
    assert not {"REMEDIOS", "Remédios"} & {a for e in seen for a in (e.name, *e.aliases)}
