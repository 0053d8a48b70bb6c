// queries.entry_histogram.ENTRY_HISTOGRAM
MATCH (e:Entry {project_id: $project_id})
WHERE (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: e.project_id})
     WHERE e.intimacy IN ['circle', 'public']
        OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
        OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public'] AND EXISTS {
     MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id})
  })
)
WITH e.occurred_start AS start, e.occurred_end AS end
WITH start.year AS year,
     CASE WHEN end IS NOT NULL AND start.year = end.year AND start.month = end.month THEN start.month END AS month
RETURN year, month, count(*) AS entries
ORDER BY year, month
