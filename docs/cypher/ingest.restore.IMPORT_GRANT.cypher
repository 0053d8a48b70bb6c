// ingest.restore.IMPORT_GRANT
MATCH (p:Project {id: $project_id})
MERGE (per:Period {id: $period_id})
ON CREATE SET per.project_id = $project_id, per.level = 'chapter', per.created_at = datetime()
MERGE (per)-[:PART_OF]->(p)
MERGE (g:WitnessGrant {id: $id})
SET g.project_id = $project_id, g.period_id = $period_id, g.period_name = $period, g.created_by = $created_by,
    g.label = $label,
    g.created_at = datetime($created_at), g.expires_at = datetime($expires_at), g.revoked = $revoked
MERGE (g)-[:FOR]->(per)
