// graph.summaries.PERIOD_SCOPE_AUTHORS
MATCH (:Period {id: $period_id})<-[:PART_OF*0..5]-(:Period)<-[:IN_PERIOD]-(scoped:Entry)
WHERE scoped.project_id = $project_id
WITH DISTINCT scoped AS e
RETURN e.author_id AS author_id, collect(DISTINCT e.intimacy) AS levels
