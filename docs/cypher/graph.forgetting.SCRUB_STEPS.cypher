// graph.forgetting.SCRUB_STEPS
MATCH (s:GenerationStep {project_id: $project_id})
WHERE any(x IN s.entity_ids WHERE x IN $ids)
SET s.entity_ids = null
