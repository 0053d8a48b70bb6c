// graph.summaries.PERIOD_OWN_AUTHORS
MATCH (:Period {id: $period_id})<-[:PART_OF*0..5]-(:Period)<-[:IN_PERIOD]-(scoped:Entry)
WHERE scoped.project_id = $project_id
WITH DISTINCT scoped AS e
WITH e WHERE e.author_id IS NOT NULL AND e.intimacy IN ['private', 'intimate']
RETURN e.author_id AS author_id, collect(DISTINCT e.intimacy) AS levels
