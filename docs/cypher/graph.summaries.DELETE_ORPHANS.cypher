// graph.summaries.DELETE_ORPHANS
MATCH (s:Summary {project_id: $project_id})
WHERE s.scope = 'period'
  AND NOT EXISTS { MATCH (:Entry)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: s.period_id}) }
DETACH DELETE s
