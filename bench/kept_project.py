"""The project a `bench/scale.py --keep` run left behind, and its owner: what the in-process bench scripts measure."""

from __future__ import annotations

from graph.db import Graph

LARGEST = "MATCH (e:Entry) WITH e.project_id AS p, count(*) AS n RETURN p ORDER BY n DESC LIMIT 1"
OWNER = "MATCH (u:User)-[m:MEMBER_OF]->(:Project {id: $p}) WHERE m.role = 'owner' RETURN DISTINCT u.id AS u ORDER BY u"


def kept_project(graph: Graph, project: str | None) -> tuple[str, str]:
    """(`project`, or the project with the most entries; its first owner)."""
    chosen = project or graph.read(LARGEST)[0]["p"]
    owners = graph.read(OWNER, {"p": chosen})
    if not owners:
        raise SystemExit(f"project {chosen} has no owner: is it one a `bench/scale.py --keep` run left?")
    return chosen, owners[0]["u"]
