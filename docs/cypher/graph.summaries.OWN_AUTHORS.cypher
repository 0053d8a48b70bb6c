// graph.summaries.OWN_AUTHORS
MATCH (e:Entry {project_id: $project_id})
WHERE e.author_id IS NOT NULL AND ($period_id IS NULL OR EXISTS { MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $period_id}) })
  AND e.intimacy IN ['private', 'intimate']
RETURN DISTINCT e.author_id AS author_id, collect(DISTINCT e.intimacy) AS levels
