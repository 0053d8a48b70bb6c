// graph.witnesses.ACTIVE_GRANT
MATCH (g:WitnessGrant {id: $id})-[:FOR]->(per:Period)
WHERE g.revoked = false AND g.expires_at > datetime()
RETURN g.id AS id, g.project_id AS project_id, g.period_id AS period_id,
       coalesce(g.period_name, substring(per.id, size(per.project_id) + size('/period/'))) AS period_name, toString(g.expires_at) AS expires_at
