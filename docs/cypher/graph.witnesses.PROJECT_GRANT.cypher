// graph.witnesses.PROJECT_GRANT
MATCH (g:WitnessGrant {id: $id, project_id: $project_id})-[:FOR]->(per:Period)
RETURN g.id AS id, coalesce(g.period_name, substring(per.id, size(per.project_id) + size('/period/'))) AS period_name, g.label AS label,
       toString(g.expires_at) AS expires_at, g.revoked OR g.expires_at <= datetime() AS ended
