// graph.witnesses.LIST_GRANTS
MATCH (g:WitnessGrant {project_id: $project_id})
RETURN g.id AS grant_id, g.period_id AS period_id, g.label AS label, g.revoked AS revoked,
       toString(g.expires_at) AS expires_at, g.created_by AS created_by, toString(g.created_at) AS created_at
ORDER BY g.created_at
