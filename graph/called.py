"""What people call a participant in the conversations a viewer may see: the names messages give it (ingest/
addressing.py), kept on the message's mention of that person (`introduced`: the author's own, `addressed`: spoken to
them) and read only through mentions of entries the viewer may see, as every name of an entity is.

A name counts once the viewer may see one introduction ("I'm Kate") or two messages addressing the person by it
("Hey Kate!", "thanks Kate"): one greeting alone is too weak to rename anyone. A question naming a participant by
any of these names finds that participant (queries/search/query_constraints.py); they are not declared aliases and
the entity's listed aliases do not show them.
"""

from __future__ import annotations

from graph.visibility import can_see, can_see_in_project, mention_seen

# Each name weighed: an introduction counts as two addresses.
_CALLED = """COLLECT {{ MATCH (ce:Entry)-[cm:MENTIONS]->({var})
            WHERE (cm.introduced IS NOT NULL OR cm.addressed IS NOT NULL) AND {sees} AND {seen}
            UNWIND coalesce(cm.introduced, []) + coalesce(cm.introduced, []) + coalesce(cm.addressed, []) AS called
            WITH called, count(*) AS weight WHERE weight >= 2
            RETURN called ORDER BY called }}"""


def called_names(var: str, in_project: bool = False) -> str:
    """The names entity `var` is called by in the viewer's visible messages, as a list expression (`in_project`: the
    statement bound `VIEWER_IN_PROJECT`'s variables)."""
    sees = can_see_in_project("ce") if in_project else can_see("ce")
    return _CALLED.format(var=var, sees=sees, seen=mention_seen("cm"))
