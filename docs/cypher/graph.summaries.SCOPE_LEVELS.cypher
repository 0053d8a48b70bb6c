// graph.summaries.SCOPE_LEVELS
MATCH (e:Entry {project_id: $project_id})
WHERE $period_id IS NULL OR EXISTS { MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $period_id}) }
RETURN collect(DISTINCT e.intimacy) AS levels
