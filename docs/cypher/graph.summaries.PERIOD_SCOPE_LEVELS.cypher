// graph.summaries.PERIOD_SCOPE_LEVELS
MATCH (:Period {id: $period_id})<-[:PART_OF*0..5]-(:Period)<-[:IN_PERIOD]-(scoped:Entry)
WHERE scoped.project_id = $project_id
WITH DISTINCT scoped AS e
RETURN collect(DISTINCT e.intimacy) AS levels
