// graph.summaries.PERIODS_HAS_OWN
UNWIND $period_ids AS period_id
CALL (period_id) {
MATCH (:Period {id: period_id})<-[:PART_OF*0..5]-(:Period)<-[:IN_PERIOD]-(scoped:Entry)
WHERE scoped.project_id = $project_id
WITH DISTINCT scoped AS e
WITH e WHERE e.author_id = $owner AND NOT (e.intimacy IN ['circle', 'public'] OR ($base = 'inner' AND e.intimacy = 'intimate')
     OR (null IS NOT NULL AND e.author_id = null))
RETURN count(e) > 0 AS own
}
RETURN period_id, own
