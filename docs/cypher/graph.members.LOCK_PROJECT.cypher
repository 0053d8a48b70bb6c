// graph.members.LOCK_PROJECT
MATCH (p:Project {id: $project_id}) SET p.members_changed_at = datetime() RETURN p.id AS id
