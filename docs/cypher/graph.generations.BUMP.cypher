// graph.generations.BUMP
UNWIND $rows AS row
MATCH (p:Project {id: row.project_id})
SET p[row.key] = coalesce(p[row.key], 0) + 1
WITH row, p[row.key] AS generation
CREATE (:GenerationStep {project_id: row.project_id, key: row.key, generation: generation,
                         entry_ids: row.entry_ids, entity_ids: row.entity_ids})
WITH row, generation
CALL (row, generation) {
  MATCH (old:GenerationStep {project_id: row.project_id, key: row.key})
  WHERE old.generation <= generation - 256
  DELETE old
}
