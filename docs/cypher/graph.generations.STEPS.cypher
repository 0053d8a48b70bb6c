// graph.generations.STEPS
MATCH (s:GenerationStep {project_id: $project_id, key: $key})
WHERE s.generation > $after AND s.generation <= $upto
RETURN s.generation AS generation, s.entry_ids AS entry_ids, s.entity_ids AS entity_ids
ORDER BY generation
