// graph.summaries.HAS_OWN
RETURN EXISTS {
  MATCH (e:Entry {project_id: $project_id, author_id: $owner})
  WHERE ($period_id IS NULL OR EXISTS { MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $period_id}) }) AND NOT (e.intimacy IN ['circle', 'public'] OR ($base = 'inner' AND e.intimacy = 'intimate')
     OR (null IS NOT NULL AND e.author_id = null))
} AS own
