// graph.witnesses.REVOKE_GRANT
MATCH (g:WitnessGrant {id: $id, project_id: $project_id})
SET g.revoked = true, g.revoked_at = datetime()
RETURN count(g) AS revoked
