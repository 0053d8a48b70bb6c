// graph.export.GRANTS
MATCH (g:WitnessGrant {project_id: $project_id})-[:FOR]->(per:Period)
WHERE $own_author IS NULL
RETURN g.id AS id, g.period_name AS period, g.label AS label, g.created_by AS created_by,
       toString(g.created_at) AS created_at, toString(g.expires_at) AS expires_at, g.revoked AS revoked
ORDER BY g.created_at, g.id
