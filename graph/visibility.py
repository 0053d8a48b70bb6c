"""`can_see(viewer, entry)` as ONE Cypher predicate, written once here and embedded in every read statement.

Rules (docs/architecture.md, "Privacy: who sees what"), in order: the viewer must belong to the entry's project (or
hold a witness grant for one of its chapters); `private` -> only its author; `intimate` -> its author, the project's
coauthors and owner; `circle` -> any member; `public` -> any member, and witnesses of the entry's chapter. A witness
sees circle and public entries of the chapter they were invited to, and nothing else.

The predicate reads the viewer's role from the graph on every evaluation, so a role change or removal takes effect on
the next query. Statements that use it bind the entry to `e` and pass the parameters of `visibility_params`; they must
not bind `vis_membership` (the predicate's own variable: an outer variable of that name would capture it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

INTIMACY_LEVELS = ("private", "intimate", "circle", "public")
ROLES = ("owner", "coauthor", "reader")
# The one role a member holds in a project, as the predicate reads it: the strongest of their MEMBER_OF edges, and a
# reader's for an edge with no known role (which still shows its member the shared entries). No write path makes two
# edges or one without a role; what reads a role still names one the pages and models know. Over `roles`, collected
# per member and project as `collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END)`, so no edge is no role.
STRONGEST_ROLE = """CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END"""
EDGE_ROLES = "collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END)"


def _member_sees(var: str) -> str:
    return f"""($viewer_id IS NOT NULL AND EXISTS {{
     MATCH (:User {{id: $viewer_id}})-[vis_membership:MEMBER_OF]->(:Project {{id: {var}.project_id}})
     WHERE {var}.intimacy IN ['circle', 'public']
        OR ({var}.intimacy = 'private' AND {var}.author_id = $viewer_id)
        OR ({var}.intimacy = 'intimate' AND ({var}.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  }})"""


def can_see(var: str = "e") -> str:
    """The predicate for an entry bound to `var` (a subquery that binds its own entry names another variable)."""
    return f"""(
  {_member_sees(var)}
  OR ($witness_period_id IS NOT NULL AND {var}.intimacy IN ['circle', 'public'] AND EXISTS {{
     MATCH ({var})-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {{id: $witness_period_id}})
  }})
)"""


CAN_SEE = can_see("e")


def mention_seen(var: str = "m") -> str:
    """A `MENTIONS` edge `var` of an entry the viewer may see, as that viewer may see it: a witness sees declarations
    made `public` only, so a link ingest made through a name or alias declared for members (`witness_hidden`, on a
    circle entry) is not there for them."""
    return f"($witness_period_id IS NULL OR {var}.witness_hidden IS NULL)"


# How often the entry names the entity of a `MENTIONS` edge `m`, as the viewer counts it (a witness does not count
# occurrences of an alias declared for members only).
MENTION_COUNT = "CASE WHEN $witness_period_id IS NULL THEN m.count ELSE coalesce(m.witness_count, m.count) END"


# A name or alias declared by hand, `(d:Declaration)-[:DECLARES]->(entity)`, has an audience stored as `intimacy` and
# read like an entry's: `private` -> its author; `intimate` -> its author, coauthors and owner; `circle` -> members;
# `public` -> members and the witnesses of the project's chapters. Declarations belong to no chapter.
def can_see_declaration(var: str = "d") -> str:
    """The predicate for a declaration or rejection bound to `var`."""
    return f"""(
  {_member_sees(var)}
  OR ($witness_period_id IS NOT NULL AND {var}.intimacy = 'public'
      AND EXISTS {{ MATCH (:Period {{id: $witness_period_id, project_id: {var}.project_id}}) }})
)"""


CAN_SEE_DECLARATION = can_see_declaration("d")


# The same rule with the viewer resolved ONCE per statement, for statements over the entries of ONE project: `CAN_SEE`
# looks the viewer's membership up again for every entry (an index seek and an expansion of the project's members per
# entry, most of an analytics statement's work on a large project). A statement starts with `VIEWER_IN_PROJECT`
# (binding `vis_roles`, the viewer's roles in `$project_id`, and `vis_periods`, the chapters a witness grant covers),
# carries both variables through its WITH clauses, and filters entries with `can_see_in_project(var)`, plain property
# predicates plus, for a witness only, one expansion. For an entry whose `project_id` is `$project_id` (the statement
# must also require that), it is the same predicate as `can_see(var)`: tests/privacy/test_visibility_in_project.py
# checks every (role x intimacy x author x witness) combination on the real Neo4j. Such statements must not bind
# `vis_role` or `vis_chapter` (the predicate's own variables).
VIEWER_IN_PROJECT = """
WITH COLLECT { MATCH (:User {id: $viewer_id})-[vis_m:MEMBER_OF]->(:Project {id: $project_id})
               RETURN coalesce(vis_m.role, '') } AS vis_roles,
     COLLECT { MATCH (vis_p:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) RETURN vis_p } AS vis_periods
"""


def can_see_in_project(var: str = "e") -> str:
    """`can_see(var)` for an entry of `$project_id`, in a statement that bound `vis_roles` and `vis_periods`; an
    entry of any other project is refused by the predicate itself, so a statement that forgets to scope its entries
    cannot show another project's."""
    return f"""({var}.project_id = $project_id AND (
  ($viewer_id IS NOT NULL AND size(vis_roles) > 0 AND (
     {var}.intimacy IN ['circle', 'public']
     OR ({var}.intimacy = 'private' AND {var}.author_id = $viewer_id)
     OR ({var}.intimacy = 'intimate' AND ({var}.author_id = $viewer_id
                                         OR any(vis_role IN vis_roles WHERE vis_role IN ['owner', 'coauthor'])))))
  OR ($witness_period_id IS NOT NULL AND {var}.intimacy IN ['circle', 'public']
      AND any(vis_chapter IN vis_periods WHERE EXISTS {{ MATCH ({var})-[:IN_PERIOD]->(vis_chapter) }}))
))"""


CAN_SEE_IN_PROJECT = can_see_in_project("e")


@dataclass(frozen=True)
class Viewer:
    """Who is asking. A user id comes from a verified token; a witness grant names one chapter."""

    user_id: str | None = None
    witness_period_id: str | None = None

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.witness_period_id is None):
            raise ValueError("a viewer is either a user or a witness of one chapter")

    @property
    def is_witness(self) -> bool:
        return self.witness_period_id is not None


def visibility_params(viewer: Viewer) -> dict[str, Any]:
    """The predicate's parameters, merged into a statement's own by the function that runs it: everything above that
    function passes the Viewer itself (tests/house/test_viewer_typed.py)."""
    return {"viewer_id": viewer.user_id, "witness_period_id": viewer.witness_period_id}


def levels_up_to(intimacy_max: str | None) -> list[str] | None:
    """A caller's `intimacy_max` can only narrow: the levels at or below it, from public upward in openness."""
    if intimacy_max is None:
        return None
    order = ("public", "circle", "intimate", "private")
    return list(order[: order.index(intimacy_max) + 1])
